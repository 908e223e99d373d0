/**
 * The one path from a schema's verdict to the user (helpers/validation.ts): labels from the
 * schema's label table, the rule, the value, and one NodeOperationError listing every problem.
 */
import type { INode } from 'n8n-workflow';
import { z } from 'zod/v4';

import { problemsOf } from '../../../../nodes/MultiChannelNotification/helpers/errors';
import {
	describeRule,
	fieldOf,
	parseOrThrow,
	problemOf,
	showValue,
} from '../../../../nodes/MultiChannelNotification/helpers/validation';
import type { FieldLabels } from '../../../../nodes/MultiChannelNotification/schemas/common';
import { SMS_LABELS, smsSendSchema } from '../../../../nodes/MultiChannelNotification/actions/sms/sms';
import { TEMPLATE_LABELS } from '../../../../nodes/MultiChannelNotification/actions/chatMessage/templateMessage.schema';
import { thrown } from '../../../helpers/thrown';

const node: INode = {
	id: 'n',
	name: 'Multi-Channel Notification',
	type: 'n8n-nodes-multichannel-notification.multiChannelNotification',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};


describe('parseOrThrow', () => {
	test('returns the request body on success, without asking for the node (n8n copies it on each call)', () => {
		const getNode = jest.fn(() => node);
		expect(parseOrThrow({ getNode }, smsSendSchema, { phoneNumber: '+6281234567890', message: 'Hi' }, 0, SMS_LABELS)).toEqual({
			phone_number: '+6281234567890',
			message: 'Hi',
		});
		expect(getNode).not.toHaveBeenCalled();
	});

	test('one problem: the title names it (at most 80 characters), the description has it whole', () => {
		const error = thrown(() => parseOrThrow({ getNode: () => node }, smsSendSchema, { phoneNumber: '+14155552671', message: 'Hi' }, 3, SMS_LABELS));
		expect(error.context.itemIndex).toBe(3);
		expect(error.message).toBe('Item 3: Phone Number must be an Indonesian number starting with +62…');
		// The README's error titles: at most 80 characters.
		expect(error.message.length).toBeLessThanOrEqual(80);
		expect(error.description).toBe(
			'• Phone Number must be an Indonesian number starting with +62 (SMS cannot be sent to other numbers for now) — got "+14155552671"\nNothing was sent for this item.',
		);
	});

	test('several problems: the title counts them and names the fields; each keeps its node parameter', () => {
		const error = thrown(() => parseOrThrow({ getNode: () => node }, smsSendSchema, { phoneNumber: '0812', message: '' }, 0, SMS_LABELS));
		expect(error.message).toBe('Item 0: 2 problems (Phone Number, Message)');
		expect(problemsOf(error)).toEqual([
			{ field: 'Phone Number', path: ['phoneNumber'], rule: expect.stringMatching(/^must be in full international form like \+6281234567890/), value: '"0812"' },
			{ field: 'Message', path: ['message'], rule: 'is required and must not be empty' },
		]);
	});
});

describe('fieldOf: the field as the editor names it', () => {
	test.each<[string, Array<string | number>, FieldLabels, { field: string; label?: string; path: Array<string | number> }]>([
		['a plain field', ['to'], TEMPLATE_LABELS, { field: 'To', path: ['to'] }],
		['an entry of a list field', ['bodyParameters', 1], TEMPLATE_LABELS, { field: 'Body Parameters → Parameter 2', label: 'Body Parameters', path: ['bodyParameters', 'parameter', 1, 'text'] }],
		['a part of an entry', ['quickReplyButtons', 0, 'payload'], TEMPLATE_LABELS, { field: 'Quick Reply Buttons → Button 1 → Payload', label: 'Quick Reply Buttons', path: ['quickReplyButtons', 'button', 0, 'payload'] }],
		['a part of a single collection', ['urlButton', 'text'], TEMPLATE_LABELS, { field: 'URL Button → URL Parameter', label: 'URL Button', path: ['urlButton', 'button', 'text'] }],
		['inside a JSON field', ['componentsJson', 2, 'parameters', 0, 'payload'], TEMPLATE_LABELS, { field: 'Components (JSON) at [2].parameters[0].payload', label: 'Components (JSON)', path: ['componentsJson'] }],
		['an option', ['languagePolicy'], TEMPLATE_LABELS, { field: 'Language Policy', path: ['options', 'languagePolicy'] }],
		['a key with no label', ['other'], {}, { field: 'other', path: ['other'] }],
	])('%s', (_name, path, labels, expected) => {
		expect(fieldOf(path, labels)).toEqual(expected);
	});
});

