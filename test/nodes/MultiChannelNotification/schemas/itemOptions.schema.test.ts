/**
 * Options → Timeout (Milliseconds), read for each item: unset is 30 s, from 1 ms to an hour,
 * parts of a millisecond rounded up; anything else refused, never cut to a bound. Options → Send Once
 * History Size: unset is 10000; a whole number from 1 to a million, else refused.
 */
import type { INodeProperties } from 'n8n-workflow';

import { smsTemplateOptionsField } from '../../../../nodes/MultiChannelNotification/editor/optionsField';
import { ITEM_OPTIONS_LABELS, itemOptionsSchema } from '../../../../nodes/MultiChannelNotification/schemas/itemOptions.schema';
import { verdict } from '../../../fixtures/problems';

const check = (timeout: unknown) => verdict(itemOptionsSchema, ITEM_OPTIONS_LABELS, { timeout });
const history = (dedupeHistorySize: unknown) => verdict(itemOptionsSchema, ITEM_OPTIONS_LABELS, { dedupeHistorySize });

test.each([
	['unset: the default, 30 s', undefined, 30_000],
	['1 ms, the least there is', 1, 1],
	['a number as text', '250', 250],
	['part of a millisecond, rounded up', 1.2, 2],
	['an hour', 3_600_000, 3_600_000],
])('%s: taken', (_name, timeout, taken) => {
	const { data, problems } = check(timeout);
	expect(problems).toEqual([]);
	expect(data?.timeout).toBe(taken);
	expect(data?.dedupeHistorySize).toBe(10_000);
});

test.each([
	['0', 0, '0'],
	['under 1 ms', 0.5, '0.5'],
	['not a number', 'soon', '"soon"'],
	['more than an hour (it was cut to an hour)', 3_600_001, '3600001'],
])('%s: refused, naming the field and the value', (_name, timeout, shown) => {
	expect(check(timeout).problems).toEqual([
		{ field: 'Timeout (Milliseconds)', path: ['options', 'timeout'], rule: 'must be a number of milliseconds from 1 to 3600000 (an hour)', value: shown },
	]);
});

test.each([
	['unset: the default', undefined, 10_000],
	['the least', 1, 1],
	['a number as text', '500', 500],
	['the most', 1_000_000, 1_000_000],
])('Send Once History Size %s: taken', (_name, size, taken) => {
	const { data, problems } = history(size);
	expect(problems).toEqual([]);
	expect(data?.dedupeHistorySize).toBe(taken);
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

/**
 * Every other option goes through the same schema: a value the node cannot use is refused naming
 * the option, the value and the allowed range, never clamped or replaced by the default.
 */
const option = (values: Record<string, unknown>) => verdict(itemOptionsSchema, ITEM_OPTIONS_LABELS, values);

test.each([
	['nothing set: the defaults', {}, { concurrency: undefined, batchInterval: 0, rateLimitMaxWait: 120, dryRun: false, dedupeKey: '', phoneNumberFormat: 'normalize', replaceLookAlikes: false }],
	['empty values: the defaults (Concurrency set, so pinned)', { concurrency: '', batchInterval: '', rateLimitMaxWait: '', dedupeKey: '', phoneNumberFormat: '' }, { concurrency: null, batchInterval: 0, rateLimitMaxWait: 120, dedupeKey: '', phoneNumberFormat: 'normalize' }],
	['numbers as text', { concurrency: '7', batchInterval: '250', rateLimitMaxWait: '30' }, { concurrency: 7, batchInterval: 250, rateLimitMaxWait: 30 }],
	['the bounds', { concurrency: 100, batchInterval: 3_600_000, rateLimitMaxWait: 86_400 }, { concurrency: 100, batchInterval: 3_600_000, rateLimitMaxWait: 86_400 }],
	['the lower bounds', { concurrency: 1, batchInterval: 0, rateLimitMaxWait: 0 }, { concurrency: 1, batchInterval: 0, rateLimitMaxWait: 0 }],
	['parts of a millisecond or second, rounded down', { batchInterval: 2.7, rateLimitMaxWait: 1.5 }, { batchInterval: 2, rateLimitMaxWait: 1 }],
	['switches on, strict numbers', { dryRun: true, replaceLookAlikes: true, phoneNumberFormat: 'strict' }, { dryRun: true, replaceLookAlikes: true, phoneNumberFormat: 'strict' }],
	['a key, trimmed', { dedupeKey: '  order-17 ' }, { dedupeKey: 'order-17' }],
	['a number as key', { dedupeKey: 17 }, { dedupeKey: '17' }],
])('%s: taken', (_name, values, taken) => {
	const { data, problems } = option(values);
	expect(problems).toEqual([]);
	expect(data).toMatchObject(taken);
});

test.each([
	['Concurrency over 100', { concurrency: 500 }, 'Concurrency', 'concurrency', 'must be a whole number of requests from 1 to 100', '500'],
	['Concurrency 0', { concurrency: 0 }, 'Concurrency', 'concurrency', 'must be a whole number of requests from 1 to 100', '0'],
	['Concurrency a part', { concurrency: 2.5 }, 'Concurrency', 'concurrency', 'must be a whole number of requests from 1 to 100', '2.5'],
	['Batch Interval negative', { batchInterval: -5 }, 'Batch Interval (Milliseconds)', 'batchInterval', 'must be a number of milliseconds from 0 to 3600000', '-5'],
	['Batch Interval over an hour', { batchInterval: 3_600_001 }, 'Batch Interval (Milliseconds)', 'batchInterval', 'must be a number of milliseconds from 0 to 3600000', '3600001'],
	['Rate Limit Max Wait over a day', { rateLimitMaxWait: 86_401 }, 'Rate Limit Max Wait (Seconds)', 'rateLimitMaxWait', 'must be a number of seconds from 0 to 86400', '86401'],
	['Rate Limit Max Wait not a number', { rateLimitMaxWait: 'long' }, 'Rate Limit Max Wait (Seconds)', 'rateLimitMaxWait', 'must be a number of seconds from 0 to 86400', '"long"'],
	['Dry Run as text', { dryRun: 'yes' }, 'Dry Run', 'dryRun', 'must be true or false', '"yes"'],
	['Replace Look-Alike Characters as a number', { replaceLookAlikes: 1 }, 'Replace Look-Alike Characters', 'replaceLookAlikes', 'must be true or false', '1'],
	['Phone Number Format unknown', { phoneNumberFormat: 'loose' }, 'Phone Number Format', 'phoneNumberFormat', 'must be "normalize" or "strict"', '"loose"'],
	['Send Once Per Key an object', { dedupeKey: { id: 1 } }, 'Send Once Per Key', 'dedupeKey', 'must be text or a number', '{"id":1}'],
])('%s: refused, naming the field, the value and the rule', (_name, values, field, key, rule, shown) => {
	expect(option(values).problems).toEqual([{ field, path: ['options', key], rule, value: shown }]);
});

test('each option is named in errors as the editor labels it', () => {
	const shown = new Map(
		(smsTemplateOptionsField.options as INodeProperties[]).map((option) => [option.name, option.displayName]),
	);
	for (const [name, { label, at }] of Object.entries(ITEM_OPTIONS_LABELS)) {
		expect({ name, label: shown.get(name), at }).toEqual({ name, label, at: ['options', name] });
	}
});
