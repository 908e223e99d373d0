/**
 * Template message (spec: "Common request fields", "Template message object", "Component object
 * kinds" and its Rules 1–2, Limits, "Content" placeholders). Input: an item's template fields,
 * either as fields or as Components (JSON); output: the body the service takes. Each rule has
 * valid and invalid rows, and an invalid row names the field the user must fix.
 */
import type { FieldLabel } from '../../../../nodes/MultiChannelNotification/schemas';
import { TEMPLATE_LABELS, templateSendSchema } from '../../../../nodes/MultiChannelNotification/schemas';
import { withListLengths } from '../../../../nodes/MultiChannelNotification/schemas/templateInput';
import { requestFixture } from '../../../fixtures/requests';
import { verdict } from '../../../fixtures/problems';
import type { Json } from '../../../fixtures/values';
import {
	INVALID_E164,
	INVALID_HTTPS,
	VALID_E164,
	VALID_HTTPS,
	body,
	header,
	jsonTemplateItem,
	quickReply,
	templateItem,
	urlButton,
	without,
} from '../../../fixtures/values';

const check = (candidate: unknown) => verdict(templateSendSchema, TEMPLATE_LABELS, candidate);
const fields = (candidate: unknown) => check(candidate).problems.map((problem) => problem.field);
const json = (components: unknown, extra: Json = {}) => jsonTemplateItem(components, extra);

describe('fields mode: the body the service takes', () => {
	test('header, ordered body parameters, quick replies and a URL button (fixture from the spec)', () => {
		const item = templateItem({
			from: '+6281100000000',
			to: '+6281234567890',
			templateName: 'order_update',
			headerImageUrl: 'https://cdn.example.com/banner.jpg',
			bodyParameters: ['Budi', '1042', 'tomorrow'],
			quickReplyButtons: [
				{ index: '0', payload: 'track-1042' },
				{ index: '1', payload: 'help' },
			],
			urlButton: { index: '2', text: '1042' },
		});
		expect(check(item)).toEqual({ data: requestFixture('template-with-buttons'), problems: [] });
	});

	test('Rule 1: the body component is always sent, even with no parameters', () => {
		expect(check(templateItem({ bodyParameters: [] })).data?.template.components).toEqual([{ type: 'body', parameters: [] }]);
	});
});

describe('Components (JSON): valid lists are sent as given', () => {
	test.each<[string, unknown[]]>([
		['body only, one parameter', [body()]],
		['body with several parameters in placeholder order', [body(['Budi', 'INV-42', '3 items'])]],
		['body with no parameters', [body([])]],
		['header image + body', [header(), body()]],
		['three quick replies 0, 1, 2 in any order', [body(), quickReply('2'), quickReply('0'), quickReply('1')]],
		['header + body + url button (call-to-action example)', [header(), body(), urlButton('0')]],
		['three quick replies and a url button at position 3', [body(), quickReply('0'), quickReply('1'), quickReply('2'), urlButton('3')]],
		['payload with spaces', [body(), quickReply('0', 'Yes, confirm my order')]],
	])('%s', (_name, components) => {
		expect(check(json(components)).data?.template.components).toEqual(components);
	});

	test('a whole-number index becomes the string the service takes', () => {
		expect(check(json([body(), quickReply(2)])).data?.template.components[1]).toEqual(quickReply('2'));
	});

	test('spec defaults may be left out and are filled in', () => {
		const components = [{ parameters: [{ text: 'Budi' }] }, { index: 1, parameters: [{ type: 'payload', payload: 'yes' }] }, { type: 'button', sub_type: 'url', parameters: [{ type: 'text', text: 'abc' }] }];
		expect(check(json(components)).data?.template.components).toEqual([body(['Budi']), quickReply('1', 'yes'), urlButton('0', 'abc')]);
	});

	test('Components (JSON) that is not a list is the only problem, even with placeholders in Template Content (no count blamed on the fields mode it is not using)', () => {
		expect(fields(json({ type: 'body' }, { templateContent: 'Kode Anda {{1}}' }))).toEqual(['Components (JSON)']);
		expect(fields(json('not json', { templateContent: 'Kode Anda {{1}}' }))).toEqual(['Components (JSON)']);
	});

	test('JSON text is parsed; text that is not JSON says why', () => {
		expect(check(json('[{"type":"body","parameters":[]}]')).problems).toEqual([]);
		expect(check(json('[{"type": "body",')).problems).toEqual([
			expect.objectContaining({ field: 'Components (JSON)', path: ['componentsJson'], rule: expect.stringMatching(/^must be valid JSON — /) }),
		]);
	});
});

