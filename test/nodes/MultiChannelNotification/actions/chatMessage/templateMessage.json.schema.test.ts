/**
 * Template message in Components (JSON) mode (spec: "Component object kinds" and its Rule 1):
 * valid lists are sent as given, with the spec's defaults filled in; the kinds of component and
 * the rules on the whole list; text that is not JSON or not a list.
 */
import { body, header, quickReply, urlButton } from '../../../../fixtures/values';
import { check, fields, json } from '../../../../helpers/templateVerdict';

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
