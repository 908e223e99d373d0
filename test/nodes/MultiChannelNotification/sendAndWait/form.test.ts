/**
 * A Custom Form as read from the node's parameters, before the page shows it: each element's
 * options, whether it is required, whether a file element takes several files, Custom HTML's
 * markup, whichever way n8n hands the values over (true or "true", as JSON gives them).
 */
import { readFormParameters } from '../../../../nodes/MultiChannelNotification/sendAndWait/form';
import { formField } from '../../../helpers/answerPage';

const fromEditor = (elements: object[]) => readFormParameters((name, fallback) => (name === 'formFields.values' ? elements : fallback));
const fromJson = (elements: object[]) =>
	readFormParameters((name, fallback) => (name === 'defineForm' ? 'json' : name === 'jsonOutput' ? JSON.stringify(elements) : fallback));


test('an empty option is left out of the choices', () => {
	const options = { values: [{ option: 'S' }, { option: ' ' }, { option: 'M' }] };
	const { fields, problems } = fromEditor([{ fieldLabel: 'Size', fieldType: 'dropdown', fieldOptions: options }]);

	expect(problems).toEqual([]);
	expect(fields).toEqual([formField({ label: 'Size', type: 'dropdown', options: ['S', 'M'] })]);
});

test.each([
	['true', true, true],
	['"true", as JSON may give it', 'true', true],
	['false', false, false],
	['"false"', 'false', false],
	['not set', undefined, false],
])('Required Field %s', (_name, requiredField, required) => {
	const { fields } = fromJson([{ fieldLabel: 'Name', requiredField }]);

	expect(fields).toEqual([formField({ required })]);
});

test.each([
	['not set: several files', undefined, true],
	['true', true, true],
	['false', false, false],
	['"false", as JSON may give it', 'false', false],
])('Multiple Files %s', (_name, multipleFiles, multiple) => {
	const { fields } = fromJson([{ fieldLabel: 'Receipt', fieldType: 'file', multipleFiles }]);

	expect(fields).toEqual([formField({ label: 'Receipt', type: 'file', multiple })]);
});

test('Custom HTML: its markup made safe, never required; without markup, nothing to show', () => {
	const { fields } = fromJson([
		{ fieldType: 'html', html: '<p onclick="x()">Read</p><script>x()</script>', requiredField: true },
		{ fieldType: 'html', elementName: 'Terms' },
	]);

	expect(fields).toEqual([formField({ label: '', type: 'html', value: '<p>Read</p>' }), formField({ label: 'Terms', type: 'html', value: '' })]);
});

test('a hidden field: the value the workflow set, trimmed', () => {
	const { fields } = fromEditor([{ fieldType: 'hiddenField', fieldName: 'order', fieldValue: ' A-1 ' }]);

	expect(fields).toEqual([formField({ label: 'order', type: 'hiddenField', value: 'A-1' })]);
});

test('Multiple Choice makes only a dropdown checkboxes: set on another element (JSON lets it be), that element stays as it is', () => {
	const { fields, problems } = fromJson([{ fieldLabel: 'Note', fieldType: 'text', multiselect: true }]);

	expect(problems).toEqual([]);
	expect(fields).toEqual([formField({ label: 'Note', type: 'text' })]);
});
