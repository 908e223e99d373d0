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

/** Execution B of `count` items (one unless told), started `atMs` after the clock's start, its schedule's end time noted; its sends recorded on its own. */
function executionB(clock: VirtualClock, pace: Pace, atMs: number, settings: PacingSettings, signal?: AbortSignal, count = 1) {
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
		await schedule(count, sender, settings, clock, pace);
		result.endedAt = clock.now();
	});
	return { ...result, result, run };
}

/**
 * A refused at 50 ms (the pace paused 12 s), B of `count` items started at 100 ms with `settings`,
 * its give-ups answered with `onGiveUp`: both run to their end.
 */
async function aThenB(settings: ReturnType<typeof maxWait>, { count = 1, onGiveUp = 'done' }: { count?: number; onGiveUp?: 'done' | 'stop' } = {}) {
	const clock = new VirtualClock(0);
	const start = clock.now();
	const pace = new Pace();
	const a = executionA(clock, pace);
	const b = executionB(clock, pace, 100, settings, undefined, count);
	b.service.onGiveUp = onGiveUp;
	await clock.run(Promise.all([a.run, b.run]));
	return { start, a, b };
}

describe("another execution's pause and this execution's Rate Limit Max Wait", () => {
	test('B (max wait 2 s) while A\'s 429 pauses the shared pace 12 s: B\'s item gives up at once, nothing sent for it; A goes on', async () => {
		// B starts after A's refusal has paused the pace (A's answer comes at 50 ms).
		const { start, a, b } = await aThenB(maxWait(2));

		expect(b.service.arrivals).toEqual([]);
		expect(b.service.givenUp).toEqual([{ job: 0, waitedMs: 0, askedMs: A_LATENCY_MS + PAUSE_MS - 100 }]);
		// At once: waiting for the pause's end would pass the limit anyway.
		expect(b.givenUpAt.map((at) => at - start)).toEqual([100]);
		expect(b.result.endedAt - start).toBe(100);
		// A's own item waits the pause out and is delivered.
		expect(a.service.delivered.get(0)).toBe(1);
		expect(a.service.givenUp).toEqual([]);
	});

	test('B (max wait 20 s) while the shared pace is paused 12 s: B waits the pause out and is delivered', async () => {
		const { start, b } = await aThenB(maxWait(20));

		expect(b.service.givenUp).toEqual([]);
		expect(b.service.delivered.get(0)).toBe(1);
		expect(b.service.arrivals[0].at - start).toBeGreaterThanOrEqual(A_LATENCY_MS + PAUSE_MS);
	});

	test('a refused item of B waiting for its retry when A\'s 429 pauses the pace 12 s: given up then, not at the pause\'s end', async () => {
		const clock = new VirtualClock(0);
		const start = clock.now();
		const pace = new Pace();
		// B: item 0 delivered at 50 ms; item 1 refused at 60 ms with Retry-After 1 s (a cut, not a pause: something got through).
		const latencyB = (job: number) => (job === 0 ? 50 : 60);
		const service = new Service(clock, { latencyMs: latencyB }, (job, attempt): Attempt | undefined =>
			job === 1 && attempt === 0 ? { kind: 'throttled', retryAfterMs: 1000 } : undefined,
		);
		const givenUpAt: number[] = [];
		const sender = {
			...service.sender,
			giveUp: (job: number, waitedMs: number, askedMs: number) => {
				givenUpAt.push(clock.now());
				return service.sender.giveUp(job, waitedMs, askedMs);
			},
		};
		const b = schedule(2, sender, maxWait(2), clock, pace);
		// A: sent at 0, refused at 300 ms with Retry-After 12 s; nothing got through since B's cut: every send pauses.
		const a = new Service(clock, { latencyMs: 300 }, (_job, attempt): Attempt | undefined =>
			attempt === 0 ? { kind: 'throttled', retryAfterMs: PAUSE_MS } : undefined,
		);
		const aRun = schedule(1, a.sender, adaptive, clock, pace);
		await clock.run(Promise.all([aRun, b]));

		expect(service.arrivals.map(({ job, attempt }) => [job, attempt])).toEqual([
			[0, 0],
			[1, 0],
		]);
		expect(service.delivered.has(1)).toBe(false);
		expect(service.givenUp).toEqual([{ job: 1, waitedMs: 300 - 60, askedMs: PAUSE_MS }]);
		expect(givenUpAt.map((at) => at - start)).toEqual([300]);
		expect(a.delivered.get(0)).toBe(1);
	});

	test('two pauses apart, the second seen only when it begins: B\'s item counts its wait from the second, not from the first', async () => {
		const clock = new VirtualClock(0);
		const pace = new Pace();
		// B, one in flight (Concurrency 1): item 0 answered at 5 s, so item 1 waits for room until then.
		const b = new Service(clock, { latencyMs: (job) => (job === 0 ? 5000 : 0) });
		const bRun = schedule(2, b.sender, { ...maxWait(2), concurrency: 1 }, clock, pace);
		// A: refused at 50 ms (pause to 1,050 ms), sent again at 1,050 ms and refused at 3 s (pause to 4 s), then delivered.
		const aLatency = [50, 1950, 0];
		const a = {
			send: async (_job: number, attempt: number): Promise<Attempt> => {
				await clock.sleep(aLatency[attempt]);
				return attempt < 2 ? { kind: 'throttled', retryAfterMs: 1000 } : { kind: 'done' };
			},
			giveUp: () => 'done' as const,
		};
		await clock.run(Promise.all([bRun, schedule(1, a, adaptive, clock, pace)]));

		// Each pause lasts 1 s, within B's 2 s; the first pause's start does not count for the second.
		expect(b.givenUp).toEqual([]);
		expect([...b.delivered.keys()].sort()).toEqual([0, 1]);
	});

	test('a pause B already waits for, extended by a later 429 past B\'s max wait: B\'s item gives up then, its wait counted from the pause it first saw', async () => {
		const clock = new VirtualClock(0);
		const start = clock.now();
		const pace = new Pace();
		// A, four items sent at 0: item 0 delivered at 100 ms; item 1 refused at 200 ms (a cut to
		// 10/s over 100 ms, not a pause: something got through; its Retry-After past A's max wait, it
		// gives up); item 2 refused at 2 s with Retry-After 8 s, nothing delivered in the last second:
		// the pace pauses to 10 s; item 3 refused at 7 s with Retry-After 9 s: the pause grows to 16 s.
		const aLatency = [100, 200, 2000, 7000];
		const aRetryAfter = [0, 200_000, 8000, 9000];
		const a = {
			send: async (job: number, attempt: number): Promise<Attempt> => {
				if (attempt > 0) return { kind: 'done' };
				await clock.sleep(aLatency[job]);
				return job === 0 ? { kind: 'done' } : { kind: 'throttled', retryAfterMs: aRetryAfter[job] };
			},
			giveUp: () => 'done' as const,
		};
		const aRun = schedule(4, a, adaptive, clock, pace);
		// B (max wait 10 s) starts at 2.1 s and waits for the pause to 10 s (7.9 s); at 7 s it would
		// end 13.9 s after B began to wait, past 10 s (though only 9 s after 7 s): B gives up then.
		const b = executionB(clock, pace, 2100, maxWait(10));
		await clock.run(Promise.all([aRun, b.run]));

		expect(pace.pauseEnd() - start).toBe(16_000);
		expect(b.service.arrivals).toEqual([]);
		expect(b.service.givenUp).toEqual([{ job: 0, waitedMs: 7000 - 2100, askedMs: 16_000 - 7000 }]);
		expect(b.givenUpAt.map((at) => at - start)).toEqual([7000]);
		expect(b.result.endedAt - start).toBe(7000);
	});

	test('B (max wait 2 s, three items) while A\'s 429 pauses the shared pace 12 s: every item gives up at once, each once, nothing sent', async () => {
		// B starts at 100 ms, after A's refusal at 50 ms has paused the pace to 12,050 ms.
		const { start, b } = await aThenB(maxWait(2), { count: 3 });

		expect(b.service.arrivals).toEqual([]);
		const asked = A_LATENCY_MS + PAUSE_MS - 100;
		expect(b.service.givenUp).toEqual([0, 1, 2].map((job) => ({ job, waitedMs: 0, askedMs: asked })));
		expect(b.givenUpAt.map((at) => at - start)).toEqual([100, 100, 100]);
		expect(b.result.endedAt - start).toBe(100);
	});

	test('B (three items) held past its max wait by A\'s pause, the first give-up answering stop: no other item given up, nothing sent', async () => {
		// The first give-up fails the run (no Continue On Fail): the run stops there.
		const { start, a, b } = await aThenB(maxWait(2), { count: 3, onGiveUp: 'stop' });

		expect(b.service.arrivals).toEqual([]);
		expect(b.service.givenUp).toEqual([{ job: 0, waitedMs: 0, askedMs: A_LATENCY_MS + PAUSE_MS - 100 }]);
		expect(b.result.endedAt - start).toBe(100);
		expect(a.service.delivered.get(0)).toBe(1);
	});
});

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

	test('B started already cancelled while A\'s 429 holds the shared pace past B\'s max wait: nothing given up, nothing sent', async () => {
		const clock = new VirtualClock(0);
		const start = clock.now();
		const pace = new Pace();
		const a = executionA(clock, pace);
		const stop = new AbortController();
		stop.abort();
		// B (max wait 2 s) starts at 100 ms, the pace paused to 12,050 ms: were it not stopped, its item would give up.
		const b = executionB(clock, pace, 100, maxWait(2), stop.signal);
		await clock.run(Promise.all([a.run, b.run]));

		expect(b.service.givenUp).toEqual([]);
		expect(b.service.arrivals).toEqual([]);
		expect(b.result.endedAt - start).toBe(100);
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
