/**
 * Template message, the item and its fields (spec: "Common request fields", "Template message
 * object"): the body the service takes in fields mode, From and To, the required texts, the
 * header image link, the body parameters, and an item that is not an object at all. Each rule has
 * valid and invalid rows, and an invalid row names the field the user must fix.
 */
import type { FieldLabel } from '../../../../../nodes/MultiChannelNotification/schemas/common';
import { TEMPLATE_LABELS, withListLengths } from '../../../../../nodes/MultiChannelNotification/actions/chatMessage/templateMessage.schema';
import { requestFixture } from '../../../../fixtures/requests';
import { INVALID_E164, INVALID_HTTPS, VALID_E164, VALID_HTTPS, body, header, templateItem } from '../../../../fixtures/values';
import { check, fields, json } from '../../../../helpers/templateVerdict';

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
