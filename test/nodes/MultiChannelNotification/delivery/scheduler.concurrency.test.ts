/**
 * How many requests the scheduler of one execution keeps in flight, on a virtual clock
 * (test/helpers/virtualService.ts): adaptive when no Concurrency is set, exactly Concurrency when
 * it is, and whole batches with a pause between them when Batch Interval is set.
 */
import { ADAPTIVE_CEILING, INITIAL_LIMIT, adaptive, runSchedule } from '../../../helpers/scheduleRun';

describe('adaptive concurrency (no Concurrency set)', () => {
	test(`starts with ${INITIAL_LIMIT} in flight, doubles each round trip, reaches ${ADAPTIVE_CEILING} and never goes above`, async () => {
		const { service, stats, ms, start } = await runSchedule(2000, adaptive, { latencyMs: 100 });

		expect(service.startsAt(start)).toBe(INITIAL_LIMIT);
		// +1 per clean answer: each round trip's answers let twice as many start.
		expect(service.startsAt(start + 100)).toBe(2 * INITIAL_LIMIT);
		expect(service.startsAt(start + 200)).toBe(4 * INITIAL_LIMIT);
		expect(service.maxInFlight).toBe(ADAPTIVE_CEILING);
		expect(stats.maxInFlight).toBe(ADAPTIVE_CEILING);
		expect(Math.max(...service.arrivals.map((arrival) => arrival.inFlight))).toBe(ADAPTIVE_CEILING);
		expect(service.delivered.size).toBe(2000);
		expect(service.duplicates).toBe(0);
		expect(stats).toMatchObject({ attempts: 2000, throttled: 0 });
		expect(stats.rate).toBeUndefined();
		// At the ceiling 100 in flight ÷ 100 ms = 1,000 items/s: 2 s, plus about 0.4 s of ramp.
		expect(ms).toBeLessThanOrEqual(2500);
	});

	test('a slow service does not make it open more than the ceiling', async () => {
		const { service } = await runSchedule(1000, adaptive, { latencyMs: 2000 });

		expect(service.maxInFlight).toBe(ADAPTIVE_CEILING);
		expect(service.delivered.size).toBe(1000);
	});

	test('a service that slows down under the load stops the growth far below the ceiling, and loses nothing', async () => {
		// 100 ms up to 40 requests in flight, then 10 ms more for each one above that.
		const { service, stats } = await runSchedule(2000, adaptive, {
			latencyMs: (_job, inFlight) => 100 + Math.max(0, inFlight - 40) * 10,
		});

		// Slow start overshoots the knee once (the first slow answers come back a round trip
		// late), then the window settles near it instead of climbing to the ceiling.
		expect(service.maxInFlight).toBeLessThan(ADAPTIVE_CEILING * 0.7);
		// Second half: it holds where answers take 1.5–2× the quickest (47–52 in flight here).
		const late = service.arrivals.slice(1000);
		const meanInFlight = late.reduce((sum, arrival) => sum + arrival.inFlight, 0) / late.length;
		expect(meanInFlight).toBeGreaterThan(40);
		expect(meanInFlight).toBeLessThan(60);
		expect(service.delivered.size).toBe(2000);
		expect(stats).toMatchObject({ attempts: 2000, throttled: 0 });
	});

	test('fewer items than the starting window: all at once', async () => {
		const { service, start } = await runSchedule(4, adaptive, { latencyMs: 100 });

		expect(service.startsAt(start)).toBe(4);
	});
});

