/**
 * A first pause with nothing delivered (delivery/pace.ts): the opening window all refused, the
 * requests sent at once are spread over the pause, and the rate doubles every half second after
 * it until a request sent after the pause is refused; that refusal measures the rate since the
 * pause. Driven answer by answer.
 */
import { Pace } from '../../../../nodes/MultiChannelNotification/delivery/pace';

/** The opening window of 10, sent at 0: `refused` of them refused at 50 ms, with a Retry-After of 1 s. */
function openingRefused(refused = 10): Pace {
	const pace = new Pace();
	for (let request = 0; request < 10; request++) pace.take(0);
	for (let request = 0; request < refused; request++) {
		pace.onThrottled(50, 1000, 120_000, 0);
		pace.settle();
	}
	expect(pace.pauseEnd()).toBe(1050);
	// The 10 sent at once, spread over the 1 s pause.
	expect(pace.rate).toBe(10);
	return pace;
}

/** One request sent at `at - 50`, delivered at `at`. */
function deliver(pace: Pace, at: number): void {
	pace.take(at - 50);
	pace.onDone(at, 50, true);
	pace.settle();
}

describe('after a first pause with nothing delivered', () => {
	test('the rate doubles every half second from the end of the pause, the first time exactly half a second after it', () => {
		const pace = openingRefused();
		deliver(pace, 1100);
		expect(pace.rate).toBe(10);
		deliver(pace, 1550);
		expect(pace.rate).toBe(20);
		deliver(pace, 1600);
		expect(pace.rate).toBe(20);
		deliver(pace, 2050);
		expect(pace.rate).toBe(40);
	});

	test('an opening request refused after the pause says nothing of the doubled rate: no new pause, the doubling goes on', () => {
		// Nine of the opening window refused at 50 ms, the tenth only at 1,100 ms.
		const pace = openingRefused(9);
		pace.onThrottled(1100, 1000, 120_000, 0);
		pace.settle();
		expect(pace.pauseEnd()).toBe(1050);
		deliver(pace, 1550);
		expect(pace.rate).toBe(20);
	});

	test('a request sent the moment the pause ends, then refused, ends the doubling: the rate is what was delivered since the pause', () => {
		const pace = openingRefused();
		pace.take(1050);
		deliver(pace, 1100);
		deliver(pace, 1550);
		expect(pace.rate).toBe(20);
		pace.onThrottled(1560, 1000, 120_000, 1050);
		pace.settle();
		// Two delivered (1,100 and 1,550) over the 510 ms since the pause.
		expect(pace.rate).toBeCloseTo(2000 / 510, 5);
		expect(pace.pauseEnd()).toBe(1050);
		// No more doubling.
		deliver(pace, 2100);
		expect(pace.rate).toBeCloseTo(2000 / 510, 5);
	});

	test('a request sent after the pause, refused before anything was delivered since: the window is still spent, a new pause', () => {
		const pace = openingRefused();
		pace.take(1050);
		pace.onThrottled(1060, 1000, 120_000, 1050);
		expect(pace.pauseEnd()).toBe(2060);
	});

	test('the refusal that ends the doubling is not one of the five in a row refused at the rate it measured', () => {
		const pace = openingRefused();
		deliver(pace, 1100);
		// Refused within the millisecond it was sent: one delivered over the 150 ms since the pause.
		pace.take(1200);
		pace.onThrottled(1200, 1000, 120_000, 1200);
		expect(pace.rate).toBeCloseTo(1000 / 150, 5);
		// Requests sent at that rate, refused within its span: the fifth in a row pauses.
		for (let request = 0; request < 5; request++) pace.take(1200);
		for (const at of [1210, 1211, 1212, 1213]) pace.onThrottled(at, 1000, 120_000, 1200);
		expect(pace.pauseEnd()).toBe(1050);
		pace.onThrottled(1214, 1000, 120_000, 1200);
		expect(pace.pauseEnd()).toBe(2214);
	});
});
