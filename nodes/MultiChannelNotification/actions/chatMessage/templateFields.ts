import type { INodeProperties } from 'n8n-workflow';

import { CHAT_PHONE_HINT, LOCAL_NUMBERS_NOTE, PHONE_PLACEHOLDER } from '../../editor/phoneText';
import { NEXT_FREE_INDEX, QUICK_REPLY_INDEXES, URL_BUTTON_DEFAULT_INDEX } from './components.schema';
import { PLACEHOLDER_INPUT_COUNT, placeholderInputName, TEMPLATE_LABELS as LABELS } from './templateMessage.schema';

/**
 * The template fields, declared once, for Send Template and the chat part of Send with Failover.
 * Labels come from the schema's label table, so an error names a field as the editor shows it.
 */

const phoneNumberField = (name: 'from' | 'to', whose: string): INodeProperties => ({
	displayName: LABELS[name].label,
	name,
	type: 'string',
	required: true,
	default: '',
	placeholder: PHONE_PLACEHOLDER,
	hint: CHAT_PHONE_HINT,
	description: `${whose} in E.164 format: a leading +, the country code and the number. ${LOCAL_NUMBERS_NOTE}.`,
});

export const senderField = phoneNumberField('from', 'Your business sender number');
export const recipientField = phoneNumberField('to', 'The recipient’s phone number');

const showFields = { show: { componentsInputMode: ['fields'] } };

/**
 * Shown in fields mode while Template Content holds the pattern: n8n's display condition, which
 * the editor evaluates as the text changes (1.x and 2.x). It drives one input per placeholder,
 * {{1}} … {{20}}. n8n's resource mapper was tried first: it refetches its inputs only when every
 * parameter of the node resolves, so To = {{ $json.phone }} before a run kept them hidden.
 */
const whileContentHas = (pattern: string) => ({
	show: { ...showFields.show, templateContent: [{ _cnd: { regex: pattern } }] },
});

/**
 * Body Parameters is shown only where the {{1}}… inputs cannot take the values: Template Content
 * empty (or not stored at all), or using a placeholder beyond the last input ({{21}} and up), so
 * one way of giving the values is on screen at a time. A parameter n8n does not show is dropped
 * before the node runs, so a workflow saved with both gets the inputs' count error. The pattern
 * matches {{21}} and up: PLACEHOLDER_INPUT_COUNT is 20.
 */
const beyondLastInput = `\\{\\{(0*(2[1-9]|[3-9]\\d|[1-9]\\d{2,}))\\}\\}`;
const whileBodyParametersNeeded = {
	show: { ...showFields.show, templateContent: [undefined, { _cnd: { regex: `^\\s*$|${beyondLastInput}` } }] },
};

const placeholderInputs: INodeProperties[] = [
	{
		displayName:
			'Placeholder Values: one input per placeholder of Template Content, in order. Each accepts an expression, e.g. {{ $json.name }}.',
		name: 'placeholderValuesNotice',
		type: 'notice',
		default: '',
		displayOptions: whileContentHas('\\{\\{[1-9]\\d*\\}\\}'),
	},
	...Array.from(
		{ length: PLACEHOLDER_INPUT_COUNT },
		(_unused, at): INodeProperties => ({
			displayName: `{{${at + 1}}}`,
			name: placeholderInputName(at + 1),
			type: 'string',
			default: '',
			displayOptions: whileContentHas(`\\{\\{${at + 1}\\}\\}`),
			description: `The value that replaces {{${at + 1}}} in Template Content`,
		}),
	),
];

const ORDINALS = ['First', 'Second', 'Third'];

// Spec: a quick reply's index is 0 to 2; a URL button's defaults to 0.
const positions = QUICK_REPLY_INDEXES.map((index, at) => ({ name: `${index} (${ORDINALS[at]} Button)`, value: index }));

const buttonIndex = (description: string): INodeProperties => ({
	displayName: 'Index',
	name: 'index',
	type: 'options',
	options: positions,
	default: URL_BUTTON_DEFAULT_INDEX,
	description,
});

// Every new entry gets the same default: a fixed 0 would make a second quick reply clash.
const quickReplyIndex: INodeProperties = {
	...buttonIndex(
		'Which of the template’s buttons this is. Next Free Position: the first position (0, 1, 2) no other button uses, in list order.',
	),
	options: [{ name: 'Next Free Position', value: NEXT_FREE_INDEX }, ...positions],
	default: NEXT_FREE_INDEX,
};

