/**
 * One execution's pause and another's limits, on a virtual clock (test/helpers/virtualService.ts):
 * a 429 to execution A pauses the service's shared pace (delivery/pace.ts) for A's Retry-After;
 * execution B sharing it keeps to its own Rate Limit Max Wait, and Stop ends B's wait at once.
 */
import { Pace } from '../../../../nodes/MultiChannelNotification/delivery/pace';
import type { Attempt, PacingSettings } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { schedule } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { adaptive } from '../../../helpers/scheduleRun';
import { Service, VirtualClock } from '../../../helpers/virtualService';

const PAUSE_MS = 12_000;
const A_LATENCY_MS = 50;
const maxWait = (seconds: number): PacingSettings => ({ ...adaptive, maxWaitMs: seconds * 1000 });

/** Execution A: one item, refused once with Retry-After 12 s (a fresh pace: every send pauses), then delivered. */
function executionA(clock: VirtualClock, pace: Pace) {
	const service = new Service(clock, { latencyMs: A_LATENCY_MS }, (_job, attempt): Attempt | undefined =>
		attempt === 0 ? { kind: 'throttled', retryAfterMs: PAUSE_MS } : undefined,
	);
	return { service, run: schedule(1, service.sender, adaptive, clock, pace) };
}

/** Execution B, started `atMs` after the clock's start, its schedule's end time noted; its sends recorded on its own. */
function executionB(clock: VirtualClock, pace: Pace, atMs: number, settings: PacingSettings, signal?: AbortSignal) {
	const service = new Service(clock);
	const givenUpAt: number[] = [];
	const sender = {
		...service.sender,
		giveUp: (job: number, waitedMs: number, askedMs: number) => {
			givenUpAt.push(clock.now());
			return service.sender.giveUp(job, waitedMs, askedMs);
		},
		signal,
	};
	const result = { service, givenUpAt, endedAt: NaN };
	const run = clock.sleep(atMs).then(async () => {
		await schedule(1, sender, settings, clock, pace);
		result.endedAt = clock.now();
	});
	return { ...result, result, run };
}

describe('Stop during a wait', () => {
	test('B waiting out A\'s 12 s pause is cancelled at 1 s: its schedule ends at 1 s, nothing sent, nothing given up', async () => {
		const clock = new VirtualClock(0);
		const start = clock.now();
		const pace = new Pace();
		const a = executionA(clock, pace);
		const stop = new AbortController();
		const b = executionB(clock, pace, 100, maxWait(120), stop.signal);
		void clock.sleep(1000).then(() => stop.abort());
		await clock.run(Promise.all([a.run, b.run]));

		expect(b.result.endedAt - start).toBe(1000);
		expect(b.service.arrivals).toEqual([]);
		expect(b.service.givenUp).toEqual([]);
		expect(pace.inFlight).toBe(0);
	});

	test('an item waiting for its own Retry-After of 60 s is cancelled at 1 s: the schedule ends at 1 s without sending it again', async () => {
		const clock = new VirtualClock(0);
		const start = clock.now();
		const service = new Service(clock, {}, (_job, attempt): Attempt | undefined =>
			attempt === 0 ? { kind: 'throttled', retryAfterMs: 60_000 } : undefined,
		);
		const stop = new AbortController();
		void clock.sleep(1000).then(() => stop.abort());
		const sender = { ...service.sender, signal: stop.signal };
		await clock.run(schedule(1, sender, adaptive, clock));

		expect(clock.now() - start).toBe(1000);
		expect(service.arrivals).toHaveLength(1);
		expect(service.givenUp).toEqual([]);
	});
});
