/**
 * Options → Timeout (Milliseconds), read for each item: unset stays unset, at least 1 ms, parts
 * of a millisecond rounded up, and anything over an hour cut to an hour. Options → Send Once
 * History Size: unset is 10000; a whole number from 1 to a million, else refused.
 */
import { ITEM_OPTIONS_LABELS, itemOptionsSchema } from '../../../../nodes/MultiChannelNotification/schemas/itemOptions.schema';
import { verdict } from '../../../fixtures/problems';

const check = (timeout: unknown) => verdict(itemOptionsSchema, ITEM_OPTIONS_LABELS, { timeout });
const history = (dedupeHistorySize: unknown) => verdict(itemOptionsSchema, ITEM_OPTIONS_LABELS, { dedupeHistorySize });

test.each([
	['unset', undefined, undefined],
	['1 ms, the least there is', 1, 1],
	['a number as text', '250', 250],
	['part of a millisecond, rounded up', 1.2, 2],
	['an hour', 3_600_000, 3_600_000],
	['more than an hour, cut to an hour', 7_200_000, 3_600_000],
])('%s: taken', (_name, timeout, taken) => {
	expect(check(timeout)).toEqual({ data: { timeout: taken, dedupeHistorySize: 10_000 }, problems: [] });
});

test.each([
	['0', 0, '0'],
	['under 1 ms', 0.5, '0.5'],
	['not a number', 'soon', '"soon"'],
])('%s: refused, naming the field and the value', (_name, timeout, shown) => {
	expect(check(timeout).problems).toEqual([
		{ field: 'Timeout (Milliseconds)', path: ['options', 'timeout'], rule: 'must be a number of milliseconds, at least 1', value: shown },
	]);
});

test.each([
	['unset: the default', undefined, 10_000],
	['the least', 1, 1],
	['a number as text', '500', 500],
	['the most', 1_000_000, 1_000_000],
])('Send Once History Size %s: taken', (_name, size, taken) => {
	expect(history(size).data).toEqual({ timeout: undefined, dedupeHistorySize: taken });
});

test.each([
	['0', 0, '0'],
	['a part', 2.5, '2.5'],
	['over a million', 1_000_001, '1000001'],
	['empty text', '', '""'],
	['not a number', 'many', '"many"'],
])('Send Once History Size %s: refused, naming the field and the value', (_name, size, shown) => {
	expect(history(size).problems).toEqual([
		{ field: 'Send Once History Size', path: ['options', 'dedupeHistorySize'], rule: 'must be a whole number of keys from 1 to 1000000', value: shown },
	]);
});

const segments = (maxSmsSegments: unknown) => verdict(itemOptionsSchema, ITEM_OPTIONS_LABELS, { maxSmsSegments });

test.each([
	['unset: no limit', undefined, undefined],
	['0: no limit', 0, undefined],
	['empty text: no limit', '', undefined],
	['one segment', 1, 1],
	['a number as text', '3', 3],
	['255, the most parts a concatenated SMS can have', 255, 255],
])('Max SMS Segments %s: taken', (_name, maxSmsSegments, taken) => {
	const { data, problems } = segments(maxSmsSegments);
	expect(problems).toEqual([]);
	expect(data?.maxSmsSegments).toBe(taken);
});

test.each([
	['negative', -1, '-1'],
	['a part', 1.5, '1.5'],
	['over 255', 256, '256'],
	['not a number', 'two', '"two"'],
])('Max SMS Segments %s: refused, naming the field and the value', (_name, maxSmsSegments, shown) => {
	expect(segments(maxSmsSegments).problems).toEqual([
		{
			field: 'Max SMS Segments',
			path: ['options', 'maxSmsSegments'],
			rule: 'must be a whole number of segments from 0 (no limit) to 255',
			value: shown,
		},
	]);
});
