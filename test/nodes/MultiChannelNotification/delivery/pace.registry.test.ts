/**
 * The registry of paces (delivery/pace.ts): one pace per credential and service, kept while idle
 * for a while and then released, a bounded number remembered; and a cancelled run that leaves no
 * room held in its pace.
 */
import { Pace, PaceRegistry } from '../../../../nodes/MultiChannelNotification/delivery/pace';
import { schedule } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { adaptive as defaults } from '../../../helpers/scheduleRun';
import { Service, VirtualClock } from '../../../helpers/virtualService';

/** As the README documents: a service's pace is released 10 minutes after its last execution, and at most 64 are remembered. */
const IDLE_MS = 10 * 60 * 1000;
const MAX_SERVICES = 64;

describe('the registry of paces', () => {
	test('one pace per key, shared while used; two credentials never share', () => {
		const registry = new PaceRegistry();
		const a1 = registry.use('credential-a\u0000https://svc', 0);
		const a2 = registry.use('credential-a\u0000https://svc', 0);
		const b = registry.use('credential-b\u0000https://svc', 0);
		expect(a1.pace).toBe(a2.pace);
		expect(b.pace).not.toBe(a1.pace);
	});

	// From 0 as on the virtual clock, and from a time the size of n8n's Date.now().
	test.each([0, Date.UTC(2026, 0, 1)])('kept while idle for a while (the next burst starts at the learned pace), then released (clock from %i)', (t) => {
		const registry = new PaceRegistry();
		const first = registry.use('k', t);
		first.pace.rate = 20;
		first.release(t + 1000);
		first.release(t + 1000);
		expect(registry.use('k', t + 2000).pace.rate).toBe(20);
		const again = registry.use('k', t + 2000);
		again.release(t + 3000);
		// Still one user (the use at 2000 never released): not forgotten however long it waits.
		expect(registry.use('k', t + 3000 + 2 * IDLE_MS).pace.rate).toBe(20);
		const lone = registry.use('other', t);
		lone.pace.rate = 5;
		lone.release(t);
		// Idle one millisecond short of the limit: still remembered; at the limit: forgotten.
		const kept = registry.use('other', t + IDLE_MS - 1);
		expect(kept.pace.rate).toBe(5);
		kept.release(t);
		expect(registry.use('other', t + IDLE_MS).pace.rate).toBe(Infinity);
	});

	test(`at most ${MAX_SERVICES} services are remembered`, () => {
		const registry = new PaceRegistry();
		for (let key = 0; key < 3 * MAX_SERVICES; key++) registry.use(String(key), key).release(key);
		expect(registry.size).toBe(MAX_SERVICES);
	});

	test(`one more service than ${MAX_SERVICES}: the one idle longest is forgotten, never one in use`, () => {
		const registry = new PaceRegistry();
		// The oldest entry is in use all along.
		const busy = registry.use('busy', 0);
		// 63 more, each with its own rate, released in the reverse order of their first use: 63 has been idle longest.
		const others = Array.from({ length: MAX_SERVICES - 1 }, (_, index) => registry.use(String(index + 1), index + 1));
		others.forEach((other, index) => {
			other.pace.rate = index + 1;
			other.release(200 - index);
		});
		expect(registry.size).toBe(MAX_SERVICES);
		registry.use('new', 300);
		expect(registry.size).toBe(MAX_SERVICES);
		expect(registry.use('busy', 301).pace).toBe(busy.pace);
		expect(registry.use('1', 302).pace.rate).toBe(1);
		expect(registry.use(String(MAX_SERVICES - 1), 303).pace.rate).toBe(Infinity);
	});

	test(`${MAX_SERVICES} remembered: using one of them again forgets none, not even itself as the one idle longest`, () => {
		const registry = new PaceRegistry();
		for (let key = 0; key < MAX_SERVICES; key++) {
			const used = registry.use(String(key), key);
			used.pace.rate = key + 1;
			used.release(key);
		}
		// '0' has been idle longest, '1' next.
		expect(registry.use('0', 100).pace.rate).toBe(1);
		expect(registry.use('1', 101).pace.rate).toBe(2);
		expect(registry.size).toBe(MAX_SERVICES);
	});

	test('a cancelled run starts nothing more and leaves no room held', async () => {
		const clock = new VirtualClock(0);
		const service = new Service(clock, { latencyMs: 100 });
		const pace = new Pace();
		const stop = new AbortController();
		const run = schedule(1000, { ...service.sender, signal: stop.signal }, defaults, clock, pace);
		void clock.sleep(250).then(() => stop.abort());
		await clock.run(run);
		expect(service.arrivals.length).toBeLessThan(1000);
		expect(pace.inFlight).toBe(0);
	});
});

describe('waking the executions that share a pace', () => {
	test('an execution that unsubscribed is no longer woken when a request ends', () => {
		const pace = new Pace();
		const kept = jest.fn();
		const gone = jest.fn();
		pace.subscribe(kept);
		const unsubscribe = pace.subscribe(gone);
		unsubscribe();
		pace.take(0);
		pace.settle();
		expect(kept).toHaveBeenCalledTimes(1);
		expect(gone).not.toHaveBeenCalled();
	});
});
