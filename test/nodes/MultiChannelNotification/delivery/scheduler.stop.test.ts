/**
 * Stopping the scheduler of one execution, on a virtual clock (test/helpers/virtualService.ts):
 * after an answer that says stop, or a send that throws, nothing new starts and the requests
 * already in flight are waited for.
 */
import { getEventListeners } from 'node:events';

import { schedule } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { adaptive, runSchedule } from '../../../helpers/scheduleRun';
import { Service, VirtualClock } from '../../../helpers/virtualService';

describe('stop', () => {
	test.each([
		["an answer 'stop'", { kind: 'stop' } as const],
		['a send that throws', 'throw' as const],
	])('%s: no new start from then on; the requests in flight finish before schedule() returns', async (_name, outcome) => {
		const clock = new VirtualClock(0);
		// Items 3, 4, 5 start at 100 ms; item 4 fails, answered at 150 ms, the other two at 200 ms.
		const sim = new Service(clock, { latencyMs: (job) => (job === 4 ? 50 : 100) }, (job) =>
			job === 4 ? outcome : undefined,
		);
		let answeredAtReturn = -1;
		let inFlightAtReturn = -1;
		const work = schedule(30, sim.sender, { ...adaptive, concurrency: 3 }, clock).then((stats) => {
			answeredAtReturn = sim.answered;
			inFlightAtReturn = sim.inFlight;
			return stats;
		});
		const stats = await clock.run(work);

		const stopAt = clock.now() - 200 + 150;
		expect(sim.arrivals.filter((arrival) => arrival.at >= stopAt)).toEqual([]);
		// Items 3 and 5, in flight when item 4 failed, finish: none is abandoned.
		expect(sim.arrivals.map((arrival) => arrival.job)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(inFlightAtReturn).toBe(0);
		expect(answeredAtReturn).toBe(6);
		expect(stats.attempts).toBe(6);
		expect([...sim.delivered.keys()].sort()).toEqual([0, 1, 2, 3, 5]);
	});

	test('once stopped, the scheduler only waits for the answers in flight: no timer of its own for a retry that will never start', async () => {
		// Item 0 refused at 10 ms (Retry-After 5 s); item 1 says stop at 100 ms; item 2 answers at 3 s.
		const { service, sleeps, start, ms } = await runSchedule(3, { ...adaptive, concurrency: 3 }, { latencyMs: (job) => [10, 100, 3000][job] }, (job, attempt) =>
			job === 0 && attempt === 0 ? { kind: 'throttled', retryAfterMs: 5000 } : job === 1 ? { kind: 'stop' } : undefined,
		);

		expect(service.arrivals.map((arrival) => arrival.job)).toEqual([0, 1, 2]);
		expect(ms).toBe(3000);
		// The one sleep before the stop, towards the retry; none from the stop on.
		expect(sleeps.map(({ at }) => at - start)).toEqual([10]);
	});

	test("schedule() returns with nothing left listening on the execution's cancel signal", async () => {
		// The signal lives as long as the execution: a listener left on it would keep the run's state alive.
		const clock = new VirtualClock(0);
		const sim = new Service(clock, { latencyMs: 10 });
		const cancel = new AbortController();
		await clock.run(schedule(3, { ...sim.sender, signal: cancel.signal }, adaptive, clock));

		expect(sim.delivered.size).toBe(3);
		expect(getEventListeners(cancel.signal, 'abort')).toEqual([]);
	});
});