describe.each(['from', 'to'] as const)('%s: E.164', (key) => {
	test.each(VALID_E164)('accepts %s', (_name, value) => {
		expect(check(templateItem({ [key]: value })).problems).toEqual([]);
	});

	test.each(INVALID_E164)('rejects %s', (_name, value) => {
		expect(fields(templateItem({ [key]: value }))).toEqual([TEMPLATE_LABELS[key].label]);
	});
});

describe.each(['templateName', 'languageCode', 'languagePolicy'] as const)('%s: required, not blank', (key) => {
	test.each<[string, unknown]>([
		['empty', ''],
		['whitespace only', '   \t'],
		['number, not string', 7],
		['missing', undefined],
	])('rejects %s', (_name, value) => {
		expect(check(templateItem({ [key]: value })).problems).toEqual([
			expect.objectContaining({ field: TEMPLATE_LABELS[key].label, path: (TEMPLATE_LABELS[key] as FieldLabel).at ?? [key] }),
		]);
	});
});

describe('Header Image URL: https (spec: header "image.link = image URL (https)")', () => {
	test.each(VALID_HTTPS)('accepts %s', (_name, headerImageUrl) => {
		expect(check(templateItem({ headerImageUrl })).problems).toEqual([]);
	});

	test.each(INVALID_HTTPS)('rejects %s', (_name, headerImageUrl) => {
		expect(fields(templateItem({ headerImageUrl }))).toEqual(['Header Image URL']);
	});

	test('in JSON too', () => {
		expect(check(json([header('http://x.example.com/a.png'), body()])).problems).toEqual([
			{ field: 'Components (JSON) at [0].parameters[0].image.link', label: 'Components (JSON)', path: ['componentsJson'], rule: 'must use https://, not http:// (the service only fetches https links)', value: '"http://x.example.com/a.png"' },
		]);
	});
});

describe('Body Parameters: not blank', () => {
	test('names the parameter by its position', () => {
		expect(check(templateItem({ bodyParameters: ['Budi', ' '] })).problems).toEqual([
			{ field: 'Body Parameters → Parameter 2', label: 'Body Parameters', path: ['bodyParameters', 'parameter', 1, 'text'], rule: 'is required and must not be empty' },
		]);
	});

	test.each<[string, unknown[], string]>([
		['parameter of type payload', [{ type: 'payload', payload: 'x' }], 'Components (JSON) at [0].parameters[0].type'],
		['text missing', [{ type: 'text' }], 'Components (JSON) at [0].parameters[0].text'],
		['text a number', [{ type: 'text', text: 5 }], 'Components (JSON) at [0].parameters[0].text'],
		['second text whitespace only', [{ type: 'text', text: 'a' }, { type: 'text', text: '  ' }], 'Components (JSON) at [0].parameters[1].text'],
	])('JSON: %s', (_name, parameters, field) => {
		expect(fields(json([{ type: 'body', parameters }]))).toContain(field);
	});
});

