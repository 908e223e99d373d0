/**
 * A Custom Form's definition read from the node's parameters, without n8n: what a form may hold
 * and still be filled in, and each problem exactly as the error lists it, pointing at the
 * parameter it is in. (sendAndWait.test.ts runs the refusals through n8n's engine.)
 */
import type { IDataObject } from 'n8n-workflow';

import { readFormParameters } from '../../../../nodes/MultiChannelNotification/sendAndWait/form';

const fromEditor = (values: unknown) => readFormParameters((name, fallback) => (name === 'formFields.values' ? values : fallback));
const fromJson = (jsonOutput: unknown) => readFormParameters((name, fallback) => ({ defineForm: 'json', jsonOutput } as IDataObject)[name] ?? fallback);

describe('Form Elements (the editor)', () => {
	test('an element without an Element Type is a text field', () => {
		const { fields, problems } = fromEditor([{ fieldLabel: 'Name' }]);

		expect(problems).toEqual([]);
		expect(fields).toEqual([expect.objectContaining({ label: 'Name', type: 'text' })]);
	});

	test('no Form Elements at all (the list never opened): needs an element, and that is the one problem', () => {
		expect(fromEditor(undefined).problems).toEqual([{ field: 'Form Elements', path: ['formFields', 'values'], rule: 'needs at least one element for the person to fill in' }]);
	});

	test('two Custom HTML elements without an Element Name: both only shown, neither takes the other\'s key', () => {
		const { fields, problems } = fromEditor([{ fieldType: 'html', html: '<p>a</p>' }, { fieldLabel: 'Amount' }, { fieldType: 'html', html: '<p>b</p>' }]);

		expect(problems).toEqual([]);
		expect(fields.map((field) => [field.type, field.label])).toEqual([
			['html', ''],
			['text', 'Amount'],
			['html', ''],
		]);
	});

	test('a field and a file element whose names differ only where the binary name has "_": both taken, only files share binary names', () => {
		const textFirst = fromEditor([{ fieldLabel: 'Photo 1' }, { fieldLabel: 'Photo_1', fieldType: 'file' }]);
		const fileFirst = fromEditor([{ fieldLabel: 'Photo 1', fieldType: 'file' }, { fieldLabel: 'Photo_1' }]);

		expect(textFirst.problems).toEqual([]);
		expect(fileFirst.problems).toEqual([]);
		expect(fileFirst.fields.map((field) => field.type)).toEqual(['file', 'text']);
	});

	test('two file elements without a label: each is told its Label is required, and nothing about binary data', () => {
		expect(fromEditor([{ fieldType: 'file' }, { fieldType: 'file' }]).problems.map(({ field, rule }) => `${field} ${rule}`)).toEqual([
			'Form Elements → Element 1 → Label is required: it names the answer in the output',
			'Form Elements → Element 2 → Label is required: it names the answer in the output',
		]);
	});

	test('an element with two problems: both listed', () => {
		expect(fromEditor([{ fieldType: 'file', acceptFileTypes: 'pdf, image/' }]).problems.map((problem) => problem.field)).toEqual([
			'Form Elements → Element 1 → Label',
			'Form Elements → Element 1 → Accepted File Types',
		]);
	});

	test('Accepted File Types left on an element that is no longer a file element: not checked, not used', () => {
		const { fields, problems } = fromEditor([{ fieldLabel: 'Note', fieldType: 'text', acceptFileTypes: 'pdf, image/' }]);

		expect(problems).toEqual([]);
		expect(fields[0].accept).toEqual([]);
	});
});

describe('Form Fields (JSON)', () => {
	/** n8n's own names for an element's keys, as the README lists them. */
	const KEYS = 'fieldLabel, fieldType, placeholder, requiredField, fieldOptions, multiselect, fieldName, fieldValue, multipleFiles, acceptFileTypes, html, elementName';

	test('a key the forms do not take: named, with the keys they do take, at the Form Fields parameter', () => {
		expect(fromJson('[{ "fieldLabel": "Name", "defaultValue": "Budi" }]').problems).toEqual([
			{ field: 'Form Fields → element 1 → defaultValue', label: 'Form Fields', path: ['jsonOutput'], rule: `is not a key this node's forms take (they take ${KEYS})` },
		]);
	});

	test('a label that is not text in JSON: a number or a list as its text, trimmed; null as no label', () => {
		expect(fromJson('[{ "fieldLabel": 42 }]')).toEqual({ fields: [expect.objectContaining({ label: '42' })], problems: [] });
		expect(fromJson('[{ "fieldLabel": [" Amount "] }]')).toEqual({ fields: [expect.objectContaining({ label: 'Amount' })], problems: [] });
		expect(fromJson('[{ "fieldLabel": null }]').problems).toEqual([
			{ field: 'Form Fields → element 1 → fieldLabel', label: 'Form Fields', path: ['jsonOutput'], rule: 'is required: it names the answer in the output' },
		]);
	});

	test.each([
		['not JSON', '[{ "fieldLabel": "Name" ', 'must be JSON: a list of form elements, e.g. [{ "fieldLabel": "Name" }]'],
		['a list holding null', '[null]', 'must be a JSON list of form elements, each an object such as { "fieldLabel": "Name" }'],
		['a list holding text', '["Name"]', 'must be a JSON list of form elements, each an object such as { "fieldLabel": "Name" }'],
		['a list holding a list', '[[{ "fieldLabel": "Name" }]]', 'must be a JSON list of form elements, each an object such as { "fieldLabel": "Name" }'],
	])('%s: that is the one problem (no element is judged)', (_name, jsonOutput, rule) => {
		expect(fromJson(jsonOutput).problems).toEqual([expect.objectContaining({ field: 'Form Fields', path: ['jsonOutput'], rule })]);
	});
});
