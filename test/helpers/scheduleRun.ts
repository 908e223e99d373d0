/**
 * Runs of the scheduler of one execution on the virtual clock and simulated service of
 * virtualService.ts, with the pacing settings a node has when no option is set.
 */
import type { Attempt, PacingSettings, ScheduleStats } from '../../nodes/MultiChannelNotification/delivery/scheduler';
import { schedule } from '../../nodes/MultiChannelNotification/delivery/scheduler';
import type { ServiceOptions } from './virtualService';
import { Service, VirtualClock } from './virtualService';

// The README's adaptive pacing: it starts with 10 requests in flight and rises to at most 200.
// Written out rather than imported, so changing either in the product fails the tests.
export const INITIAL_LIMIT = 10;
export const ADAPTIVE_CEILING = 200;

/** No Concurrency and no Batch Interval (adaptive pacing), Rate Limit Max Wait 120 s: the defaults. */
export const adaptive: PacingSettings = { batchInterval: 0, maxWaitMs: 120_000 };

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
): Promise<{ clock: VirtualClock; service: Service; stats: ScheduleStats; ms: number; start: number }> {
	const clock = new VirtualClock(startOffsetMs);
	const sim = new Service(clock, service, script);
	const start = clock.now();
	const stats = await clock.run(schedule(count, sim.sender, settings, clock));
	return { clock, service: sim, stats, ms: clock.now() - start, start };
}
