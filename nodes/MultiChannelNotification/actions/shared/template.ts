import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodIssue } from 'zod';

import { asText, readCollectionEntries, readJson, readText } from '../../helpers/parameters';
import type { PhoneNumberFormat } from '../../helpers/phoneNumber';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';
import { checkPlaceholders, fillPlaceholders } from '../../helpers/templateContent';
import type { IssuePath } from '../../helpers/validation';
import type { BodyComponent, ComponentsRuleField, TemplateMessage } from '../../schemas';
import { componentKind } from '../../schemas';

/**
 * The chat template part, declared once: Send Template uses it as is and Send with Failover
 * uses it for its chat part. Field names here are what workflows store; labels are what the
 * user sees and what validation errors name.
 */

export const LABELS = {
	from: 'From',
	to: 'To',
	templateName: 'Template Name',
	templateContent: 'Template Content',
	languageCode: 'Language Code',
	languagePolicy: 'Language Policy',
	componentsJson: 'Components (JSON)',
	bodyParameters: 'Body Parameters',
	headerImageUrl: 'Header Image URL',
	quickReplyButtons: 'Quick Reply Buttons',
	urlButton: 'URL Button',
} as const;

export const senderField: INodeProperties = {
	displayName: LABELS.from,
	name: 'from',
	type: 'string',
	required: true,
	default: '',
	placeholder: '+6281234567890',
	description: 'Your business sender number in E.164 format: a leading +, the country code and the number',
};

export const recipientField: INodeProperties = {
	displayName: LABELS.to,
	name: 'to',
	type: 'string',
	required: true,
	default: '',
	placeholder: '+6281234567890',
	description: 'The recipient’s phone number in E.164 format: a leading +, the country code and the number',
};

const showFields = { show: { componentsInputMode: ['fields'] } };

export const templateFields: INodeProperties[] = [
	senderField,
	recipientField,
	{
		displayName: LABELS.templateName,
		name: 'templateName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'order_update',
		description: 'Name of the approved template, as given by the service operator',
	},
	{
		displayName: LABELS.templateContent,
		name: 'templateContent',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'Hi {{1}}, your order {{2}} has shipped.',
		description:
			'Optional: the approved template text with its placeholders. When given, the body parameters are counted against the placeholders before anything is sent, and the output shows a preview with them filled in. Enter it as fixed text, not as an expression.',
	},
	{
		displayName: LABELS.languageCode,
		name: 'languageCode',
		type: 'string',
		required: true,
		default: 'id',
		description: 'Language code of the approved template, for example "en" for English; the default is Indonesian',
	},
	{
		displayName: LABELS.languagePolicy,
		name: 'languagePolicy',
		type: 'string',
		required: true,
		default: 'deterministic',
		description: 'How the service picks the template language; the service documents "deterministic"',
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
				description: 'The whole components array as JSON, for example built by an earlier node',
			},
		],
		default: 'fields',
	},
	{
		displayName: LABELS.bodyParameters,
		name: 'bodyParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Body Parameter',
		default: {},
		displayOptions: showFields,
		description:
			'Values for the placeholders of the template content, in order: the first fills {{1}}, the second {{2}}, and so on. Drag to reorder.',
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{
						displayName: 'Text',
						name: 'text',
						type: 'string',
						default: '',
						description: 'Text for this placeholder',
					},
				],
			},
		],
	},
	{
		displayName: LABELS.headerImageUrl,
		name: 'headerImageUrl',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/banner.jpg',
		displayOptions: showFields,
		description: 'For a template with an image header: the image’s https link. Leave empty otherwise.',
	},
	{
		displayName: LABELS.quickReplyButtons,
		name: 'quickReplyButtons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Quick Reply Button',
		default: {},
		displayOptions: showFields,
		description: 'Payloads for the template’s quick reply buttons: at most 3, each at its own position 0–2',
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{
						displayName: 'Index',
						name: 'index',
						type: 'options',
						options: [
							{ name: '0 (First Button)', value: '0' },
							{ name: '1 (Second Button)', value: '1' },
							{ name: '2 (Third Button)', value: '2' },
						],
						default: '0',
						description: 'Position of the button in the template',
					},
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
		displayName: LABELS.urlButton,
		name: 'urlButton',
		type: 'fixedCollection',
		placeholder: 'Add URL Button',
		default: {},
		displayOptions: showFields,
		description: 'For a template with a call-to-action website button whose URL has a placeholder',
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{
						displayName: 'Index',
						name: 'index',
						type: 'string',
						default: '0',
						description: 'Position of the button in the template',
					},
					{
						displayName: 'URL Parameter',
						name: 'text',
						type: 'string',
						default: '',
						description: 'Value for the placeholder in the button’s URL',
					},
				],
			},
		],
	},
	{
		displayName: LABELS.componentsJson,
		name: 'componentsJson',
		type: 'json',
		default: '[\n  {\n    "type": "body",\n    "parameters": [{ "type": "text", "text": "Budi" }]\n  }\n]',
		displayOptions: { show: { componentsInputMode: ['json'] } },
		description:
			'The template.components array as the service takes it, checked with the same rules as the fields. Values the service documents as defaults may be left out (component type, parameter type "text", button sub_type "quick_reply", URL button index 0).',
	},
];

