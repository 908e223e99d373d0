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
});
