/**
 * Template message schema (spec: "Common request fields", "Template message object",
 * "Component object kinds" and its Rules, Limits). Each rule has valid and invalid rows; an
 * invalid row names the issue path it must be reported at.
 */
import { templateMessageSchema } from '../../nodes/MultiChannelNotification/schemas';

import type { IssuePath, Json } from './fixtures';
import {
	INVALID_E164,
	INVALID_HTTPS,
	VALID_E164,
	VALID_HTTPS,
	body,
	expectIssueAt,
	expectValid,
	header,
	quickReply,
	templateMessage,
	urlButton,
	withField,
	withoutField,
} from './fixtures';

const COMPONENTS: IssuePath = ['template', 'components'];
const at = (...rest: IssuePath): IssuePath => [...COMPONENTS, ...rest];

function parse(candidate: unknown) {
	return templateMessageSchema.safeParse(candidate);
}

describe('template message: valid requests', () => {
	test.each<[string, unknown[]]>([
		['body only, one parameter', [body()]],
		['body with several parameters in placeholder order', [body(['Budi', 'INV-42', '3 items'])]],
		['body with no parameters (template without placeholders)', [body([])]],
		['header image + body', [header(), body()]],
		['body + one quick reply', [body(), quickReply('0')]],
		['body + three quick replies 0, 1, 2', [body(), quickReply('0'), quickReply('1'), quickReply('2')]],
		['quick replies in any order', [body(), quickReply('2'), quickReply('0'), quickReply('1')]],
		['body + url button', [body(), urlButton('0')]],
		['header + body + url button (call-to-action example)', [header(), body(), urlButton('0')]],
		[
			'three quick replies and a url button at position 3',
			[body(), quickReply('0'), quickReply('1'), quickReply('2'), urlButton('3')],
		],
		['quick reply and url button at different positions', [body(), quickReply('1'), urlButton('0')]],
		['payload with spaces', [body(), quickReply('0', 'Yes, confirm my order')]],
	])('%s', (_name, components) => {
		const result = parse(templateMessage(components));
		expectValid(result);
	});

	test('the parsed request equals the input (nothing added or dropped)', () => {
		const candidate = templateMessage([header(), body(['A', 'B']), quickReply('0'), urlButton('1')]);
		const result = parse(candidate);
		expectValid(result);
		expect(result.data).toEqual(candidate);
	});
});

describe.each(['from', 'to'])('%s: E.164 with leading +', (field) => {
	test.each(VALID_E164)('accepts %s', (_name, value) => {
		expectValid(parse(withField(templateMessage(), [field], value)));
	});

	test.each(INVALID_E164)('rejects %s', (_name, value) => {
		expectIssueAt(parse(withField(templateMessage(), [field], value)), [field]);
	});

	test('is required', () => {
		expectIssueAt(parse(withoutField(templateMessage(), [field])), [field]);
	});
});

describe('type: the literal "template"', () => {
	test.each<[string, unknown]>([
		['other message type', 'image'],
		['wrong case', 'Template'],
		['empty', ''],
		['missing', undefined],
	])('rejects %s', (_name, value) => {
		const candidate =
			value === undefined ? withoutField(templateMessage(), ['type']) : withField(templateMessage(), ['type'], value);
		expectIssueAt(parse(candidate), ['type']);
	});
});

describe('template name, language code and language policy: required, non-empty', () => {
	const fields: Array<[string, IssuePath, string]> = [
		['template.name', ['template', 'name'], 'order_confirmation'],
		['template.language.code', ['template', 'language', 'code'], 'en_US'],
		['template.language.policy', ['template', 'language', 'policy'], 'deterministic'],
	];

	test.each(fields)('%s accepts a non-empty value', (_name, path, value) => {
		expectValid(parse(withField(templateMessage(), path, value)));
	});

	describe.each(fields)('%s', (_name, path) => {
		test.each<[string, unknown]>([
			['empty', ''],
			['whitespace only', '   \t'],
			['number, not string', 7],
			['null', null],
		])('rejects %s', (_case, value) => {
			expectIssueAt(parse(withField(templateMessage(), path, value)), path);
		});

		test('rejects missing', () => {
			expectIssueAt(parse(withoutField(templateMessage(), path)), path);
		});
	});

	test.each<[string, IssuePath]>([
		['template object missing', ['template']],
		['language object missing', ['template', 'language']],
		['components missing', ['template', 'components']],
	])('rejects %s', (_name, path) => {
		expectIssueAt(parse(withoutField(templateMessage(), path)), path);
	});
});

