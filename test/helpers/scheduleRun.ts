/**
 * Runs of the scheduler of one execution on the virtual clock and simulated service of
 * virtualService.ts, with the pacing settings a node has when no option is set.
 */
import type { Attempt, Clock, PacingSettings, ScheduleStats } from '../../nodes/MultiChannelNotification/delivery/scheduler';
import { schedule } from '../../nodes/MultiChannelNotification/delivery/scheduler';
import type { ServiceOptions } from './virtualService';
import { EPOCH, Service, VirtualClock } from './virtualService';

// The README's adaptive pacing: it starts with 10 requests in flight and rises to at most 200.
// Written out rather than imported, so changing either in the product fails the tests.
export const INITIAL_LIMIT = 10;
export const ADAPTIVE_CEILING = 200;

/** No Concurrency and no Batch Interval (adaptive pacing), Rate Limit Max Wait 120 s: the defaults. */
export const adaptive: PacingSettings = { batchInterval: 0, maxWaitMs: 120_000 };

/** Sleeps in a row at one instant that make a run fail as a busy loop (far more than answers can land at once). */
const BUSY_LOOP_SLEEPS = 1000;

/**
 * The scheduler's own view of `clock`, apart from the simulated service's: records when it starts
 * each sleep and for how long, and fails the run when it sleeps {@link BUSY_LOOP_SLEEPS} times at
 * one instant. Such a loop never lets virtual time move (the run would hang); on the real clock it
 * would spin until something changed.
 */
export function watchedClock(clock: VirtualClock): Clock & { sleeps: Array<{ at: number; ms: number }> } {
	const sleeps: Array<{ at: number; ms: number }> = [];
	return {
		sleeps,
		now: () => clock.now(),
		sleep: async (ms) => {
			const at = clock.now();
			sleeps.push({ at, ms });
			if (sleeps.length >= BUSY_LOOP_SLEEPS && sleeps[sleeps.length - BUSY_LOOP_SLEEPS].at === at) {
				throw new Error(`busy loop: the scheduler slept ${BUSY_LOOP_SLEEPS} times at one instant, ${at - EPOCH} ms past EPOCH`);
			}
			await clock.sleep(ms);
		},
	};
}

/**
 * `count` items through one schedule against a simulated service; `script` decides an attempt's
 * answer where it returns one. The clock starts `startOffsetMs` into a second, as real runs do.
 */
export async function runSchedule(
	count: number,
	settings: PacingSettings,
	service: ServiceOptions = {},
	script?: (job: number, attempt: number) => Attempt | 'throw' | undefined,
	startOffsetMs = 437,
): Promise<{ clock: VirtualClock; service: Service; stats: ScheduleStats; ms: number; start: number; sleeps: Array<{ at: number; ms: number }> }> {
	const clock = new VirtualClock(startOffsetMs);
	const sim = new Service(clock, service, script);
	const start = clock.now();
	const own = watchedClock(clock);
	const stats = await clock.run(schedule(count, sim.sender, settings, own));
	return { clock, service: sim, stats, ms: clock.now() - start, start, sleeps: own.sleeps };
}
