/**
 * The template rules that span several fields (templateMessage.schema.ts): the count of body values
 * against Template Content's placeholders, in each of the three places the values can come
 * from, the two value lists filled at once, and the button positions of fields mode. Each
 * message is compared whole, as the user reads it.
 */
import { resolveQuickReplyIndexes } from '../../../../../nodes/MultiChannelNotification/actions/chatMessage/components.schema';
import { TEMPLATE_LABELS, templateSendSchema } from '../../../../../nodes/MultiChannelNotification/actions/chatMessage/templateMessage.schema';
import { verdict } from '../../../../fixtures/problems';
import { body, header, jsonTemplateItem, templateItem, without } from '../../../../fixtures/values';

const check = (candidate: unknown) => verdict(templateSendSchema, TEMPLATE_LABELS, candidate);
const rules = (candidate: unknown) => check(candidate).problems.map((problem) => `${problem.field}: ${problem.rule}`);
/** Template Content using {{1}} to {{count}}. */
const content = (count: number) => Array.from({ length: count }, (_, i) => `{{${i + 1}}}`).join(' ');

describe('Components (JSON): the body component carries one parameter per placeholder', () => {
	test('no placeholders, one parameter', () => {
		expect(rules(jsonTemplateItem([body(['a'])], { templateContent: 'Thanks!' }))).toEqual([
			'Components (JSON): must give the body component no parameters: Template Content has no {{1}}-style placeholders, but 1 was given',
		]);
	});

	test('one placeholder, no parameters (not moved to the inputs of fields mode)', () => {
		expect(rules(jsonTemplateItem([body([])], { templateContent: 'Hi {{1}}' }))).toEqual([
			'Components (JSON): must give the body component 1 parameter, one for each placeholder of Template Content ({{1}}), but 0 were given',
		]);
	});

	test('the body component is found among the others, not taken to be the first', () => {
		expect(rules(jsonTemplateItem([header(), body(['a', 'b'])], { templateContent: 'Hi {{1}} {{2}}' }))).toEqual([]);
	});
});

describe('Placeholder Values (the {{1}}… inputs): one value per placeholder, 20 inputs at most', () => {
	test.each<[string, number, string]>([
		['2 placeholders', 2, 'Placeholder Values: must have a value for each placeholder of Template Content ({{1}} to {{2}}), but 1 was given'],
		['20 placeholders, the last input', 20, 'Placeholder Values: must have a value for each placeholder of Template Content ({{1}} to {{20}}), but 1 was given'],
		[
			'21 placeholders, beyond the inputs',
			21,
			'Placeholder Values: must have a value for each placeholder of Template Content ({{1}} to {{21}}), but 1 was given: inputs go up to {{20}}, so for a longer template leave them empty and fill Body Parameters with all 21 values',
		],
	])('%s', (_name, count, rule) => {
		expect(rules(templateItem({ templateContent: content(count), placeholderValues: ['a'], bodyParameters: [] }))).toEqual([rule]);
	});
});

describe('Body Parameters: one entry per placeholder', () => {
	test('one placeholder, two entries', () => {
		expect(rules(templateItem({ templateContent: 'Hi {{1}}', bodyParameters: ['a', 'b'] }))).toEqual([
			'Body Parameters: must have 1 entry, one for each placeholder of Template Content ({{1}}), but 2 were given',
		]);
	});

	test('neither list given: the body component is sent with no parameters', () => {
		expect(check(without(templateItem(), 'bodyParameters')).data?.template.components).toEqual([{ type: 'body', parameters: [] }]);
	});
});

describe('Placeholder Values and Body Parameters filled in at once', () => {
	test.each<[string, string[], string]>([
		['one entry', ['x'], '1 entry'],
		['two entries', ['x', 'y'], '2 entries'],
	])('%s', (_name, bodyParameters, got) => {
		expect(rules(templateItem({ placeholderValues: ['a'], bodyParameters }))).toEqual([
			`Body Parameters: must be empty when the {{1}}, {{2}}, … inputs are filled in (got ${got}): remove them, the list is for templates entered without their text`,
		]);
	});
});

describe('button positions in fields mode', () => {
	test('three quick replies and a URL button at position 3: the URL button is not a fourth quick reply', () => {
		const quickReplyButtons = ['0', '1', '2'].map((index) => ({ index, payload: 'x' }));
		expect(rules(templateItem({ quickReplyButtons, urlButton: { index: '3', text: 'a' } }))).toEqual([]);
	});

	test('Next Free Position with every position taken stays unresolved', () => {
		expect(resolveQuickReplyIndexes(['0', '1', '2', 'auto'])).toEqual(['0', '1', '2', 'auto']);
	});
});
