/**
 * Options → Timeout (Milliseconds), read for each item: unset stays unset, at least 1 ms, parts
 * of a millisecond rounded up, and anything over an hour cut to an hour.
 */
import { ITEM_OPTIONS_LABELS, itemOptionsSchema } from '../../../../nodes/MultiChannelNotification/schemas/itemOptions.schema';
import { verdict } from '../../../fixtures/problems';

const check = (timeout: unknown) => verdict(itemOptionsSchema, ITEM_OPTIONS_LABELS, { timeout });

test.each([
	['unset', undefined, undefined],
	['1 ms, the least there is', 1, 1],
	['a number as text', '250', 250],
	['part of a millisecond, rounded up', 1.2, 2],
	['an hour', 3_600_000, 3_600_000],
	['more than an hour, cut to an hour', 7_200_000, 3_600_000],
])('%s: taken', (_name, timeout, taken) => {
	expect(check(timeout)).toEqual({ data: { timeout: taken }, problems: [] });
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