describe('pinned concurrency (Concurrency set)', () => {
	test.each([1, 7, 100])('concurrency %i: exactly that many in flight from the start to the last item', async (concurrency) => {
		const count = 3 * concurrency + 5;
		const { service, stats } = await runSchedule(count, { ...adaptive, concurrency }, { latencyMs: 50 });

		// Each round trip refills the window to exactly `concurrency` (the last one: what is left).
		const rounds = [...new Set(service.arrivals.map((arrival) => arrival.at))].map((at) =>
			Math.max(...service.arrivals.filter((arrival) => arrival.at === at).map((arrival) => arrival.inFlight)),
		);
		const full = Math.floor(count / concurrency);
		expect(rounds).toEqual([
			...Array<number>(full).fill(concurrency),
			...(count % concurrency > 0 ? [count % concurrency] : []),
		]);
		expect(stats.maxInFlight).toBe(concurrency);
		expect(service.delivered.size).toBe(count);
	});

	test('answers at different times: each one lets exactly one more start, never above Concurrency', async () => {
		const { service } = await runSchedule(60, { ...adaptive, concurrency: 7 }, { latencyMs: (job) => 20 + ((job * 37) % 90) });

		const inFlight = service.arrivals.map((arrival) => arrival.inFlight);
		expect(inFlight.slice(0, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		// Answers that land at the same moment free several places, all refilled at that moment.
		const times = [...new Set(service.arrivals.map((arrival) => arrival.at))];
		const refilledTo = times.map((at) =>
			Math.max(...service.arrivals.filter((arrival) => arrival.at === at).map((arrival) => arrival.inFlight)),
		);
		expect(times.length).toBeGreaterThan(30);
		expect(new Set(refilledTo.slice(0, -1))).toEqual(new Set([7]));
		expect(Math.max(...inFlight)).toBe(7);
	});

	test('concurrency 1 is strictly one after another, in item order', async () => {
		const { service, start } = await runSchedule(5, { ...adaptive, concurrency: 1 }, { latencyMs: 30 });

		expect(service.arrivals.map(({ job, at }) => [job, at - start])).toEqual([
			[0, 0],
			[1, 30],
			[2, 60],
			[3, 90],
			[4, 120],
		]);
	});
});

describe('batches (Batch Interval set)', () => {
	test('a batch of Concurrency items, all answered, then the pause, then the next batch', async () => {
		const { service, start } = await runSchedule(17, { concurrency: 5, batchInterval: 1000, maxWaitMs: 120_000 }, { latencyMs: 100 });

		const starts = service.arrivals.map((arrival) => arrival.at - start);
		expect(starts).toEqual([
			...Array<number>(5).fill(0),
			...Array<number>(5).fill(1100),
			...Array<number>(5).fill(2200),
			...Array<number>(2).fill(3300),
		]);
		expect(service.arrivals.map((arrival) => arrival.job)).toEqual(Array.from({ length: 17 }, (_, job) => job));
	});

	test("the pause counts from the batch's last answer, however early the others came", async () => {
		const { service, start } = await runSchedule(4, { concurrency: 2, batchInterval: 1000, maxWaitMs: 120_000 }, {
			latencyMs: (job) => (job === 1 ? 300 : 100),
		});

		expect(service.arrivals.map(({ job, at }) => [job, at - start])).toEqual([
			[0, 0],
			[1, 0],
			[2, 1300],
			[3, 1300],
		]);
	});

	test('under a rate learned from a 429, a batch still holds Concurrency items, started at the rate, not one item per pause', async () => {
		// 4 a second admitted: the first batch of 5 draws a 429, and from then on every start takes a slot of the rate.
		const { service, start } = await runSchedule(30, { concurrency: 5, batchInterval: 1000, maxWaitMs: 120_000 }, { latencyMs: 100, perSecond: 4 });

		// A batch's starts are a slot of the rate apart (at most 1 s at 1/s); batches are at least the pause apart.
		const batches: number[][] = [];
		for (const arrival of service.arrivals) {
			const at = arrival.at - start;
			const last = batches.at(-1);
			if (last !== undefined && at - (last.at(-1) ?? at) < 1000) last.push(at);
			else batches.push([at]);
		}
		expect(service.arrivals.some((arrival) => arrival.status === 429)).toBe(true);
		expect(batches.slice(0, -1).map((batch) => batch.length)).toEqual(Array<number>(batches.length - 1).fill(5));
		expect(service.delivered.size).toBe(30);
		expect(service.duplicates).toBe(0);
	});

	test('a batch refused whole: the pause ends before the retries are due, and the scheduler sleeps till then rather than spin', async () => {
		// Both items refused at 100 ms with Retry-After 2 s: the pause ends at 1,100 ms, the retries are due at 2,100 ms.
		const { service, start, sleeps } = await runSchedule(2, { concurrency: 2, batchInterval: 1000, maxWaitMs: 120_000 }, { latencyMs: 100 }, (_job, attempt) =>
			attempt === 0 ? { kind: 'throttled', retryAfterMs: 2000 } : undefined,
		);

		expect(service.arrivals.slice(0, 3).map(({ job, at }) => [job, at - start])).toEqual([
			[0, 0],
			[1, 0],
			[0, 2100],
		]);
		expect([...service.delivered.keys()].sort()).toEqual([0, 1]);
		// It sleeps till the retries are due and between their starts: a handful of times, not once per turn of a loop.
		expect(sleeps.length).toBeLessThan(10);
	});
});