export type ComponentsMode = 'fields' | 'json';

/** Builds the candidate template message from the item's fields; validation comes after. */
export function readTemplateMessage(
	context: IExecuteFunctions,
	itemIndex: number,
	phoneNumberFormat: PhoneNumberFormat,
): { message: Record<string, unknown>; mode: ComponentsMode } {
	const mode = context.getNodeParameter('componentsInputMode', itemIndex, 'fields') as ComponentsMode;
	const components =
		mode === 'json'
			? normaliseJsonComponents(readJson(context, 'componentsJson', LABELS.componentsJson, itemIndex))
			: componentsFromFields(context, itemIndex);
	return {
		mode,
		message: {
			from: normalizePhoneNumber(readText(context, 'from', itemIndex, { trim: true }), phoneNumberFormat),
			to: normalizePhoneNumber(readText(context, 'to', itemIndex, { trim: true }), phoneNumberFormat),
			type: 'template',
			template: {
				name: readText(context, 'templateName', itemIndex, { trim: true }),
				language: {
					policy: readText(context, 'languagePolicy', itemIndex, { trim: true }),
					code: readText(context, 'languageCode', itemIndex, { trim: true }),
				},
				components,
			},
		},
	};
}

/**
 * When Template Content is given: checks its placeholders against the body parameters of the
 * validated message and returns the preview text the recipient will read; undefined otherwise.
 */
export function templatePreview(
	context: IExecuteFunctions,
	itemIndex: number,
	message: TemplateMessage,
	mode: ComponentsMode,
): string | undefined {
	const content = context.getNodeParameter('templateContent', itemIndex, '') as unknown;
	if (typeof content !== 'string' || content.trim() === '') return undefined;
	const fail = (problem: string) =>
		new NodeOperationError(context.getNode(), `Item ${itemIndex}: ${problem}`, {
			itemIndex,
			description: 'Nothing was sent for this item.',
		});

	const check = checkPlaceholders(content);
	if ('problem' in check) throw fail(`${LABELS.templateContent}: ${check.problem}`);
	const body = message.template.components.find(
		(component): component is BodyComponent => component.type === 'body',
	);
	const values = body?.parameters.map((parameter) => parameter.text) ?? [];
	if (values.length !== check.count) {
		const label = mode === 'json' ? `${LABELS.componentsJson} (body parameters)` : LABELS.bodyParameters;
		const expected =
			check.count === 0
				? 'has no placeholders, so it expects no body parameters'
				: `expects ${check.count} body parameter${check.count === 1 ? '' : 's'} ({{1}}${
						check.count > 1 ? ` to {{${check.count}}}` : ''
					})`;
		throw fail(`${label}: the template content ${expected}, but ${values.length} ${values.length === 1 ? 'was' : 'were'} given`);
	}
	return fillPlaceholders(content, values);
}