describe('unknown keys are rejected at every level', () => {
	const full = (): Json => templateMessage([header(), body(), quickReply('0'), urlButton('1')]);
	test.each<[string, IssuePath, IssuePath]>([
		['top level', ['extra'], []],
		['recipient_type on a template (media requests only)', ['recipient_type'], []],
		['template object', ['template', 'namespace'], ['template']],
		['language object', ['template', 'language', 'fallback'], ['template', 'language']],
		['header component', ['template', 'components', 0, 'index'], at(0)],
		['header image parameter', ['template', 'components', 0, 'parameters', 0, 'caption'], at(0, 'parameters', 0)],
		['header image object', ['template', 'components', 0, 'parameters', 0, 'image', 'caption'], at(0, 'parameters', 0, 'image')],
		['body component', ['template', 'components', 1, 'sub_type'], at(1)],
		['body text parameter', ['template', 'components', 1, 'parameters', 0, 'payload'], at(1, 'parameters', 0)],
		['quick reply component', ['template', 'components', 2, 'text'], at(2)],
		['quick reply payload parameter', ['template', 'components', 2, 'parameters', 0, 'text'], at(2, 'parameters', 0)],
		['url button component', ['template', 'components', 3, 'url'], at(3)],
		['url button text parameter', ['template', 'components', 3, 'parameters', 0, 'url'], at(3, 'parameters', 0)],
	])('%s', (_name, addAt, reportedAt) => {
		expectValid(parse(full()));
		const result = parse(withField(full(), addAt, 'x'));
		expectIssueAt(result, reportedAt);
		expect(result.success ? [] : result.error.issues.map((issue) => issue.code)).toContain('unrecognized_keys');
	});
});

describe('components: kinds and whole-list rules (Rules 1, 2)', () => {
	test.each<[string, unknown[], IssuePath, RegExp]>([
		['body required: empty list', [], COMPONENTS, /must include the body component/],
		['body required: header only', [header()], COMPONENTS, /must include the body component/],
		['body required: buttons only', [quickReply('0'), urlButton('1')], COMPONENTS, /must include the body component/],
		['only one body', [body(), body()], COMPONENTS, /only one body/],
		['at most one header', [header(), header(), body()], COMPONENTS, /at most one header/],
		[
			'at most 3 quick replies',
			[body(), quickReply('0'), quickReply('1'), quickReply('2'), quickReply('0')],
			COMPONENTS,
			/at most 3 quick reply/,
		],
		['component not an object', [body(), 'button'], at(1), /component object/],
		['component null', [body(), null], at(1), /component object/],
		['component an array', [body(), [quickReply('0')]], at(1), /component object/],
		['unknown component type', [body(), { type: 'footer', parameters: [] }], at(1, 'type'), /"header", "body" or "button"/],
		['button with unknown sub_type', [body(), { ...quickReply('0'), sub_type: 'call' }], at(1, 'sub_type'), /"quick_reply" or "url"/],
	])('rejects %s', (_name, components, path, message) => {
		expectIssueAt(parse(templateMessage(components)), path, message);
	});

	test.each<[string, unknown]>([
		['an object', { body: body() }],
		['a string', '[{"type":"body","parameters":[]}]'],
		['null', null],
	])('rejects components that are %s, not a list', (_name, components) => {
		expectIssueAt(parse(withField(templateMessage(), ['template', 'components'], components)), COMPONENTS);
	});
});

describe('header component: exactly one image parameter with an https link', () => {
	test.each(VALID_HTTPS)('accepts link: %s', (_name, link) => {
		expectValid(parse(templateMessage([header(link), body()])));
	});

	test.each(INVALID_HTTPS)('rejects link: %s', (_name, link) => {
		expectIssueAt(parse(templateMessage([header(link), body()])), at(0, 'parameters', 0, 'image', 'link'));
	});

	const image = { type: 'image', image: { link: 'https://cdn.example.com/a.png' } };
	test.each<[string, unknown, IssuePath]>([
		['no parameters', [], at(0, 'parameters')],
		['two image parameters', [image, image], at(0, 'parameters')],
		['parameters not a list', image, at(0, 'parameters')],
		['parameter of type text', [{ type: 'text', text: 'hi' }], at(0, 'parameters', 0, 'type')],
		['image object missing', [{ type: 'image' }], at(0, 'parameters', 0, 'image')],
		['image link missing', [{ type: 'image', image: {} }], at(0, 'parameters', 0, 'image', 'link')],
	])('rejects %s', (_name, parameters, path) => {
		const component = { type: 'header', parameters };
		expectIssueAt(parse(templateMessage([component, body()])), path);
	});
});

describe('body component: text parameters', () => {
	test.each<[string, unknown, IssuePath]>([
		['parameter of type payload', [{ type: 'payload', payload: 'x' }], at(0, 'parameters', 0, 'type')],
		['text missing', [{ type: 'text' }], at(0, 'parameters', 0, 'text')],
		['text a number', [{ type: 'text', text: 5 }], at(0, 'parameters', 0, 'text')],
		['text empty', [{ type: 'text', text: '' }], at(0, 'parameters', 0, 'text')],
		['second text whitespace only', [{ type: 'text', text: 'a' }, { type: 'text', text: '  ' }], at(0, 'parameters', 1, 'text')],
		['parameters not a list', { type: 'text', text: 'Budi' }, at(0, 'parameters')],
		['parameters missing', undefined, at(0, 'parameters')],
	])('rejects %s', (_name, parameters, path) => {
		const component = parameters === undefined ? { type: 'body' } : { type: 'body', parameters };
		expectIssueAt(parse(templateMessage([component])), path);
	});
});

