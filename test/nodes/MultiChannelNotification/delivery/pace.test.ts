/**
 * One pace per service, shared by every execution (helpers/pace.ts), on a virtual clock against
 * the simulated service of test/helpers/virtualService.ts and its three limiter shapes.
 */
import { Pace, PaceRegistry } from '../../../../nodes/MultiChannelNotification/delivery/pace';
import type { PacingSettings } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { schedule } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import type { LimiterShape, RetryAfterStyle } from '../../../helpers/virtualService';
import { Service, VirtualClock } from '../../../helpers/virtualService';

/** As the README documents: a service's pace is released 10 minutes after its last execution, and at most 64 are remembered. */
const IDLE_MS = 10 * 60 * 1000;
const MAX_SERVICES = 64;

const defaults: PacingSettings = { batchInterval: 0, maxWaitMs: 120_000 };
const SHAPES: LimiterShape[] = ['fixed', 'bucket', 'sliding'];
const STYLES: RetryAfterStyle[] = ['seconds', 'date', 'none'];

function lossless(service: Service, count: number): void {
	expect(service.delivered.size).toBe(count);
	expect(service.duplicates).toBe(0);
}

describe('bulk: one execution, 2,000 items under 100/s', () => {
	const cases = SHAPES.flatMap((shape) => STYLES.map((style) => [shape, style] as const));
	test.each(cases)('%s limiter, Retry-After %s: lossless, within 1.15× of 20 s', async (shape, retryAfter) => {
		const clock = new VirtualClock(437);
		const service = new Service(clock, { perSecond: 100, shape, retryAfter, latencyMs: 5 });
		const start = clock.now();
		await clock.run(schedule(2000, service.sender, defaults, clock));
		lossless(service, 2000);
		expect(clock.now() - start).toBeLessThanOrEqual(1.15 * 20_000);
	});
});

/** 300 executions of one item each, started together, against 20/s with 50 ms latency. */
async function burst(shape: LimiterShape, shared: boolean) {
	const clock = new VirtualClock(437);
	const service = new Service(clock, { perSecond: 20, shape, retryAfter: 'seconds', latencyMs: 50 });
	const pace = new Pace();
	const start = clock.now();
	const runs = Array.from({ length: 300 }, (_, execution) =>
		schedule(
			1,
			{ ...service.sender, send: async (_job, attempt) => await service.sender.send(execution, attempt) },
			defaults,
			clock,
			shared ? pace : new Pace(),
		),
	);
	await clock.run(Promise.all(runs));
	return { service, ms: clock.now() - start, pace };
}

describe('a burst of one-item executions shares one pace', () => {
	test.each(SHAPES)('%s limiter: 300/300 once each, within 1.15× of 15 s, at most 0.2 rejected per message', async (shape) => {
		const { service, ms, pace } = await burst(shape, true);
		lossless(service, 300);
		expect(ms).toBeLessThanOrEqual(1.15 * 15_000);
		expect(service.throttled / 300).toBeLessThanOrEqual(0.2);
		// Every request is over: no execution holds room in the window.
		expect(pace.inFlight).toBe(0);
	});

	test('each execution pacing alone hammers the service', async () => {
		const alone = await burst('fixed', false);
		const shared = await burst('fixed', true);
		lossless(alone.service, 300);
		expect(alone.service.throttled).toBeGreaterThan(5 * shared.service.throttled);
	});
});

describe('a small token bucket refuses the whole opening window', () => {
	// 300 one-item executions against 20/s through a bucket holding 2: the first 10 requests go at
	// once and 8 are refused before anything is delivered. Latencies vary per request (0.6–1.4×
	// 50 ms), so answers do not come back in the order sent. Measured across the 1 s pause, the
	// rate would come to about 2/s and take over ten seconds to climb back (up to 2.3× the ideal).
	test.each([437, 0, 811, 123, 250, 333, 500, 666, 777, 950])('start %i ms into a second: 300/300 once each, within 1.25× of 15 s, at most 0.1 rejected per message', async (offset) => {
		const clock = new VirtualClock(offset);
		const latencyMs = (job: number) => 50 * (0.6 + ((((job + offset) * 7919) % 97) / 97) * 0.8);
		const service = new Service(clock, { perSecond: 20, shape: 'bucket', retryAfter: 'seconds', latencyMs });
		const pace = new Pace();
		const runs = Array.from({ length: 300 }, (_, execution) =>
			schedule(1, { ...service.sender, send: async (_job, attempt) => await service.sender.send(execution, attempt) }, defaults, clock, pace),
		);
		await clock.run(Promise.all(runs));
		lossless(service, 300);
		const delivered = service.arrivals.filter((arrival) => arrival.status === 200).map((arrival) => arrival.at);
		expect(Math.max(...delivered) - Math.min(...delivered)).toBeLessThanOrEqual(1.25 * 15_000);
		expect(service.throttled / 300).toBeLessThanOrEqual(0.1);
	});
});

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

