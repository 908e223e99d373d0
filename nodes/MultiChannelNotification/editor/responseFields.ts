import type { INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_APPROVE_LABEL,
	DEFAULT_DECLINE_LABEL,
	DEFAULT_SUBMIT_LABEL,
	FORM_FIELD_TYPES,
	JSON_FORM_KEYS,
	MAX_ANSWER_CHARS,
} from '../sendAndWait/constants';
import { formFieldsProperty, JSON_FORM_EXAMPLE } from './customForm';
import { optionsField } from './optionsField';

/**
 * The fields every Send and Wait for Response operation adds to its send: how the person answers
 * and how long to wait. Names, values and defaults are those of n8n's own send-and-wait nodes,
 * so workflows, n8n's editor and its human-review tool read them the same way.
 */

/** Rows of every Message field of a Send and Wait operation, as in n8n's own. */
export const MESSAGE_ROWS = 4;

export const responseFields: INodeProperties[] = [
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'The person approves (or declines) on the page the link opens',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: `The person writes an answer (up to ${MAX_ANSWER_CHARS} characters) on the page the link opens`,
			},
			{
				name: 'Custom Form',
				value: 'customForm',
				description: 'The person fills in a form you define (text, numbers, dates, choices, files) on the page the link opens',
			},
		],
	},
	{
		displayName: 'Define Form',
		name: 'defineForm',
		type: 'options',
		noDataExpression: true,
		default: 'fields',
		displayOptions: { show: { responseType: ['customForm'] } },
		options: [
			{ name: 'Using Fields Below', value: 'fields', description: 'Add each element of the form in the editor' },
			{ name: 'Using JSON', value: 'json', description: "A list of elements in JSON, as n8n's forms take it: an expression can build it from earlier nodes" },
		],
	},
	formFieldsProperty,
	{
		displayName: 'Form Fields',
		name: 'jsonOutput',
		type: 'json',
		typeOptions: { rows: 5 },
		default: JSON_FORM_EXAMPLE,
		displayOptions: { show: { responseType: ['customForm'], defineForm: ['json'] } },
		description: `The form's elements as a JSON list. Each element takes ${JSON_FORM_KEYS.join(', ')}; fieldType is one of ${FORM_FIELD_TYPES.join(', ')} (default text), a choice element lists its choices as fieldOptions.values[].option, a file element takes multipleFiles (default true) and acceptFileTypes, an html element its html and an optional elementName, and a hiddenField has a fieldName and a fieldValue instead of a label.`,
	},
	{
		displayName: `Without Approval Options the answer page offers ${DEFAULT_APPROVE_LABEL} and ${DEFAULT_DECLINE_LABEL}. Add them to change the labels or to offer Approve Only.`,
		name: 'approvalButtonsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { responseType: ['approval'] } },
	},
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add option',
		// Empty, as n8n's own: n8n-workflow (1.x to 2.41) fails to load a workflow that lacks a
		// single-value fixed collection whose default holds a value. Without it the page offers
		// Approve and Decline (sendAndWait/webhook.ts), unlike n8n's own nodes (Approve only): a person asked to
		// approve, in a human-review step above all, can also say no.
		default: {},
		displayOptions: { show: { responseType: ['approval'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'double',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Disapprove', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: DEFAULT_APPROVE_LABEL,
					},
					{
						displayName: 'Disapprove Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: DEFAULT_DECLINE_LABEL,
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
	},
];

const limitWaitTimeOption: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether to limit the time this node should wait for a user response before execution resumes. When the time passes without an answer, n8n continues with this node’s input items, which carry no "data" answer; without a limit it waits indefinitely.',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					description: 'Sets the condition for the execution to resume. Can be a specified date or after some time.',
					options: [
						{ name: 'After Time Interval', value: 'afterTimeInterval', description: 'Waits for a certain amount of time' },
						{ name: 'At Specified Time', value: 'atSpecifiedTime', description: 'Waits until the set date and time to continue' },
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 1,
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					description: 'The time to wait',
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					default: 'hours',
					description: 'Unit of the interval value',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
					description: 'Continue execution after the specified date and time',
				},
			],
		},
	],
};

/** The form page's options (Free Text and Custom Form), named as n8n's own send-and-wait nodes name them. */
const onlyForForms = { show: { '/responseType': ['freeText', 'customForm'] } };
const freeTextOptions: INodeProperties[] = [
	{
		displayName: 'Response Form Title',
		name: 'responseFormTitle',
		type: 'string',
		default: '',
		description: 'Title of the form that the user can access to provide their response',
		displayOptions: onlyForForms,
	},
	{
		displayName: 'Response Form Description',
		name: 'responseFormDescription',
		type: 'string',
		default: '',
		description: 'Description of the form that the user can access to provide their response',
		displayOptions: onlyForForms,
	},
	{
		displayName: 'Response Form Button Label',
		name: 'responseFormButtonLabel',
		type: 'string',
		default: DEFAULT_SUBMIT_LABEL,
		displayOptions: onlyForForms,
	},
	{
		displayName: 'Response Form Custom Styling',
		name: 'responseFormCustomCss',
		type: 'string',
		typeOptions: { rows: 10, editor: 'cssEditor' },
		default: '',
		placeholder: 'e.g. .primary { background: #0a7d3b; border-color: #0a7d3b }',
		description:
			'CSS added after the page\'s own, e.g. to match your brand: the page\'s classes are .card, .message, .primary (the submit button) and .html (Custom HTML); fonts or images it names are not loaded (the page loads nothing from elsewhere)',
		displayOptions: onlyForForms,
	},
];

/** Off unless chosen: an n8n too old to sign answer links then refuses to send one (sendAndWait/link.ts). */
const allowUnsignedLinksOption: INodeProperties = {
	displayName: 'Allow Unsigned Answer Links',
	name: 'allowUnsignedAnswerLinks',
	type: 'boolean',
	default: false,
	description:
		'Whether to send an unsigned answer link when this n8n cannot sign links (n8n that can, as every version the package is tested on, ignores this). Risky: anyone who knows or guesses the execution ID (they are sequential) and the node ID (every earlier message showed it) can then answer. Off: such an n8n sends nothing and the node fails with an error.',
};

/** The send Options that make sense for one message that waits: no pacing, no per-key dedupe. */
const KEPT_SEND_OPTIONS = ['dryRun', 'phoneNumberFormat', 'timeout', 'languagePolicy', 'maxSmsSegments', 'replaceLookAlikes'];

/** The Options of a Send and Wait operation: Limit Wait Time, the form page's options, and the kept send options of `base`. */
export function sendAndWaitOptions(base: INodeProperties = optionsField): INodeProperties {
	const kept = (base.options as INodeProperties[]).filter((option) => KEPT_SEND_OPTIONS.includes(option.name));
	return {
		...base,
		options: [...kept, allowUnsignedLinksOption, limitWaitTimeOption, ...freeTextOptions].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** For the chat template: which body placeholder carries the answer link. */
export const linkPlaceholderField: INodeProperties = {
	displayName: 'Link Goes Into',
	name: 'linkPlaceholder',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 1,
	required: true,
	description:
		'The body placeholder that carries the answer link: 2 puts it in {{2}}. Leave that placeholder’s value empty; the node fills it with the link when it sends.',
};

/** The page's text for the chat template (for SMS and the combined send it is the SMS text). */
export const pageMessageField: INodeProperties = {
	displayName: 'Message',
	name: 'message',
	type: 'string',
	required: true,
	default: '',
	typeOptions: { rows: MESSAGE_ROWS },
	description: 'The question, in full: the answer page shows it above the choices. The template itself carries only the link.',
};