describe('quick reply buttons (Rule 2, Limits: at most 3, index 0–2)', () => {
	test.each(['0', '1', '2'])('accepts index %p', (index) => {
		expect(check(templateItem({ quickReplyButtons: [{ index, payload: 'x' }] })).problems).toEqual([]);
	});

	test.each<[string, unknown]>([
		['3 (beyond the 3 buttons)', '3'],
		['-1', '-1'],
		['leading zero "01"', '01'],
		['empty', ''],
	])('rejects index %s, in fields and in JSON', (_name, index) => {
		const rule = expect.stringMatching(/^must be 0, 1 or 2/);
		expect(check(templateItem({ quickReplyButtons: [{ index, payload: 'x' }] })).problems).toEqual([
			expect.objectContaining({ field: 'Quick Reply Buttons → Button 1 → Index', path: ['quickReplyButtons', 'button', 0, 'index'], rule }),
		]);
		expect(check(json([body(), quickReply(index)])).problems).toEqual([
			expect.objectContaining({ field: 'Components (JSON) at [1].index', rule }),
		]);
	});

	test('a fourth button is refused, in fields and in JSON', () => {
		const four = ['0', '1', '2', '0'];
		expect(fields(templateItem({ quickReplyButtons: four.map((index) => ({ index, payload: 'x' })) }))).toEqual([
			'Quick Reply Buttons',
			'Quick Reply Buttons → Button 4 → Index',
		]);
		expect(check(json([body(), ...four.map((index) => quickReply(index))])).problems[0]).toEqual({
			field: 'Components (JSON)',
			path: ['componentsJson'],
			rule: 'must have at most 3 quick reply buttons (got 4)',
		});
	});

	test.each<[string, unknown[], string]>([
		['two quick replies at index 1', [body(), quickReply('1'), quickReply('1')], 'Components (JSON) at [2].index'],
		['url button then quick reply at 0', [body(), urlButton('0'), quickReply('0')], 'Components (JSON) at [2].index'],
		['two url buttons at 0', [body(), urlButton('0'), urlButton('0')], 'Components (JSON) at [2].index'],
	])('positions are unique: %s', (_name, components, field) => {
		expect(check(json(components)).problems).toEqual([
			expect.objectContaining({ field, rule: expect.stringMatching(/^must be unique/) }),
		]);
	});

	test('fields: a URL button at a quick reply’s position', () => {
		expect(fields(templateItem({ quickReplyButtons: [{ index: '0', payload: 'x' }], urlButton: { index: '0', text: 'a' } }))).toEqual([
			'URL Button → Index',
		]);
	});

	test.each<[string, unknown]>([
		['empty', ''],
		['whitespace only', '   '],
		['null', null],
	])('payload %s is refused', (_name, payload) => {
		expect(fields(templateItem({ quickReplyButtons: [{ index: '0', payload }] }))).toEqual(['Quick Reply Buttons → Button 1 → Payload']);
	});

	test.each<[string, unknown, string]>([
		['no parameters', [], 'Components (JSON) at [1].parameters'],
		['two payload parameters', [{ type: 'payload', payload: 'a' }, { type: 'payload', payload: 'b' }], 'Components (JSON) at [1].parameters'],
		['parameter of type text', [{ type: 'text', text: 'YES' }], 'Components (JSON) at [1].parameters[0].type'],
	])('JSON: %s', (_name, parameters, field) => {
		expect(fields(json([body(), { ...quickReply('0'), parameters }]))).toContain(field);
	});
});

describe('URL button (index: string position, default 0)', () => {
	test.each(['0', '1', '2', '3', '10'])('accepts index %p in JSON', (index) => {
		expect(check(json([body(), urlButton(index)])).problems).toEqual([]);
	});

	test.each<[string, unknown]>([
		['empty', ''],
		['letter', 'a'],
		['negative', '-1'],
		['decimal', '1.5'],
	])('rejects index %s', (_name, index) => {
		expect(check(templateItem({ urlButton: { index, text: 'a' } })).problems).toEqual([
			expect.objectContaining({ field: 'URL Button → Index', path: ['urlButton', 'button', 'index'], rule: 'must be a button position: 0, 1 or 2' }),
		]);
	});

	test('the URL parameter is required', () => {
		expect(fields(templateItem({ urlButton: { index: '0', text: '' } }))).toEqual(['URL Button → URL Parameter']);
	});
});

