/**
 * The rate a pace learns (delivery/pace.ts), driven answer by answer: how it climbs back after a
 * cut, how a burst after a quiet while is measured, and that a measured rate never stops the
 * sends, down to a worker whose window other workers spent (on the virtual clock of
 * test/helpers/virtualService.ts).
 */
import { Pace } from '../../../../nodes/MultiChannelNotification/delivery/pace';
import { schedule } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { adaptive as defaults } from '../../../helpers/scheduleRun';
import { Service, VirtualClock } from '../../../helpers/virtualService';

describe('a raise after a cut', () => {
	/** 40 requests at once; one is delivered at 50 ms, the others are refused at 60 ms: the rate is cut to 10/s. */
	function cutTo10(): Pace {
		const pace = new Pace();
		for (let request = 0; request < 40; request++) pace.take(0);
		pace.onDone(50, 50, true);
		for (let request = 0; request < 40; request++) {
			if (request > 0) pace.onThrottled(60, 1000, 120_000, 0);
			pace.settle();
		}
		expect(pace.rate).toBe(10);
		return pace;
	}

	/** One request sent 60 ms before `at` and delivered at `at`. */
	function deliver(pace: Pace, at: number): void {
		pace.take(at - 60);
		pace.onDone(at, 60, true);
		pace.settle();
	}

	test('adds at least a twentieth of the most requests started within one second, however low the rate was cut', () => {
		const pace = cutTo10();
		// Raises start 2 s after the cut: 10 % of 10/s would be 1; a twentieth of 40 is 2.
		deliver(pace, 2060);
		expect(pace.rate).toBe(12);
	});

	test('adds at least a twentieth of the opening window when the pace never started that many', () => {
		// One request at a time: one delivered, then a 429 990 ms later: about 1/s.
		const pace = new Pace();
		pace.take(0);
		pace.onDone(50, 50, true);
		pace.settle();
		pace.take(1000);
		pace.onThrottled(1040, 1000, 120_000, 1000);
		pace.settle();
		expect(pace.rate).toBeCloseTo(1.01, 2);
		// A twentieth of the one request started is 0.05; a twentieth of the opening window's 10 is 0.5.
		deliver(pace, 3040);
		expect(pace.rate).toBeCloseTo(1.51, 2);
	});

	test('raises follow the clock: a pace delivering once a second climbs as fast as one delivering every 100 ms', () => {
		const busy = cutTo10();
		const sparse = cutTo10();
		for (let at = 2060; at <= 5060; at += 100) deliver(busy, at);
		for (let at = 2060; at <= 5060; at += 1000) deliver(sparse, at);
		// Raised once per delivery, the sparse pace would be at 18/s beside the busy one's 24/s.
		expect(busy.rate).toBeCloseTo(24.2, 5);
		expect(sparse.rate).toBeGreaterThanOrEqual(0.9 * busy.rate);
	});
});

describe('a burst after a quiet while', () => {
	// One message a while ago, then a burst: the first 429 comes 60 ms after the burst's first
	// delivery. Measured from the message before the quiet, the one delivery would count as a
	// whole second's worth (1/s); measured over the burst's own span, it is one per 100 ms.
	test.each([2000, 60_000])('a message %i ms before: the first 429 measures the rate over the burst alone', (quietMs) => {
		const pace = new Pace();
		pace.take(0);
		pace.onDone(50, 50, true);
		pace.settle();
		const burstAt = 50 + quietMs;
		for (let request = 0; request < 10; request++) pace.take(burstAt);
		pace.onDone(burstAt + 50, 50, true);
		pace.onThrottled(burstAt + 60, 1000, 120_000, burstAt);
		expect(pace.rate).toBe(10);
	});

	test('a rate once set: the next burst is measured over the last second (a window of 100 let through at once is 100/s, not 1,000/s)', () => {
		// A first burst sets a rate from 100 deliveries within 10 ms, over the shortest span: 1,000/s.
		const pace = new Pace();
		for (let request = 0; request <= 100; request++) pace.take(0);
		for (let request = 0; request < 100; request++) pace.onDone(10 + request / 10, 10, true);
		pace.onThrottled(20, 1000, 120_000, 0);
		expect(pace.rate).toBe(1000);
		// Five seconds later, 100 more within 100 ms, then a 429.
		for (let request = 0; request <= 100; request++) pace.take(5000);
		for (let request = 0; request < 100; request++) pace.onDone(5001 + request, 1, true);
		pace.onThrottled(5105, 1000, 120_000, 5000);
		expect(pace.rate).toBe(100);
	});
});

describe('a rate once measured never stops the sends', () => {
	// A worker whose first answers are one delivery and, more than a tenth of a second later, a 429
	// (other workers took the service's tokens): the rate is measured from that one delivery, and
	// must let the next request start (a rate of 0 would hold every execution forever).
	test.each([150, 500, 999])('one delivery, then a 429 %i ms later: a finite rate, the next slot within a second', (gap) => {
		const pace = new Pace();
		pace.take(0);
		pace.onDone(50, 50, true);
		pace.settle();
		pace.take(gap);
		pace.onThrottled(50 + gap, 1000, 120_000, gap);
		pace.settle();
		expect(pace.rate).toBeGreaterThan(0);
		expect(pace.slot()).toBeLessThanOrEqual(50 + gap + 1000 + 1000);
	});

	test('a worker that delivered once before the others spent the window still delivers all its items', async () => {
		const clock = new VirtualClock(0);
		const service = new Service(clock, { perSecond: 20, shape: 'fixed', retryAfter: 'seconds', latencyMs: 50 });
		const pace = new Pace();
		const start = clock.now();
		// Another client spends the rest of the service's second at 200 ms, so this worker's second request is refused.
		void clock.sleep(200).then(async () => await Promise.all(Array.from({ length: 25 }, async (_, index) => await service.sender.send(1000 + index, 0))));
		const runs = [0, 1].map(async (execution) => {
			if (execution === 1) await clock.sleep(300);
			await schedule(1, { ...service.sender, send: async (_job, attempt) => await service.sender.send(execution, attempt) }, defaults, clock, pace);
		});
		await clock.run(Promise.all(runs));
		expect(service.delivered.has(0)).toBe(true);
		expect(service.delivered.has(1)).toBe(true);
		expect(service.arrivals.filter((arrival) => arrival.job === 1).map((arrival) => arrival.status)).toEqual([429, 200]);
		// Virtual time: the refused item goes again after the service's Retry-After (1 s), not never.
		expect(clock.now() - start).toBeLessThan(5000);
	});
});

describe('the step of a raise', () => {
	test('counts the starts within one second: a start exactly one second after others begins a new second', () => {
		const pace = new Pace();
		for (let started = 0; started < 11; started++) pace.take(0);
		// The 11 starts at 0 are a second old at 1000: the most within one second stays 11, not 12.
		pace.take(1000);
		pace.onDone(1050, 50, true);
		pace.onThrottled(2040, 1000, 120_000, 1050);
		// One delivered over 990 ms.
		expect(pace.rate).toBeCloseTo(1000 / 990, 9);
		// Two seconds after the cut: one step of 5 % of 11 starts, above 10 % of the rate.
		pace.onDone(4040, 50, true);
		expect(pace.rate).toBeCloseTo(1000 / 990 + 0.55, 9);
	});
});