function componentsFromFields(context: IExecuteFunctions, itemIndex: number): unknown[] {
	const components: unknown[] = [];
	const headerImageUrl = readText(context, 'headerImageUrl', itemIndex, { trim: true });
	if (headerImageUrl !== '' && headerImageUrl !== null && headerImageUrl !== undefined) {
		components.push({
			type: 'header',
			parameters: [{ type: 'image', image: { link: headerImageUrl } }],
		});
	}
	// Spec rule 1: the body component is always sent, with or without parameters.
	components.push({
		type: 'body',
		parameters: readCollectionEntries(context, 'bodyParameters', 'parameter', itemIndex).map(
			(entry) => ({ type: 'text', text: asText(entry.text) }),
		),
	});
	for (const button of readCollectionEntries(context, 'quickReplyButtons', 'button', itemIndex)) {
		components.push({
			type: 'button',
			sub_type: 'quick_reply',
			index: asText(button.index, { trim: true }),
			parameters: [{ type: 'payload', payload: asText(button.payload) }],
		});
	}
	const [urlButton] = readCollectionEntries(context, 'urlButton', 'button', itemIndex);
	if (urlButton) {
		const index = asText(urlButton.index, { trim: true });
		components.push({
			type: 'button',
			sub_type: 'url',
			index: index === '' || index === undefined ? '0' : index,
			parameters: [{ type: 'text', text: asText(urlButton.text) }],
		});
	}
	return components;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * JSON mode fills in what the spec marks "(default)" so a hand-written array may leave it out:
 * a component's `type` (button when it has `sub_type` or `index`, else body), a body
 * parameter's `type` (text), a button's `sub_type` (quick_reply) and a URL button's `index`
 * (0). An `index` given as a whole number becomes the string the service takes. Everything
 * else is left for validation to judge.
 */
function normaliseJsonComponents(value: unknown): unknown {
	if (!Array.isArray(value)) return value;
	return value.map((entry: unknown) => {
		if (!isObject(entry)) return entry;
		const component: JsonObject = { ...entry };
		if (component.type === undefined) {
			component.type = 'sub_type' in component || 'index' in component ? 'button' : 'body';
		}
		if (component.type === 'body' && Array.isArray(component.parameters)) {
			component.parameters = component.parameters.map((parameter: unknown) =>
				isObject(parameter) && parameter.type === undefined ? { type: 'text', ...parameter } : parameter,
			);
		}
		if (component.type === 'button') {
			if (component.sub_type === undefined) component.sub_type = 'quick_reply';
			if (component.sub_type === 'url' && component.index === undefined) component.index = '0';
			if (Number.isInteger(component.index)) component.index = String(component.index);
		}
		return component;
	});
}

function jsonPath(path: IssuePath): string {
	return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('');
}

/** The UI label for a problem inside a template message (the chat part of a combined send too). */
export function templateFieldLabel(
	path: IssuePath,
	issue: ZodIssue,
	message: unknown,
	mode: ComponentsMode,
): string {
	const [first, second, third, ...rest] = path;
	if (first === 'from') return LABELS.from;
	if (first === 'to') return LABELS.to;
	if (first !== 'template' || second === undefined) return 'Template message';
	if (second === 'name') return LABELS.templateName;
	if (second === 'language') {
		if (third === 'code') return LABELS.languageCode;
		if (third === 'policy') return LABELS.languagePolicy;
		return 'Language';
	}
	if (second !== 'components') return 'Template';

	if (mode === 'json') {
		return third === undefined
			? LABELS.componentsJson
			: `${LABELS.componentsJson} at ${jsonPath([third, ...rest])}`;
	}
	if (third === undefined) {
		const field = (issue as { params?: { field?: ComponentsRuleField } }).params?.field;
		if (field === 'quickReplies') return LABELS.quickReplyButtons;
		if (field === 'header') return LABELS.headerImageUrl;
		return LABELS.bodyParameters;
	}
	const components = (message as { template?: { components?: unknown[] } }).template?.components ?? [];
	const position = Number(third);
	switch (componentKind(components[position])) {
		case 'header':
			return LABELS.headerImageUrl;
		case 'body':
			return rest[0] === 'parameters' && typeof rest[1] === 'number'
				? `${LABELS.bodyParameters} → Parameter ${rest[1] + 1}`
				: LABELS.bodyParameters;
		case 'quickReply': {
			const ordinal = components
				.slice(0, position + 1)
				.filter((component) => componentKind(component) === 'quickReply').length;
			const part = rest[0] === 'index' ? ' → Index' : rest[0] === 'parameters' ? ' → Payload' : '';
			return `${LABELS.quickReplyButtons} → Button ${ordinal}${part}`;
		}
		case 'url':
			return `${LABELS.urlButton}${rest[0] === 'index' ? ' → Index' : rest[0] === 'parameters' ? ' → URL Parameter' : ''}`;
		default:
			return 'Components';
	}
}