describe('fieldOf: entries and the key inside them', () => {
	const labels: FieldLabels = { items: { label: 'Items' }, list: { label: 'List', at: ['list', 'entry'], leaf: 'text' } };

	test('an entry of a list with no entry name is "Entry N", at its position', () => {
		expect(fieldOf(['items', 1], labels)).toStrictEqual({ field: 'Items → Entry 2', label: 'Items', path: ['items', 1] });
	});

	test('the entry key is added only to the path of a whole entry', () => {
		expect(fieldOf(['list', 1], labels).path).toStrictEqual(['list', 'entry', 1, 'text']);
		expect(fieldOf(['list', 1, 'other'], labels).path).toStrictEqual(['list', 'entry', 1, 'other']);
		expect(fieldOf(['list', 'other'], labels).path).toStrictEqual(['list', 'entry', 'other']);
	});
});

describe('describeRule: zod’s generic texts rephrased to follow the label', () => {
	const ruleFor = (schema: z.ZodType, value: unknown) => {
		const result = schema.safeParse(value, { reportInput: true });
		if (result.success) throw new Error('expected a failure');
		return describeRule(result.error.issues[0], value);
	};

	test.each<[string, z.ZodType, unknown, string]>([
		['missing', z.string(), undefined, 'is required'],
		['wrong type', z.string(), 5, 'must be text (got a number)'],
		['a list instead of text', z.string(), ['a'], 'must be text (got a list (JSON array))'],
		['one literal', z.literal('text'), 'image', 'must be "text"'],
		['unknown keys', z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 }, 'has unknown fields "b", "c": remove them'],
		['too few entries', z.array(z.string()).min(2), ['a'], 'must have at least 2 entries'],
		['our own message is kept', z.string().regex(/x/, { error: 'must contain x' }), 'y', 'must contain x'],
		['a message that does not start with must, is or has is rephrased', z.array(z.string()).min(2, { error: 'this list is too short' }), ['a'], 'must have at least 2 entries'],
		['one of several values', z.enum(['sms', 'email']), 'fax', 'must be one of "sms", "email"'],
	])('%s', (_name, schema, value, rule) => {
		expect(ruleFor(schema, value)).toBe(rule);
	});
});

test('problemOf: a missing value is not shown; a list is summed up by its rule, not shown', () => {
	const issues = z
		.object({ a: z.string(), b: z.array(z.string()).max(1) })
		.safeParse({ b: ['x', 'y'] }, { reportInput: true });
	expect(issues.success).toBe(false);
	expect(issues.error?.issues.map((issue) => problemOf(issue, { a: { label: 'A' }, b: { label: 'B' } }))).toEqual([
		{ field: 'A', path: ['a'], rule: 'is required' },
		{ field: 'B', path: ['b'], rule: 'must have at most 1 entry' },
	]);
});

describe('showValue', () => {
	test.each<[string, unknown, string | undefined]>([
		['undefined: nothing to show', undefined, undefined],
		['string: quoted', '0812345', '"0812345"'],
		['empty string: quoted', '', '""'],
		['string with a quote: JSON-escaped', 'say "hi"', '"say \\"hi\\""'],
		['number', 6281234567890, '6281234567890'],
		['boolean', false, 'false'],
		['null', null, 'null'],
		['a number JSON cannot write: as the item holds it', Number.NaN, 'NaN'],
		['infinity: as the item holds it', Number.POSITIVE_INFINITY, 'Infinity'],
		['object: JSON', { link: 'x' }, '{"link":"x"}'],
		['list: not shown (its rule says what is wrong with it)', ['0', 1], undefined],
	])('%s', (_name, value, shown) => {
		expect(showValue(value)).toBe(shown);
	});

	test.each<[string, unknown, string]>([
		['string', 'x'.repeat(100), `"${'x'.repeat(78)}…`],
		['object', { text: 'y'.repeat(100) }, `{"text":"${'y'.repeat(70)}…`],
	])('long %s: shortened to 80 characters ending with …', (_name, value, shown) => {
		expect(showValue(value)).toBe(shown);
		expect(shown).toHaveLength(80);
	});

	test('a value JSON cannot write (it holds itself) is named, not shown', () => {
		const value: Record<string, unknown> = { a: 1 };
		value.self = value;
		expect(showValue(value)).toBe('(a value too deeply nested to show)');
	});

	test('a value of exactly 80 characters is shown whole', () => {
		const value = 'z'.repeat(78);
		expect(showValue(value)).toBe(`"${value}"`);
	});
});