describe('Components (JSON): kinds and whole-list rules (Rule 1)', () => {
	test.each<[string, unknown[], string, RegExp]>([
		['body required: empty list', [], 'Components (JSON)', /^must include the body component/],
		['body required: buttons only', [quickReply('0'), urlButton('1')], 'Components (JSON)', /^must include the body component/],
		['only one body', [body(), body()], 'Components (JSON)', /only one body/],
		['at most one header', [header(), header(), body()], 'Components (JSON)', /at most one header/],
		['component not an object', [body(), 'button'], 'Components (JSON) at [1]', /component object/],
		['unknown component type', [body(), { type: 'footer', parameters: [] }], 'Components (JSON) at [1].type', /"header", "body" or "button"/],
		['button with unknown sub_type', [body(), { ...quickReply('0'), sub_type: 'call' }], 'Components (JSON) at [1].sub_type', /"quick_reply" or "url"/],
		['unknown key in a component', [{ ...body(), sub_type: 'x' }], 'Components (JSON) at [0]', /^has unknown field "sub_type"/],
	])('%s', (_name, components, field, rule) => {
		expect(check(json(components)).problems).toEqual([expect.objectContaining({ field, rule: expect.stringMatching(rule) })]);
	});

	test.each<[string, unknown]>([
		['an object', { body: body() }],
		['null', null],
	])('not a list: %s', (_name, components) => {
		expect(fields(json(components))).toEqual(['Components (JSON)']);
	});
});

describe('Template Content: placeholders numbered {{1}}…{{N}}, one body parameter each', () => {
	test.each<[string, string, unknown[]]>([
		['no placeholders, no parameters', 'Thanks!', []],
		['one repeated placeholder', 'Hi {{1}}, yes {{1}}', ['Budi']],
		['out of order', '{{2}} then {{1}}', ['a', 'b']],
	])('accepts %s', (_name, templateContent, bodyParameters) => {
		expect(check(templateItem({ templateContent, bodyParameters })).problems).toEqual([]);
	});

	test.each<[string, string, unknown[], string]>([
		['too few', 'Hi {{1}} {{2}}', ['a'], "Body Parameters must have 2 entries, one for each placeholder of Template Content ({{1}} to {{2}}), but 1 was given"],
		['too many for none', 'Thanks!', ['a'], 'Body Parameters must be empty: Template Content has no {{1}}-style placeholders, but 1 was given'],
		['a gap', 'Hi {{1}} {{3}}', ['a', 'b'], 'Template Content must number its placeholders {{1}} to {{3}} without gaps, but {{2}} is missing — got "Hi {{1}} {{3}}"'],
		['a zero', 'Hi {{0}}', ['a'], 'Template Content must number its placeholders from {{1}}, but uses {{0}} — got "Hi {{0}}"'],
		[
			'a stray huge number (named at once, the first five gaps shown)',
			'Hi {{1}} {{3}} {{999999999}}',
			['a'],
			'Template Content must number its placeholders {{1}} to {{999999999}} without gaps, but {{2}}, {{4}}, {{5}}, {{6}}, {{7}} are missing — got "Hi {{1}} {{3}} {{999999999}}"',
		],
	])('refuses %s', (_name, templateContent, bodyParameters, line) => {
		const [problem] = check(templateItem({ templateContent, bodyParameters })).problems;
		expect(`${problem.field} ${problem.rule}${problem.value === undefined ? '' : ` — got ${problem.value}`}`).toBe(line);
	});

	test('JSON mode counts the body component’s parameters', () => {
		expect(fields(json([body(['a'])], { templateContent: 'Hi {{1}} {{2}}' }))).toEqual(['Components (JSON)']);
	});

	test('checked even when another field is wrong, so one run shows both', () => {
		expect(fields(templateItem({ to: 42, templateContent: 'Hi {{1}} {{2}}' }))).toEqual(['To', 'Body Parameters']);
	});
});

test('a template without Template Content is not counted', () => {
	expect(check(without(templateItem({ bodyParameters: ['a', 'b', 'c'] }), 'templateContent')).problems).toEqual([]);
});

describe('an item that is not an object', () => {
	test.each<[string, unknown, string, string | undefined]>([
		['text', 'text', 'must be an object (got text)', '"text"'],
		['a number', 42, 'must be an object (got a number)', '42'],
	])('%s is refused as a whole', (_name, candidate, rule, value) => {
		expect(check(candidate).problems).toEqual([{ field: 'Item', path: [], rule, value }]);
	});

	test.each<[string, unknown]>([
		['null', null],
		['text', 'text'],
		['a list', ['a']],
	])('withListLengths passes %s on unchanged', (_name, candidate) => {
		expect(withListLengths(candidate)).toBe(candidate);
	});
});
