/**
 * parseOrThrow / describeRule / showValue: a schema failure becomes a NodeOperationError for the
 * item, whose message reads `Item <n>: <Label> <rule> — got <value>` and whose description lists
 * every problem and says that nothing was sent.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodIssue } from 'zod';
import { z } from 'zod';

import type { FieldLabeler, IssuePath } from '../../nodes/MultiChannelNotification/helpers/validation';
import { describeRule, parseOrThrow, showValue } from '../../nodes/MultiChannelNotification/helpers/validation';
import {
	E164_RULE,
	SMS_COUNTRY_RULE,
	mediaMessageSchema,
	smsRequestSchema,
	templateMessageSchema,
} from '../../nodes/MultiChannelNotification/schemas';
import {
	body,
	header,
	mediaMessage,
	quickReply,
	smsRequest,
	templateMessage,
	withField,
	withoutField,
} from '../schemas/fixtures';

const node: INode = { id: '1', name: 'Test', type: 't', typeVersion: 1, position: [0, 0], parameters: {} };

const LABELS: Record<string, string> = {
	from: 'From',
	to: 'To',
	type: 'Media Type',
	phone_number: 'Phone Number',
	message: 'Message',
	image: 'Image',
	video: 'Video',
	template: 'Template',
	recipient_type: 'Recipient Type',
};

/** A stand-in for an operation's labeler: the top-level key's UI name; `Request` for the whole. */
function label(path: IssuePath): string {
	if (path.length === 0) return 'Request';
	if (path[path.length - 1] === 'link') return 'Media URL';
	if (path.includes('components')) return 'Components';
	return LABELS[String(path[0])] ?? path.join('.');
}

