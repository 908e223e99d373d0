/**
 * Template message buttons (spec: "Component object kinds", Rule 2, Limits): quick reply buttons
 * (at most 3, index 0–2, a payload each) and the URL button (a position and its URL parameter),
 * in fields mode and in Components (JSON). An invalid row names the field the user must fix.
 */
import { body, quickReply, templateItem, urlButton } from '../../../../fixtures/values';
import { check, fields, json } from '../../../../helpers/templateVerdict';

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
