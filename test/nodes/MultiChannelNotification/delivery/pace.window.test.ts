/**
 * The window of requests in flight before the first 429 (delivery/pace.ts), answer by answer:
 * an answer about as quick as the quickest of the last second lets one more start, one much
 * slower gives one back, and one in between leaves the window as it is.
 */
import { Pace } from '../../../../nodes/MultiChannelNotification/delivery/pace';

describe('the window before the first 429', () => {
	test('an answer slower than 1.5× the quickest + 20 ms, and at most 2× + 20 ms, leaves the window as it is; slower gives one back', () => {
		const pace = new Pace();
		// Three quick answers (100 ms) open the window from 10 to 13.
		for (const at of [0, 1, 2]) pace.onDone(at, 100, true);
		expect(pace.limit).toBe(13);
		// The quickest of the last second is 100 ms: 170 ms grows, above 220 ms shrinks.
		pace.onDone(10, 171, true);
		expect(pace.limit).toBe(13);
		pace.onDone(11, 200, true);
		expect(pace.limit).toBe(13);
		pace.onDone(12, 220, true);
		expect(pace.limit).toBe(13);
		pace.onDone(13, 221, true);
		expect(pace.limit).toBe(12);
	});

	test('an answer of exactly 1.5× the quickest + 20 ms still lets one more start', () => {
		const pace = new Pace();
		pace.onDone(0, 100, true);
		expect(pace.limit).toBe(11);
		pace.onDone(10, 170, true);
		expect(pace.limit).toBe(12);
	});

	test('the quickest answer is of the last second only: an older quick one no longer counts', () => {
		const pace = new Pace();
		pace.onDone(0, 10, true);
		expect(pace.limit).toBe(11);
		// 100 ms, two seconds later, is the quickest of its second: the window grows again.
		pace.onDone(2000, 100, true);
		expect(pace.limit).toBe(12);
	});

	test('an execution with Concurrency set (not adaptive) leaves the shared window as it is', () => {
		const pace = new Pace();
		for (const at of [0, 1, 2]) pace.onDone(at, 100, false);
		expect(pace.limit).toBe(10);
	});
});