export const templateFields: INodeProperties[] = [
	senderField,
	recipientField,
	{
		displayName: LABELS.templateName.label,
		name: 'templateName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'order_update',
		description: 'Name of the approved template, as the service operator gave it to you',
	},
	{
		displayName: LABELS.templateContent.label,
		name: 'templateContent',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'Hi {{1}}, your order {{2}} has shipped.',
		description:
			'Optional: paste the approved template text here. The node then shows one input per placeholder ({{1}}, {{2}}, …) below, checks the count before sending and shows the finished text in its output. If n8n switches the field to Expression as you paste (it does when the field was empty), click Fixed above it.',
		hint: 'Pasting text with {{1}} into an empty field makes n8n switch it to Expression, which replaces the placeholders. If the field says Expression, click Fixed.',
	},
	{
		displayName: LABELS.languageCode.label,
		name: 'languageCode',
		type: 'string',
		required: true,
		default: 'id',
		description: 'Language code of the approved template, for example "en" for English; the default is Indonesian',
	},
	{
		displayName: 'Define Components',
		name: 'componentsInputMode',
		type: 'options',
		options: [
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'Body parameters, header image and buttons as fields',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: 'The whole components list as JSON, for example built by an earlier node',
			},
		],
		default: 'fields',
	},
	...placeholderInputs,
	{
		displayName: LABELS.bodyParameters.label,
		name: 'bodyParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Body Parameter',
		default: {},
		displayOptions: whileBodyParametersNeeded,
		description:
			'For a template entered without its text: the values that fill its placeholders, in order — the first entry fills {{1}}, the second {{2}}, and so on. Drag to reorder. Shown only while Template Content is empty (or uses more placeholders than there are inputs): with Template Content, the {{1}}, {{2}}, … inputs take the values.',
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{
						displayName: 'Value (Fills {{1}}, {{2}}, … in List Order)',
						name: 'text',
						type: 'string',
						default: '',
						description: 'Text for this entry’s placeholder: the first entry fills {{1}}, the second {{2}}, …',
					},
				],
			},
		],
	},
	{
		displayName: LABELS.headerImageUrl.label,
		name: 'headerImageUrl',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/banner.jpg',
		displayOptions: showFields,
		description: 'Only for a template with an image at the top: the image’s https link. Leave empty otherwise.',
	},
	{
		displayName: LABELS.quickReplyButtons.label,
		name: 'quickReplyButtons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Quick Reply Button',
		default: {},
		displayOptions: showFields,
		description:
			'Only for a template with quick reply buttons: the text you get back when the user taps each one. At most 3, each at its own position.',
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					quickReplyIndex,
					{
						displayName: 'Payload',
						name: 'payload',
						type: 'string',
						default: '',
						description: 'Text returned to you when the user taps this button',
					},
				],
			},
		],
	},
	{
		displayName: LABELS.urlButton.label,
		name: 'urlButton',
		type: 'fixedCollection',
		placeholder: 'Add URL Button',
		default: {},
		displayOptions: showFields,
		description: 'Only for a template with a website button whose link has a placeholder',
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					buttonIndex('Which of the template’s buttons this is; usually the first'),
					{
						displayName: 'URL Parameter',
						name: 'text',
						type: 'string',
						default: '',
						description: 'The value that fills the placeholder in the button’s link',
					},
				],
			},
		],
	},
	{
		displayName: LABELS.componentsJson.label,
		name: 'componentsJson',
		type: 'json',
		default: '[\n  {\n    "type": "body",\n    "parameters": [{ "type": "text", "text": "Budi" }]\n  }\n]',
		displayOptions: { show: { componentsInputMode: ['json'] } },
		description:
			'The template’s components list as the service takes it, checked with the same rules as the fields. Values the service treats as defaults may be left out (component type, parameter type "text", button sub_type "quick_reply", URL button index 0).',
		// n8n keeps each mode's values apart and a node cannot fill one field from others in the
		// editor; a Dry Run prints the list the fields build, ready to paste.
		hint: 'Values entered in the fields are not copied here. To start from them: switch back to Using Fields Below, run once with Options → Dry Run, and copy the output’s request.body.template.components.',
	},
];
