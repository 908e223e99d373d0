import type { RunCounts } from '../../../../nodes/MultiChannelNotification/delivery/summary';
import { ranges, runSummary } from '../../../../nodes/MultiChannelNotification/delivery/summary';

/** The run summary's text for a run of `total` items; the outcomes not given are empty. */
const summary = (total: number, items: Partial<RunCounts['items']>, more: Partial<RunCounts> = {}): string | undefined =>
	runSummary({ total, items: { sent: [], refused: [], skipped: [], dryRun: [], ...items }, ...more })?.message;

const upTo = (count: number, step = 1): number[] => Array.from({ length: count }, (_unused, index) => index * step);

describe('ranges', () => {
	test('item indexes as sorted runs, comma separated', () => {
		expect(ranges([10, 0, 9, 1, 2, 7])).toBe('0–2, 7, 9–10');
		expect(ranges([4])).toBe('4');
	});
});

describe('runSummary', () => {
	test('the longest rate-limit wait: under a second said so, from a second on in whole seconds', () => {
		const limited = (longestWaitMs: number) => summary(1, { sent: [0] }, { rateLimited: { times: 1, longestWaitMs } });
		expect(limited(400)).toBe('Sent 1 · rate limited 1× (longest wait under 1 s)');
		expect(limited(999)).toBe('Sent 1 · rate limited 1× (longest wait under 1 s)');
		expect(limited(1_000)).toBe('Sent 1 · rate limited 1× (longest wait 1 s)');
	});

	test('a run no rate limit held back says nothing of rate limits', () => {
		expect(summary(1, { sent: [0] }, { rateLimited: { times: 0, longestWaitMs: 0 } })).toBe('Sent 1');
	});

	test('sent items are named up to 12; from 13 on, only counted', () => {
		expect(summary(20, { sent: upTo(12, 2), refused: [1] })).toBe(
			'Sent 12 (items 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22) · refused 1 (item 1)',
		);
		expect(summary(30, { sent: upTo(13), refused: [20] })).toBe('Sent 13 · refused 1 (item 20)');
	});

	test('up to 12 runs of items are listed in full; more are cut after the 12th', () => {
		expect(summary(30, { sent: [1], skipped: upTo(12, 2) })).toBe(
			'Sent 1 (item 1) · skipped 12 (items 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22)',
		);
		expect(summary(30, { sent: [1], skipped: upTo(13, 2) })).toBe(
			'Sent 1 (item 1) · skipped 13 (items 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, …)',
		);
	});
});

describe('runSummary of no items', () => {
	test('a run of no items has no summary', () => {
		expect(summary(0, {})).toBeUndefined();
	});
});
