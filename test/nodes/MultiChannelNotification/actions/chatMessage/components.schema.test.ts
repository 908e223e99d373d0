/**
 * Components (JSON) (components.schema.ts; spec: "Component object kinds", Rule 2, Limits): the
 * defaults the spec allows to leave out, how a component's kind is told, the list itself, and
 * the unique-position rule the buttons of both modes share. Each problem is compared whole, as
 * the user reads it: field, rule and the value shown.
 */
import { TEMPLATE_LABELS, templateSendSchema } from '../../../../../nodes/MultiChannelNotification/actions/chatMessage/templateMessage.schema';
import { verdict } from '../../../../fixtures/problems';
import { body, header, jsonTemplateItem, quickReply, templateItem, urlButton } from '../../../../fixtures/values';

const check = (candidate: unknown) => verdict(templateSendSchema, TEMPLATE_LABELS, candidate);
const lines = (candidate: unknown) =>
	check(candidate).problems.map((problem) => `${problem.field}: ${problem.rule}${problem.value === undefined ? '' : ` — got ${problem.value}`}`);
const json = (components: unknown) => lines(jsonTemplateItem(components));

const PAYLOAD = [{ type: 'payload', payload: 'YES' }];
const INDEX_RULE = 'must be 0, 1 or 2 (a template has at most 3 quick reply buttons)';

describe('defaults (spec: "(default)" in Component object kinds)', () => {
	test('a component with sub_type but no type or index is a URL button at position 0', () => {
		const components = [body(), { sub_type: 'url', parameters: [{ type: 'text', text: 'order/42' }] }];
		expect(check(jsonTemplateItem(components)).data?.template.components).toEqual([body(), urlButton('0', 'order/42')]);
	});

	test('a header image parameter gets no default type (only body parameters default to text)', () => {
		expect(json([{ type: 'header', parameters: [{ image: { link: 'https://cdn.example.com/a.png' } }] }, body()])).toEqual([
			'Components (JSON) at [0].parameters[0].type: must be "image"',
		]);
	});

	test('a quick reply gets no default index (only a URL button defaults to 0)', () => {
		expect(json([body(), { type: 'button', sub_type: 'quick_reply', parameters: PAYLOAD }])).toEqual([
			`Components (JSON) at [1].index: ${INDEX_RULE}`,
		]);
	});

	test('only a whole-number index becomes text', () => {
		expect(json([body(), urlButton(1.5)])).toEqual(['Components (JSON) at [1].index: must be text (got a number) — got 1.5']);
	});
});

describe('kinds', () => {
	test('null is not a component', () => {
		expect(json([body(), null])).toEqual(['Components (JSON) at [1]: must be a component object']);
	});

	test.each(['quick_reply', 'url'])('a sub_type %p does not make a component of another type a button', (subType) => {
		expect(json([body(), { type: 'footer', sub_type: subType, index: '0', parameters: PAYLOAD }])).toEqual([
			'Components (JSON) at [1].type: must be "header", "body" or "button" — got "footer"',
		]);
	});

	test('an index on a header is an unknown field, not a button position', () => {
		expect(json([{ ...header(), index: '0' }, body(), urlButton('0')])).toEqual([
			'Components (JSON) at [0]: has unknown field "index": remove it',
		]);
	});
});

describe('the list', () => {
	test.each<[string, string, string]>([
		['JSON text of an object', '{"type":"body"}', '{"type":"body"}'],
		['empty text', '', '""'],
		['blank text', '  \n', '"  \\n"'],
	])('%s is not a list', (_name, text, shown) => {
		expect(json(text)).toEqual([`Components (JSON): must be a list (JSON array) of components — got ${shown}`]);
	});
});

describe('unique positions: only valid positions are compared', () => {
	test('two quick replies without an index: each is refused once, not also as a clash', () => {
		const button = { type: 'button', sub_type: 'quick_reply', parameters: PAYLOAD };
		expect(json([body(), button, button])).toEqual([
			`Components (JSON) at [1].index: ${INDEX_RULE}`,
			`Components (JSON) at [2].index: ${INDEX_RULE}`,
		]);
	});

	test('two quick replies at "auto" in JSON: refused as positions, not as a clash', () => {
		expect(json([body(), quickReply('auto'), quickReply('auto')])).toEqual([
			`Components (JSON) at [1].index: ${INDEX_RULE} — got "auto"`,
			`Components (JSON) at [2].index: ${INDEX_RULE} — got "auto"`,
		]);
	});

	test('five quick replies, two left at Next Free Position: only the count is reported', () => {
		const quickReplyButtons = ['0', '1', '2', 'auto', 'auto'].map((index) => ({ index, payload: 'x' }));
		expect(lines(templateItem({ quickReplyButtons }))).toEqual(['Quick Reply Buttons: must have at most 3 quick reply buttons (got 5)']);
	});
});
