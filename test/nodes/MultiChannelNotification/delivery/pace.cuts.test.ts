/**
 * What a 429 does to a pace whose rate is set (delivery/pace.ts), answer by answer: when the
 * rate is cut and to what, when the service's window is spent and every send pauses, and how
 * refusals in a row at a rate measured over a short span end it at once.
 */
import { Pace } from '../../../../nodes/MultiChannelNotification/delivery/pace';

/** Two requests at 0: one delivered at 50 ms, the other refused at 60 ms. One delivery over the shortest span (100 ms): 10/s. */
function cutAt60(): Pace {
	const pace = new Pace();
	pace.take(0);
	pace.take(0);
	pace.onDone(50, 50, true);
	pace.settle();
	pace.onThrottled(60, 1000, 120_000, 0);
	pace.settle();
	expect(pace.rate).toBe(10);
	return pace;
}

describe('a cut', () => {
	test('the next request may start one interval of the new rate after the cut', () => {
		const pace = cutAt60();
		expect(pace.slot()).toBe(160);
		expect(pace.pauseEnd()).toBeLessThan(60);
	});

	test('the first 429 a second or more after the first delivery counts the deliveries of the last second only', () => {
		const pace = new Pace();
		for (let at = 100; at <= 900; at += 100) {
			pace.take(at - 50);
			pace.onDone(at, 50, true);
			pace.settle();
		}
		pace.take(1450);
		pace.onThrottled(1500, 1000, 120_000, 1450);
		// Delivered after 500: 600, 700, 800 and 900, over a whole second.
		expect(pace.rate).toBe(4);
	});

	test('never raises the rate: more delivered since the cut than the rate allowed (a burst allowance) leaves it as it was', () => {
		const pace = cutAt60();
		for (let request = 0; request < 20; request++) {
			pace.take(60);
			pace.onDone(100 + request, 40, true);
			pace.settle();
		}
		pace.take(100);
		// 21 delivered in 120 ms would be 175/s.
		pace.onThrottled(170, 1000, 120_000, 100);
		expect(pace.rate).toBe(10);
		expect(pace.pauseEnd()).toBeLessThan(170);
	});
});

describe('a spent window', () => {
	test.each([
		[120_000, 1160],
		[1000, 1160],
	])('nothing delivered since the cut, a 429 one measuring span after it (max wait %i ms): every send pauses until %i', (maxWaitMs, pauseEnd) => {
		const pace = cutAt60();
		pace.take(160);
		pace.onThrottled(160, 1000, maxWaitMs, 160);
		expect(pace.pauseEnd()).toBe(pauseEnd);
		// What got through (one delivery, at 50) spread to the pause's end.
		expect(pace.rate).toBeCloseTo(1000 / 1110, 5);
	});

	test('a pause longer than an item may wait is not taken', () => {
		const pace = cutAt60();
		pace.take(160);
		pace.onThrottled(160, 1000, 999, 160);
		expect(pace.pauseEnd()).toBeLessThan(160);
	});

	test('a later pause with nothing delivered in the last second keeps the rate; raises resume two seconds after it, one step per half second', () => {
		const pace = cutAt60();
		pace.take(5000);
		pace.onThrottled(5050, 1000, 120_000, 5000);
		expect(pace.pauseEnd()).toBe(6050);
		expect(pace.rate).toBe(10);
		for (const at of [6100, 6600]) {
			pace.take(at - 50);
			pace.onDone(at, 50, true);
			pace.settle();
		}
		expect(pace.rate).toBe(10);
		pace.take(7000);
		pace.onDone(7050, 50, true);
		// One step: 10 % of 10/s (more than a twentieth of the opening window's 10).
		expect(pace.rate).toBeCloseTo(11, 5);
	});
});

describe('refusals in a row at a rate measured over less than a second', () => {
	test('the fifth refusal in a row of a request sent at the new rate pauses at once, though something was delivered since the cut', () => {
		const pace = cutAt60();
		// Sent the moment the rate was set: one delivered, five refused within the 100 ms span.
		for (let request = 0; request < 6; request++) pace.take(60);
		pace.onDone(65, 5, true);
		pace.settle();
		for (const at of [70, 71, 72, 73]) {
			pace.onThrottled(at, 1000, 120_000, 60);
			pace.settle();
		}
		expect(pace.pauseEnd()).toBeLessThan(73);
		pace.onThrottled(74, 1000, 120_000, 60);
		expect(pace.pauseEnd()).toBe(1074);
		// Two delivered (at 50 and 65), spread to the pause's end.
		expect(pace.rate).toBeCloseTo(2000 / 1024, 5);
	});
});

describe('the first 429 after a quiet second', () => {
	test('a delivery exactly one second after the last starts what the rate is measured from', () => {
		const pace = new Pace();
		pace.take(0);
		pace.onDone(0, 50, true);
		pace.settle();
		pace.take(950);
		pace.onDone(1000, 50, true);
		pace.settle();
		pace.take(1000);
		pace.onThrottled(1050, 1000, 120_000, 1000);
		// One delivered (at 1000) over the shortest span (100 ms), not over the second since 0.
		expect(pace.rate).toBe(10);
		expect(pace.slot()).toBe(1150);
	});
});
