/**
 * One pace per service, shared by every execution (delivery/pace.ts), in whole runs on a virtual
 * clock against the simulated service of test/helpers/virtualService.ts and its three limiter
 * shapes: one execution of many items, bursts of one-item executions sharing a pace or each
 * pacing alone, a token bucket too small for the opening window, and queue-mode workers with a
 * pace each.
 */
import { Pace } from '../../../../nodes/MultiChannelNotification/delivery/pace';
import { schedule } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { adaptive as defaults } from '../../../helpers/scheduleRun';
import type { LimiterShape, RetryAfterStyle } from '../../../helpers/virtualService';
import { Service, VirtualClock } from '../../../helpers/virtualService';

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
