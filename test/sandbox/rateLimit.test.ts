/**
 * The sandbox's limiter shapes on given arrival times (no clock, no server): which requests each
 * admits, and how long a refused one is told to wait.
 */
import type { RateLimit } from '../../sandbox/rateLimit';
import { checkRateLimit, createLimiter, retryAfterHeader } from '../../sandbox/rateLimit';

/** The outcome of each arrival: 'ok', or the wait in ms the limiter gave. */
function run(limit: RateLimit, arrivals: number[]): Array<'ok' | number> {
	const limiter = createLimiter(limit.shape);
	return arrivals.map((now) => limiter.admit(now, limit) ?? 'ok');
}

const T = 1_700_000_000_000; // a whole second

describe('sandbox rate limit shapes', () => {
	it('fixed window: the first perSecond of each clock second; the wait is to the next second', () => {
		expect(run({ perSecond: 2 }, [T + 100, T + 200, T + 300, T + 999, T + 1000, T + 1001, T + 1002])).toEqual([
			'ok', 'ok', 700, 1, 'ok', 'ok', 998,
		]);
	});

	it('token bucket: a burst of `burst` tokens, then one every 1000 ÷ perSecond ms', () => {
		const limit: RateLimit = { perSecond: 10, shape: 'tokenBucket', burst: 2 };
		expect(run(limit, [T, T, T, T + 50, T + 100, T + 100, T + 350])).toEqual(['ok', 'ok', 100, 50, 'ok', 100, 'ok']);
		// The default bucket holds perSecond ÷ 10.
		const outcomes = run({ perSecond: 100, shape: 'tokenBucket' }, Array.from({ length: 11 }, () => T));
		expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(10);
		expect(outcomes[10]).toBe(10);
	});

	it('sliding window: at most perSecond admitted in any 1,000 ms; the wait is until the oldest leaves', () => {
		expect(run({ perSecond: 2, shape: 'slidingWindow' }, [T + 900, T + 950, T + 1100, T + 1900, T + 1949, T + 1950])).toEqual([
			'ok', 'ok', 800, 'ok', 1, 'ok',
		]);
	});

	it('spent at start: the first arrival is refused in every shape, whatever the time; later windows are whole', () => {
		expect(run({ perSecond: 2, spentAtStart: true }, [T + 100, T + 999, T + 1000, T + 1001, T + 1002])).toEqual([
			900, 1, 'ok', 'ok', 998,
		]);
		expect(run({ perSecond: 10, shape: 'tokenBucket', burst: 2, spentAtStart: true }, [T, T + 50, T + 100, T + 200])).toEqual([
			100, 50, 'ok', 'ok',
		]);
		expect(run({ perSecond: 2, shape: 'slidingWindow', spentAtStart: true }, [T + 300, T + 1299, T + 1300, T + 1301])).toEqual([
			1000, 1, 'ok', 'ok',
		]);
		expect(checkRateLimit({ perSecond: 5, spentAtStart: 'yes' })).toMatch(/spentAtStart: must be a boolean/);
	});

	it('Retry-After: whole seconds (at least 1), an HTTP date rounded up to the second, or none', () => {
		expect(retryAfterHeader('seconds', T, 1)).toBe('1');
		expect(retryAfterHeader('seconds', T, 1001)).toBe('2');
		expect(retryAfterHeader('date', T + 400, 100)).toBe(new Date(T + 1000).toUTCString());
		expect(retryAfterHeader('none', T, 100)).toBeUndefined();
	});

	it('refuses a malformed limit', () => {
		expect(checkRateLimit({ perSecond: 5, shape: 'tokenBucket', burst: 3 })).toBeNull();
		expect(checkRateLimit({ perSecond: 5, shape: 'leakyBucket' })).toMatch(/shape/);
		expect(checkRateLimit({ perSecond: 5, burst: 3 })).toMatch(/only for shape tokenBucket/);
		expect(checkRateLimit({ perSecond: 5, shape: 'tokenBucket', burst: 0 })).toMatch(/burst/);
	});
});
