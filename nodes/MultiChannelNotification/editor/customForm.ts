import type { INodeProperties } from 'n8n-workflow';

import { CHOICE_TYPES, FILE_TYPE, HIDDEN_TYPE, HTML_TYPE } from '../sendAndWait/constants';

/** What a new Custom HTML element holds, as in n8n's own forms. */
const HTML_PLACEHOLDER = '<!-- Your custom HTML here -->\n\n\n';
/** The example a new form defined in JSON starts from. */
export const JSON_FORM_EXAMPLE = JSON.stringify(
	[
		{ fieldLabel: 'Name', placeholder: 'Your name', requiredField: true },
		{ fieldLabel: 'Guests', fieldType: 'number' },
		{ fieldLabel: 'Menu', fieldType: 'dropdown', fieldOptions: { values: [{ option: 'Fish' }, { option: 'Vegetarian' }] } },
	],
	null,
	2,
);

const option = (name: string, value: string) => ({ name, value });

/** Custom Form's elements (form.ts reads them): n8n's own form element names, for the types a phone renders without script. */
export const formFieldsProperty: INodeProperties = {
	displayName: 'Form Elements',
	name: 'formFields',
	placeholder: 'Add Form Element',
	type: 'fixedCollection',
	default: {},
	typeOptions: { multipleValues: true, sortable: true },
	displayOptions: { show: { responseType: ['customForm'], defineForm: ['fields'] } },
	description:
		"The fields the person fills in on the page the link opens. Each answer is output under its label (a hidden field's value under its Field Name; a file's name, type and size, the file itself as binary data).",
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Accepted File Types',
					name: 'acceptFileTypes',
					type: 'string',
					default: '',
					placeholder: 'e.g. .jpg, .png, application/pdf',
					description: 'Comma-separated file extensions or MIME types the field takes (image/* for any image). Empty: any file.',
					displayOptions: { show: { fieldType: [FILE_TYPE] } },
				},
				{
					displayName: 'Element Name',
					name: 'elementName',
					type: 'string',
					default: '',
					placeholder: 'e.g. instructions',
					description: 'Optional: the key under which the output holds the HTML as the page showed it',
					displayOptions: { show: { fieldType: [HTML_TYPE] } },
				},
				{
					displayName: 'Element Type',
					name: 'fieldType',
					type: 'options',
					default: 'text',
					options: [
						option('Checkboxes', 'checkbox'),
						option('Custom HTML', HTML_TYPE),
						option('Date', 'date'),
						option('Dropdown', 'dropdown'),
						option('Email', 'email'),
						option('File', FILE_TYPE),
						option('Hidden Field', HIDDEN_TYPE),
						option('Number', 'number'),
						option('Password', 'password'),
						option('Radio Buttons', 'radio'),
						option('Text Input', 'text'),
						option('Textarea', 'textarea'),
					],
				},
				{
					displayName: 'Field Name',
					name: 'fieldName',
					type: 'string',
					default: '',
					placeholder: 'e.g. orderId',
					description: 'The key of the value in the output. The page does not show the field.',
					required: true,
					displayOptions: { show: { fieldType: [HIDDEN_TYPE] } },
				},
				{
					displayName: 'Field Options',
					name: 'fieldOptions',
					placeholder: 'Add Field Option',
					type: 'fixedCollection',
					default: {},
					typeOptions: { multipleValues: true, sortable: true },
					description: 'The choices the person picks from',
					displayOptions: { show: { fieldType: CHOICE_TYPES } },
					options: [{ displayName: 'Values', name: 'values', values: [{ displayName: 'Option', name: 'option', type: 'string', default: '' }] }],
				},
				{
					displayName: 'Field Value',
					name: 'fieldValue',
					type: 'string',
					default: '',
					description: 'What the output holds under the Field Name once the person has answered, e.g. an ID from an earlier node by expression',
					displayOptions: { show: { fieldType: [HIDDEN_TYPE] } },
				},
				{
					displayName: 'HTML',
					name: 'html',
					type: 'string',
					typeOptions: { editor: 'htmlEditor' },
					noDataExpression: true,
					default: HTML_PLACEHOLDER,
					description: 'Text to show on the page at this place: paragraphs, headings, lists, bold and italic, links',
					hint: 'Scripts, styles, images, form controls and attributes other than a link\'s https or mailto address are left out',
					displayOptions: { show: { fieldType: [HTML_TYPE] } },
				},
				{
					displayName: 'Label',
					name: 'fieldLabel',
					type: 'string',
					default: '',
					placeholder: 'e.g. Amount to refund',
					description: 'Shown above the field, and the key of its answer in the output',
					required: true,
					displayOptions: { hide: { fieldType: [HIDDEN_TYPE, HTML_TYPE] } },
				},
				{
					displayName: 'Multiple Choice',
					name: 'multiselect',
					type: 'boolean',
					default: false,
					description: 'Whether the person may choose several options: shown as checkboxes, answered as a list (as n8n\'s own forms do; Checkboxes is the same)',
					displayOptions: { show: { fieldType: ['dropdown'] } },
				},
				{
					displayName: 'Multiple Files',
					name: 'multipleFiles',
					type: 'boolean',
					default: true,
					description: 'Whether the person may attach more than one file',
					displayOptions: { show: { fieldType: [FILE_TYPE] } },
				},
				{
					displayName: 'Placeholder',
					name: 'placeholder',
					type: 'string',
					default: '',
					description: 'Sample text to display inside the field',
					displayOptions: { show: { fieldType: ['text', 'textarea', 'number', 'email', 'password'] } },
				},
				{
					displayName: 'Required Field',
					name: 'requiredField',
					type: 'boolean',
					default: false,
					description: 'Whether the person must fill in this field before the form is sent',
					displayOptions: { hide: { fieldType: [HIDDEN_TYPE, HTML_TYPE] } },
				},
			],
		},
	],
};