describe('quick reply buttons (Rule 2, Limits)', () => {
	test.each(['0', '1', '2'])('accepts index %p', (index) => {
		expectValid(parse(templateMessage([body(), quickReply(index)])));
	});

	test.each<[string, unknown]>([
		['3 (beyond the 3 buttons)', '3'],
		['-1', '-1'],
		['leading zero "01"', '01'],
		['with space " 1"', ' 1'],
		['empty', ''],
		['letter', 'a'],
		['number 0, not string', 0],
		['missing', undefined],
	])('rejects index %s', (_name, index) => {
		const button = index === undefined ? withoutField(quickReply('0'), ['index']) : quickReply(index);
		expectIssueAt(parse(templateMessage([body(), button])), at(1, 'index'));
	});

	test.each<[string, unknown[], IssuePath]>([
		['two quick replies at index 1', [body(), quickReply('1'), quickReply('1')], at(2, 'index')],
		['third repeats the first', [body(), quickReply('0'), quickReply('1'), quickReply('0')], at(3, 'index')],
		['url button then quick reply at 0', [body(), urlButton('0'), quickReply('0')], at(2, 'index')],
		['quick reply then url button at 2', [body(), quickReply('2'), urlButton('2')], at(2, 'index')],
		['two url buttons at 0', [body(), urlButton('0'), urlButton('0')], at(2, 'index')],
	])('indexes are distinct across all buttons: rejects %s', (_name, components, path) => {
		expectIssueAt(parse(templateMessage(components)), path, /unique/);
	});

	test.each<[string, unknown]>([
		['empty', ''],
		['whitespace only', '   '],
		['number, not string', 1],
		['null', null],
	])('payload is required and non-empty: rejects %s', (_name, payload) => {
		expectIssueAt(parse(templateMessage([body(), quickReply('0', payload)])), at(1, 'parameters', 0, 'payload'));
	});

	const payload = { type: 'payload', payload: 'YES' };
	test.each<[string, unknown, IssuePath]>([
		['payload missing', [{ type: 'payload' }], at(1, 'parameters', 0, 'payload')],
		['no parameters', [], at(1, 'parameters')],
		['two payload parameters', [payload, payload], at(1, 'parameters')],
		['parameter of type text', [{ type: 'text', text: 'YES' }], at(1, 'parameters', 0, 'type')],
		['parameters missing', undefined, at(1, 'parameters')],
	])('exactly one payload parameter: rejects %s', (_name, parameters, path) => {
		const button =
			parameters === undefined
				? withoutField(quickReply('0'), ['parameters'])
				: withField(quickReply('0'), ['parameters'], parameters);
		expectIssueAt(parse(templateMessage([body(), button])), path);
	});
});

describe('url (call-to-action) button', () => {
	test.each(['0', '1', '2', '3', '10'])('accepts index %p (a digits string)', (index) => {
		expectValid(parse(templateMessage([body(), urlButton(index)])));
	});

	test.each<[string, unknown]>([
		['empty', ''],
		['letter', 'a'],
		['negative', '-1'],
		['decimal', '1.5'],
		['with space', ' 1'],
		['number 0, not string', 0],
	])('rejects index %s', (_name, index) => {
		expectIssueAt(parse(templateMessage([body(), urlButton(index)])), at(1, 'index'));
	});

	test.each<[string, unknown]>([
		['empty', ''],
		['whitespace only', '  '],
		['number, not string', 42],
		['null', null],
	])('text is required and non-empty: rejects %s', (_name, text) => {
		expectIssueAt(parse(templateMessage([body(), urlButton('0', text)])), at(1, 'parameters', 0, 'text'));
	});

	const text = { type: 'text', text: 'order/42' };
	test.each<[string, unknown, IssuePath]>([
		['text missing', [{ type: 'text' }], at(1, 'parameters', 0, 'text')],
		['no parameters', [], at(1, 'parameters')],
		['two text parameters', [text, text], at(1, 'parameters')],
		['parameter of type payload', [{ type: 'payload', payload: 'x' }], at(1, 'parameters', 0, 'type')],
	])('exactly one text parameter: rejects %s', (_name, parameters, path) => {
		expectIssueAt(parse(templateMessage([body(), withField(urlButton('0'), ['parameters'], parameters)])), path);
	});
});

test('every problem in one request is reported, each at its own path', () => {
	const candidate = withField(
		templateMessage([body(['']), quickReply('5'), urlButton('x', '')]),
		['to'],
		'0812345',
	);
	const result = parse(candidate);
	expect(result.success).toBe(false);
	expect(result.success ? [] : result.error.issues.map((issue) => issue.path)).toEqual(
		expect.arrayContaining([
			['to'],
			at(0, 'parameters', 0, 'text'),
			at(1, 'index'),
			at(2, 'index'),
			at(2, 'parameters', 0, 'text'),
		]),
	);
});
