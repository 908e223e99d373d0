/**
 * HTTP 429 in the scheduler of one execution, on a virtual clock (test/helpers/virtualService.ts):
 * the backoff without Retry-After, Retry-After in seconds and as an HTTP date, the pause when
 * nothing got through, and giving up once Rate Limit Max Wait would be passed.
 */
import type { Attempt } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { backoff, retryAfterMs, schedule } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { INITIAL_LIMIT, adaptive, runSchedule } from '../../../helpers/scheduleRun';
import { EPOCH, Service, VirtualClock } from '../../../helpers/virtualService';

describe('HTTP 429', () => {
	const refuse = (times: number, retryAfter?: number) => (job: number, attempt: number): Attempt | undefined =>
		job === 0 && attempt < times ? { kind: 'throttled', ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }) } : undefined;

	test('backoff() doubles from 1 s and stops at 30 s', () => {
		expect([0, 1, 2, 3, 4, 5, 6, 10].map(backoff)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
	});

	test('without Retry-After the item waits 1 s, 2 s, 4 s and is then sent again, the same item', async () => {
		const { service, stats, start } = await runSchedule(1, adaptive, {}, refuse(3));

		expect(service.arrivals.map(({ job, attempt, at }) => [job, attempt, at - start])).toEqual([
			[0, 0, 0],
			[0, 1, 1000],
			[0, 2, 3000],
			[0, 3, 7000],
		]);
		expect(service.delivered.get(0)).toBe(1);
		expect(stats).toMatchObject({ attempts: 4, throttled: 3 });
		// From the first refusal (answered at once, at 0) to the answer of the try that got through.
		expect(stats.longestWaitMs).toBe(7000);
		expect(service.givenUp).toEqual([]);
	});

	test('without Retry-After, while other items get through, a refused item waits the base 1 s every time: the rate is the backoff', async () => {
		// Item 0 (answered in 150 ms) refused three times; items 1… delivered one after another beside it meanwhile.
		const { service } = await runSchedule(60, { ...adaptive, concurrency: 2 }, { latencyMs: (job) => (job === 0 ? 150 : 100) }, refuse(3));

		const tries = service.arrivals.filter((arrival) => arrival.job === 0).map(({ at }) => at);
		expect(tries).toHaveLength(4);
		// From each refusal to the next try: 1 s, or a little more for the rate's next slot; never the backoff's 2 s and 4 s.
		const waits = tries.slice(1).map((at, index) => at - (tries[index] + 150));
		for (const wait of waits) {
			expect(wait).toBeGreaterThanOrEqual(1000);
			expect(wait).toBeLessThan(2000);
		}
		expect(service.delivered.get(0)).toBe(1);
	});

	test('a wait that uses up Rate Limit Max Wait exactly is still waited: only passing it gives up', async () => {
		// Waits of 1 s and 2 s make 3 s, the whole budget; the next, 4 s, would pass it.
		const { service, start } = await runSchedule(1, { ...adaptive, maxWaitMs: 3000 }, {}, refuse(99));

		expect(service.arrivals.map(({ at }) => at - start)).toEqual([0, 1000, 3000]);
		expect(service.givenUp).toEqual([{ job: 0, waitedMs: 3000, askedMs: 4000 }]);
	});

	test('Retry-After is honoured, to the millisecond, whatever the backoff would have been', async () => {
		const { service, start } = await runSchedule(1, adaptive, { latencyMs: 20 }, refuse(2, 2500));

		// Answered at 20 ms, resent at 20 + 2500; answered at 2540, resent at 2540 + 2500.
		expect(service.arrivals.map(({ at }) => at - start)).toEqual([0, 2520, 5040]);
	});

	test('Retry-After in seconds: spaces around it are ignored, a fraction is kept to the millisecond, a number with anything after it is unreadable', () => {
		const now = EPOCH + 437;
		expect(retryAfterMs(' 2 ', now)).toBe(2000);
		expect(retryAfterMs('1.25', now)).toBe(1250);
		// Unreadable: the scheduler backs off on its own rather than wait for a wrong figure.
		expect(retryAfterMs('2s', now)).toBeUndefined();
		expect(retryAfterMs('1.5e3', now)).toBeUndefined();
	});

	test('Retry-After as an HTTP date is honoured', async () => {
		// Refused 437 ms into a second, told to come back at the start of the third second after.
		const date = new Date(EPOCH + 3000).toUTCString();
		const { service, start } = await runSchedule(1, adaptive, {}, (_job, attempt) =>
			attempt === 0 ? { kind: 'throttled', retryAfterMs: retryAfterMs(date, EPOCH + 437) } : undefined,
		);

		expect(service.arrivals.map(({ at }) => at - start)).toEqual([0, 2563]);
	});

	test('a 429 before anything got through in the last second: sends pause for the Retry-After (an HTTP date); the opening window is then spread over the pause', async () => {
		// 437 ms into a second; the HTTP date of the next whole second is 563 ms away.
		const { service, stats, start } = await runSchedule(3, adaptive, { perSecond: 0, retryAfter: 'date' }, (job, attempt) =>
			attempt >= 1 || job > 0 ? { kind: 'done' } : undefined,
		);

		expect(service.arrivals.map(({ job, at }) => [job, at - start])).toEqual([
			[0, 0],
			[1, 0],
			[2, 0],
			[0, 563],
		]);
		// Nothing was measured: the window's opening requests (10), spread over the 563 ms pause.
		expect(stats.rate).toBeCloseTo((INITIAL_LIMIT * 1000) / 563, 6);
	});

	test('gives up once the next wait would pass Rate Limit Max Wait; the other items still go', async () => {
		const { service, start } = await runSchedule(3, { ...adaptive, maxWaitMs: 4000 }, {}, refuse(99));

		// 1 s + 2 s waited; another 4 s would make 7 s > 4 s.
		expect(service.arrivals.filter((arrival) => arrival.job === 0).map(({ at }) => at - start)).toEqual([0, 1000, 3000]);
		expect(service.givenUp).toEqual([{ job: 0, waitedMs: 3000, askedMs: 4000 }]);
		expect([...service.delivered.keys()].sort()).toEqual([1, 2]);
	});

	test('a Retry-After longer than Rate Limit Max Wait is not waited for at all', async () => {
		const { service } = await runSchedule(1, { ...adaptive, maxWaitMs: 60_000 }, {}, refuse(99, 3_600_000));

		expect(service.arrivals).toHaveLength(1);
		expect(service.givenUp).toEqual([{ job: 0, waitedMs: 0, askedMs: 3_600_000 }]);
	});

	/*
	 * A 429 with nothing delivered pauses all sends only for a wait within Rate Limit Max Wait: a
	 * longer one would hold the items not yet sent past their budget (it counts from their own
	 * first 429). Each is tried once and gives up at once instead.
	 */
	test('a long Retry-After with nothing delivered does not hold the items not yet sent past Rate Limit Max Wait', async () => {
		// Every request refused for an hour; the budget is 120 s.
		const { service, ms } = await runSchedule(3, { ...adaptive, concurrency: 1, maxWaitMs: 120_000 }, {}, () => ({
			kind: 'throttled',
			retryAfterMs: 3_600_000,
		}));

		expect(service.givenUp.map((entry) => entry.job)).toEqual([0, 1, 2]);
		expect(ms).toBeLessThanOrEqual(120_000);
	});

	test('Rate Limit Max Wait 0: never resent', async () => {
		const { service } = await runSchedule(1, { ...adaptive, maxWaitMs: 0 }, {}, refuse(99, 1000));

		expect(service.arrivals).toHaveLength(1);
		expect(service.givenUp).toHaveLength(1);
	});

	test("a give-up that says 'stop' ends the run: nothing new starts", async () => {
		const clock = new VirtualClock(0);
		const sim = new Service(clock, { latencyMs: 10 }, refuse(99));
		sim.onGiveUp = 'stop';
		await clock.run(schedule(50, sim.sender, { ...adaptive, concurrency: 1, maxWaitMs: 1500 }, clock));

		// Item 0: refused at 0 and after 1 s; a 2 s wait would pass 1.5 s. Items 1… never start.
		expect(sim.arrivals.map((arrival) => arrival.job)).toEqual([0, 0]);
		expect(sim.givenUp).toHaveLength(1);
	});
});
