/**
 * Until when a Send and Wait execution waits (Options → Limit Wait Time), read before anything
 * is sent: each unit's length, a date in the future, and each way the limit can be wrong, named
 * with its field and the value given. On a fixed "now", so no assertion depends on the clock.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { readWait } from '../../../../nodes/MultiChannelNotification/sendAndWait/wait';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

function context(limit: Record<string, unknown> | undefined, responseType = 'approval'): IExecuteFunctions {
	const parameters: Record<string, unknown> = { responseType, 'options.limitWaitTime.values': limit };
	return {
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => parameters[name] ?? fallback,
	} as unknown as IExecuteFunctions;
}

const field = (name: string, key: string) => ({ field: `Options → Limit Wait Time → ${name}`, label: 'Options', path: ['options', 'limitWaitTime', 'values', key] });

describe('no limit', () => {
	test.each([['not set', undefined], ['empty', {}]])('%s: waits indefinitely', (_name, limit) => {
		expect(readWait(context(limit), 0, NOW)).toEqual({ waitTill: WAIT_INDEFINITELY, problems: [] });
	});
});

describe('after a time interval', () => {
	test.each([
		[5, 'minutes', 5 * 60_000],
		[2, 'hours', 2 * 3_600_000],
		[3, 'days', 3 * 86_400_000],
		[0.5, 'hours', 1_800_000],
	])('%s %s', (resumeAmount, resumeUnit, ms) => {
		expect(readWait(context({ limitType: 'afterTimeInterval', resumeAmount, resumeUnit }), 0, NOW)).toEqual({ waitTill: new Date(NOW + ms), problems: [] });
	});

	test('the defaults: 1 hour', () => {
		expect(readWait(context({ limitType: 'afterTimeInterval' }), 0, NOW).waitTill).toEqual(new Date(NOW + 3_600_000));
	});

	test.each([
		['0', 0, '0'],
		['below 0', -2, '-2'],
		['not a number', 'soon', '"soon"'],
		['infinite', Infinity, 'null'],
	])('an amount %s: refused, naming the value', (_name, resumeAmount, shown) => {
		expect(readWait(context({ limitType: 'afterTimeInterval', resumeAmount, resumeUnit: 'hours' }), 0, NOW)).toEqual({
			waitTill: WAIT_INDEFINITELY,
			problems: [{ ...field('Amount', 'resumeAmount'), rule: 'must be a number above 0', value: shown }],
		});
	});

	test.each([
		['weeks', '"weeks"'],
		['seconds', '"seconds"'],
	])('a unit of %s: refused', (resumeUnit, shown) => {
		expect(readWait(context({ limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit }), 0, NOW).problems).toEqual([
			{ ...field('Unit', 'resumeUnit'), rule: 'must be minutes, hours or days', value: shown },
		]);
	});
});

test('a unit there is not and an amount that is wrong: the unit alone is named (the amount is judged in a unit there is)', () => {
	expect(readWait(context({ limitType: 'afterTimeInterval', resumeAmount: 0, resumeUnit: 'weeks' }), 0, NOW).problems).toEqual([
		{ ...field('Unit', 'resumeUnit'), rule: 'must be minutes, hours or days', value: '"weeks"' },
	]);
});

describe('at a specified time', () => {
	test('a time in the future: waits until then', () => {
		expect(readWait(context({ limitType: 'atSpecifiedTime', maxDateAndTime: '2026-01-02T08:30:00Z' }), 0, NOW)).toEqual({
			waitTill: new Date('2026-01-02T08:30:00Z'),
			problems: [],
		});
	});

	test.each([
		['now', new Date(NOW).toISOString(), `"${new Date(NOW).toISOString()}"`],
		['in the past', '2020-01-01T00:00:00Z', '"2020-01-01T00:00:00Z"'],
		['not a date', 'tomorrow-ish', '"tomorrow-ish"'],
		['missing', undefined, 'undefined'],
	])('%s: refused', (_name, maxDateAndTime, shown) => {
		expect(readWait(context({ limitType: 'atSpecifiedTime', maxDateAndTime }), 0, NOW)).toEqual({
			waitTill: WAIT_INDEFINITELY,
			problems: [{ ...field('Max Date and Time', 'maxDateAndTime'), rule: 'must be a date and time in the future', value: shown }],
		});
	});
});

test('a Custom Form nobody could fill in is a problem of the wait too, read first', () => {
	const { problems } = readWait(context({ limitType: 'afterTimeInterval', resumeAmount: 0 }, 'customForm'), 0, NOW);

	expect(problems.map((problem) => problem.field)).toEqual(['Form Elements', 'Options → Limit Wait Time → Amount']);
});