/** Runs parseOrThrow and returns what it threw; fails the test when it does not throw. */
function thrownBy(run: () => unknown): NodeOperationError {
	let thrown: unknown;
	try {
		run();
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeInstanceOf(NodeOperationError);
	return thrown as NodeOperationError;
}

function firstIssue(result: { success: boolean; error?: { issues: ZodIssue[] } }): ZodIssue {
	expect(result.success).toBe(false);
	const issue = result.error?.issues[0];
	if (issue === undefined) throw new Error('expected a schema issue');
	return issue;
}

describe('parseOrThrow: success', () => {
	test('returns the parsed request and does not call the labeler', () => {
		const labeler = jest.fn(label);
		const candidate = smsRequest();
		expect(parseOrThrow(node, smsRequestSchema, candidate, 0, labeler)).toEqual(candidate);
		expect(labeler).not.toHaveBeenCalled();
	});
});

describe('parseOrThrow: the thrown error', () => {
	test('is a NodeOperationError for the item, with context.itemIndex and the node', () => {
		const error = thrownBy(() =>
			parseOrThrow(node, mediaMessageSchema, withField(mediaMessage('image'), ['to'], '0812345'), 3, label),
		);
		expect(error.context.itemIndex).toBe(3);
		expect(error.node).toBe(node);
		expect(error.message).toBe(`Item 3: To ${E164_RULE} — got "0812345"`);
	});

	test.each<[string, () => unknown, string]>([
		[
			'To without + (the spec example message, written out)',
			() => parseOrThrow(node, mediaMessageSchema, withField(mediaMessage('image'), ['to'], '0812345'), 0, label),
			'Item 0: To must be an E.164 phone number: a leading + then the country code and number, 7 to 15 digits, no spaces (e.g. +6281234567890) — got "0812345"',
		],
		[
			'SMS to a US number',
			() => parseOrThrow(node, smsRequestSchema, smsRequest('+14155552671'), 1, label),
			'Item 1: Phone Number must be an Indonesian number starting with +62 (SMS can only be sent to Indonesian numbers for now) — got "+14155552671"',
		],
		[
			'missing message: no value shown',
			() => parseOrThrow(node, smsRequestSchema, withoutField(smsRequest(), ['message']), 2, label),
			'Item 2: Message is required',
		],
		[
			'whitespace-only message: a required-rule shows no value',
			() => parseOrThrow(node, smsRequestSchema, smsRequest(undefined, '  '), 0, label),
			'Item 0: Message is required and must not be empty',
		],
		[
			'number instead of text',
			() => parseOrThrow(node, mediaMessageSchema, withField(mediaMessage('video'), ['from'], 6281234567890), 4, label),
			'Item 4: From must be text (got a number) — got 6281234567890',
		],
		[
			'http media link',
			() => parseOrThrow(node, mediaMessageSchema, mediaMessage('video', 'http://cdn.example.com/v.mp4'), 0, label),
			'Item 0: Media URL must be a valid https:// URL — got "http://cdn.example.com/v.mp4"',
		],
		[
			'unknown media type',
			() => parseOrThrow(node, mediaMessageSchema, withField(mediaMessage('image'), ['type'], 'sticker'), 0, label),
			'Item 0: Media Type must be one of "image", "video", "audio", "document" — got "sticker"',
		],
		[
			'one unknown key: no value shown',
			() => parseOrThrow(node, smsRequestSchema, withField(smsRequest(), ['sender'], 'ACME'), 0, label),
			'Item 0: Request has unknown field "sender": remove it',
		],
		[
			'two unknown keys',
			() =>
				parseOrThrow(node, smsRequestSchema, { ...smsRequest(), sender: 'ACME', priority: 1 }, 0, label),
			'Item 0: Request has unknown fields "sender", "priority": remove them',
		],
		[
			'caption on a video',
			() =>
				parseOrThrow(node, mediaMessageSchema, withField(mediaMessage('video'), ['video', 'caption'], 'Hi'), 0, label),
			'Item 0: Video has unknown field "caption": remove it',
		],
	])('message: %s', (_name, run, message) => {
		expect(thrownBy(run).message).toBe(message);
	});

	test('one problem: the description only says nothing was sent', () => {
		const error = thrownBy(() => parseOrThrow(node, smsRequestSchema, smsRequest('+14155552671'), 0, label));
		expect(error.description).toBe('Nothing was sent for this item.');
	});

	test('several problems: the message names the first, the description lists all', () => {
		const error = thrownBy(() => parseOrThrow(node, smsRequestSchema, smsRequest('+62abc', ''), 5, label));
		expect(error.message).toBe(`Item 5: Phone Number ${E164_RULE} — got "+62abc"`);
		expect(error.context.itemIndex).toBe(5);
		expect(error.description).toBe(
			[
				`• Phone Number ${E164_RULE} — got "+62abc"`,
				'• Message is required and must not be empty',
				'Nothing was sent for this item.',
			].join('\n'),
		);
	});

	test('the description ends with "Nothing was sent for this item." whatever the number of problems', () => {
		const candidate = withField(templateMessage([header('ftp://x'), body(['']), quickReply('7')]), ['from'], '');
		const error = thrownBy(() => parseOrThrow(node, templateMessageSchema, candidate, 0, label));
		const lines = (error.description ?? '').split('\n');
		expect(lines).toHaveLength(5);
		expect(lines.slice(0, -1).every((line) => line.startsWith('• '))).toBe(true);
		expect(lines[lines.length - 1]).toBe('Nothing was sent for this item.');
	});

	test('the labeler gets each issue path and the issue', () => {
		const labeler = jest.fn<string, Parameters<FieldLabeler>>(label);
		thrownBy(() => parseOrThrow(node, smsRequestSchema, smsRequest('+6581234567', ''), 0, labeler));
		expect(labeler.mock.calls.map(([path]) => path)).toEqual([['phone_number'], ['message']]);
		expect(labeler.mock.calls[0][1]).toEqual(expect.objectContaining({ message: SMS_COUNTRY_RULE }));
	});

	test('a long value is shortened to 80 characters ending with …', () => {
		const link = `http://cdn.example.com/${'a'.repeat(200)}.png`;
		const error = thrownBy(() => parseOrThrow(node, mediaMessageSchema, mediaMessage('image', link), 0, label));
		const shown = `"http://cdn.example.com/${'a'.repeat(79 - '"http://cdn.example.com/'.length)}…`;
		expect(shown).toHaveLength(80);
		expect(error.message).toBe(`Item 0: Media URL must be a valid https:// URL — got ${shown}`);
	});

	test('a whole-list rule names the list and shows it shortened', () => {
		const candidate = templateMessage([body(), quickReply('0'), quickReply('1'), quickReply('2'), quickReply('0')]);
		const error = thrownBy(() => parseOrThrow(node, templateMessageSchema, candidate, 0, label));
		expect(error.description).toContain('• Components must have at most 3 quick reply buttons (got 4) — got [{"type":"body"');
		expect(error.description).toMatch(/\(got 4\) — got .{79}…\n/);
	});

	test('the whole request of the wrong kind: the rule, with no value shown (path is empty)', () => {
		const error = thrownBy(() => parseOrThrow(node, smsRequestSchema, 'not an object', 0, label));
		expect(error).not.toBeInstanceOf(z.ZodError);
		expect(error.message).toBe('Item 0: Request must be an object (got text)');
	});
});

describe('describeRule', () => {
	test.each<[string, () => ZodIssue, string]>([
		['missing value', () => firstIssue(smsRequestSchema.safeParse(withoutField(smsRequest(), ['message']))), 'is required'],
		['null value', () => firstIssue(smsRequestSchema.safeParse(smsRequest(null))), 'is required'],
		['wrong type', () => firstIssue(smsRequestSchema.safeParse(smsRequest(62812))), 'must be text (got a number)'],
		[
			'list where an object is expected',
			() => firstIssue(smsRequestSchema.safeParse([smsRequest()])),
			'must be an object (got a list (JSON array))',
		],
		[
			'literal',
			() => firstIssue(templateMessageSchema.safeParse(withField(templateMessage(), ['type'], 'Template'))),
			'must be "template"',
		],
		[
			'discriminator',
			() => firstIssue(mediaMessageSchema.safeParse(withField(mediaMessage('image'), ['type'], 'gif'))),
			'must be one of "image", "video", "audio", "document"',
		],
		['enum', () => firstIssue(z.enum(['individual', 'group']).safeParse('all')), 'must be one of "individual", "group"'],
		[
			'one unknown key',
			() => firstIssue(smsRequestSchema.safeParse({ ...smsRequest(), to: 'x' })),
			'has unknown field "to": remove it',
		],
		[
			'two unknown keys',
			() => firstIssue(smsRequestSchema.safeParse({ ...smsRequest(), to: 'x', text: 'y' })),
			'has unknown fields "to", "text": remove them',
		],
		[
			'exact list length 1',
			() =>
				firstIssue(
					templateMessageSchema.safeParse(templateMessage([{ type: 'header', parameters: [] }, body()])),
				),
			'must have exactly 1 entry',
		],
		['exact list length 2', () => firstIssue(z.array(z.string()).length(2).safeParse([])), 'must have exactly 2 entries'],
		['list too short', () => firstIssue(z.array(z.string()).min(2).safeParse(['a'])), 'must have at least 2 entries'],
		['list too long', () => firstIssue(z.array(z.string()).max(1).safeParse(['a', 'b'])), 'must have at most 1 entry'],
		['pattern rule keeps its message', () => firstIssue(smsRequestSchema.safeParse(smsRequest('+62 812'))), E164_RULE],
		['custom rule keeps its message', () => firstIssue(smsRequestSchema.safeParse(smsRequest('+14155552671'))), SMS_COUNTRY_RULE],
		[
			'whole-list rule keeps its message',
			() => firstIssue(templateMessageSchema.safeParse(templateMessage([header()]))),
			'must include the body component (it is required, even with no parameters: {"type": "body", "parameters": []})',
		],
	])('%s', (_name, issue, rule) => {
		expect(describeRule(issue())).toBe(rule);
	});
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
		['object: JSON', { link: 'x' }, '{"link":"x"}'],
		['list: JSON', ['0', 1], '["0",1]'],
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

	test('a value of exactly 80 characters is shown whole', () => {
		const value = 'z'.repeat(78);
		expect(showValue(value)).toBe(`"${value}"`);
	});
});