/**
 * Queue mode: `workers` n8n workers, each with its own pace (a worker is its own process), each
 * running at most `concurrency` one-item executions at once, pulled from one queue as n8n's
 * workers pull them. Nothing may be lost or sent twice; and since time here is virtual, the pace
 * is held to bounds as well: the first-to-last delivery time within half again the ideal
 * (300 ÷ 20/s), and fewer refused requests than one for every two messages. Workers' paces keep
 * less close to the limit than one process's (each learns only from its own answers), so these
 * are looser than the single-process tests'; a pace that stalled a worker or kept probing past
 * the limit breaks them.
 */
async function queueBurst(shape: LimiterShape, workers: number, concurrency: number) {
	const clock = new VirtualClock(437);
	const service = new Service(clock, { perSecond: 20, shape, retryAfter: 'seconds', latencyMs: 50 });
	let next = 0;
	const worker = async () => {
		const pace = new Pace();
		const slot = async () => {
			for (let execution = next++; execution < 300; execution = next++) {
				await schedule(1, { ...service.sender, send: async (_job, attempt) => await service.sender.send(execution, attempt) }, defaults, clock, pace);
			}
		};
		await Promise.all(Array.from({ length: concurrency }, slot));
	};
	await clock.run(Promise.all(Array.from({ length: workers }, worker)));
	const delivered = service.arrivals.filter((arrival) => arrival.status === 200).map((arrival) => arrival.at);
	return { service, ratio: (Math.max(...delivered) - Math.min(...delivered)) / 15_000 };
}

describe('queue mode: workers with a pace each, one-item executions from one queue', () => {
	const cases = SHAPES.flatMap((shape) => [[shape, 2, 50], [shape, 2, 5], [shape, 4, 10]] as const);
	test.each(cases)('%s limiter, %i workers at concurrency %i: 300/300 once each', async (shape, workers, concurrency) => {
		const { service, ratio } = await queueBurst(shape, workers, concurrency);
		lossless(service, 300);
		expect(ratio).toBeLessThanOrEqual(1.5);
		expect(service.throttled / 300).toBeLessThan(0.5);
		console.log(`[queue mode, virtual clock] ${shape}, ${workers} workers × ${concurrency}: ${ratio.toFixed(2)}× the ideal, ${(service.throttled / 300).toFixed(3)} × 429 per message`);
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

describe('the registry of paces', () => {
	test('one pace per key, shared while used; two credentials never share', () => {
		const registry = new PaceRegistry();
		const a1 = registry.use('credential-a\u0000https://svc', 0);
		const a2 = registry.use('credential-a\u0000https://svc', 0);
		const b = registry.use('credential-b\u0000https://svc', 0);
		expect(a1.pace).toBe(a2.pace);
		expect(b.pace).not.toBe(a1.pace);
	});

	test('kept while idle for a while (the next burst starts at the learned pace), then released', () => {
		const registry = new PaceRegistry();
		const first = registry.use('k', 0);
		first.pace.rate = 20;
		first.release(1000);
		first.release(1000);
		expect(registry.use('k', 2000).pace.rate).toBe(20);
		const again = registry.use('k', 2000);
		again.release(3000);
		// Still one user (the use at 2000 never released): not forgotten however long it waits.
		expect(registry.use('k', 3000 + 2 * IDLE_MS).pace.rate).toBe(20);
		const lone = registry.use('other', 0);
		lone.pace.rate = 5;
		lone.release(0);
		// Idle one millisecond short of the limit: still remembered; at the limit: forgotten.
		const kept = registry.use('other', IDLE_MS - 1);
		expect(kept.pace.rate).toBe(5);
		kept.release(0);
		registry.use('third', IDLE_MS);
		expect(registry.use('other', IDLE_MS + 1).pace.rate).toBe(Infinity);
	});

	test(`at most ${MAX_SERVICES} services are remembered`, () => {
		const registry = new PaceRegistry();
		for (let key = 0; key < 3 * MAX_SERVICES; key++) registry.use(String(key), key).release(key);
		expect(registry.size).toBe(MAX_SERVICES);
	});

	test('a cancelled run starts nothing more and leaves no room held', async () => {
		const clock = new VirtualClock(0);
		const service = new Service(clock, { latencyMs: 100 });
		const pace = new Pace();
		let cancelled = false;
		const run = schedule(1000, { ...service.sender, cancelled: () => cancelled }, defaults, clock, pace);
		void clock.sleep(250).then(() => (cancelled = true));
		await clock.run(run);
		expect(service.arrivals.length).toBeLessThan(1000);
		expect(pace.inFlight).toBe(0);
	});
});
