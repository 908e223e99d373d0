import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationOption, PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { templateOptionsField } from '../../editor/optionsField';
import { OUTCOME_RULES, PHONE_RULE, TEMPLATE_RULES } from '../../editor/tool';
import { asText, readCollectionEntries, readText } from '../../helpers/parameters';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';
import { parseOrThrow } from '../../helpers/validation';
import { ENDPOINTS } from '../../transport';
import { URL_BUTTON_DEFAULT_INDEX } from './components.schema';
import { templateFields } from './templateFields';
import type { TemplateMessage } from './templateMessage.schema';
import {
	fillPlaceholders,
	PLACEHOLDER_INPUT_COUNT,
	placeholderInputName,
	placeholderNumbers,
	TEMPLATE_LABELS,
	templateSendSchema,
} from './templateMessage.schema';

export const option: OperationOption = { name: 'Send Template', value: 'sendTemplate', action: 'Send a template message',
	description: 'Send an approved template message, with body parameters, header image and buttons' };

/** What an AI model is told about this operation as its tool. */
export const toolDescription = [
	'Sends one approved chat template message, the only chat message that reaches a user who has not written first.',
	`From (business sender) and To (recipient): phone numbers ${PHONE_RULE}.`,
	TEMPLATE_RULES,
	OUTCOME_RULES,
].join(' ');

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['chatMessage'], operation: ['sendTemplate'] } },
	[...templateFields, templateOptionsField],
);

/** Output: the service's answer plus `from` and `to` as sent, and `preview` when Template Content is set. */
export function prepare(this: IExecuteFunctions, itemIndex: number, options: ItemOptions): PreparedSend {
	return templateRequest(this, readTemplateFields(this, itemIndex, options), itemIndex);
}

/** The request for a template candidate as `readTemplateFields` reads it (Send and Wait adds its link first). */
export function templateRequest(context: IExecuteFunctions, candidate: Record<string, unknown>, itemIndex: number): PreparedSend {
	const body = parseOrThrow(context, templateSendSchema, candidate, itemIndex, TEMPLATE_LABELS);
	const preview = templatePreview(candidate.templateContent, body);
	return {
		endpoint: ENDPOINTS.chatMessage,
		body,
		extras: { from: body.from, to: body.to, ...(preview === undefined ? {} : { preview }) },
	};
}

/**
 * The item's template fields as the schema takes them (templateMessage.schema.ts), keyed by
 * node parameter: only the active way of giving components is read. Every value comes from
 * n8n's engine; nothing here evaluates or judges anything.
 */
export function readTemplateFields(
	context: IExecuteFunctions,
	itemIndex: number,
	{ phoneNumberFormat, languagePolicy }: Pick<ItemOptions, 'phoneNumberFormat' | 'languagePolicy'>,
): Record<string, unknown> {
	const content = context.getNodeParameter('templateContent', itemIndex, '') as unknown;
	const fields = context.getNodeParameter('componentsInputMode', itemIndex, 'fields') !== 'json';
	const header = fields ? readText(context, 'headerImageUrl', itemIndex, { trim: true }) : '';
	const entries = (name: string, key = 'button') => readCollectionEntries(context, name, key, itemIndex);
	const [urlButton] = fields ? entries('urlButton') : [];
	const urlIndex = asText(urlButton?.index, { trim: true });
	// Every key is present (undefined when not used), so all items share one object shape.
	return {
		from: normalizePhoneNumber(readText(context, 'from', itemIndex, { trim: true }), phoneNumberFormat),
		to: normalizePhoneNumber(readText(context, 'to', itemIndex, { trim: true }), phoneNumberFormat),
		templateName: readText(context, 'templateName', itemIndex, { trim: true }),
		languageCode: readText(context, 'languageCode', itemIndex, { trim: true }),
		languagePolicy: asText(languagePolicy, { trim: true }),
		templateContent: typeof content === 'string' && content.trim() !== '' ? content : undefined,
		headerImageUrl: header === '' || header === null ? undefined : header,
		templateTextTurnedIntoExpression: templateTextTurnedIntoExpression(context, itemIndex),
		placeholderValues: fields ? readPlaceholderValues(context, itemIndex, content) : undefined,
		bodyParameters: fields ? entries('bodyParameters', 'parameter').map((entry) => asText(entry.text)) : undefined,
		quickReplyButtons: fields
			? entries('quickReplyButtons').map((button) => ({ index: asText(button.index, { trim: true }), payload: asText(button.payload) }))
			: undefined,
		urlButton: urlButton && {
			index: urlIndex === '' || urlIndex === undefined ? URL_BUTTON_DEFAULT_INDEX : urlIndex,
			text: asText(urlButton.text),
		},
		componentsJson: fields ? undefined : context.getNodeParameter('componentsJson', itemIndex, ''),
	};
}

/**
 * The values for {{1}} … {{N}} in order, N being the highest placeholder of the text (at most
 * the inputs there are), or [] when every one is empty: the inputs are then unused and Body
 * Parameters may carry the values.
 */
function readPlaceholderValues(context: IExecuteFunctions, itemIndex: number, content: unknown): unknown[] {
	if (typeof content !== 'string') return [];
	const highest = Math.min(placeholderNumbers(content).at(-1) ?? 0, PLACEHOLDER_INPUT_COUNT);
	const read = Array.from({ length: highest }, (_unused, at) =>
		asText(context.getNodeParameter(placeholderInputName(at + 1), itemIndex, '')),
	);
	return read.every((value) => value === undefined || value === null || value === '') ? [] : read;
}

/**
 * Whether Template Content holds the template's own {{1}}, {{2}}, … as written but is set to
 * Expression: n8n's editor does that when text with {{ }} is pasted into the empty field, and
 * then evaluates {{1}} to 1, so a send would go out without its values. The raw value is n8n's
 * own (`rawExpressions`; a leading "=" marks an expression), only looked at, never evaluated.
 */
function templateTextTurnedIntoExpression(context: IExecuteFunctions, itemIndex: number): boolean {
	const raw = context.getNodeParameter('templateContent', itemIndex, '', { rawExpressions: true });
	return typeof raw === 'string' && raw.startsWith('=') && placeholderNumbers(raw.slice(1)).length > 0;
}

/** What the recipient reads: the Template Content with the sent body parameters filled in. */
export function templatePreview(content: unknown, message: TemplateMessage): string | undefined {
	if (typeof content !== 'string') return undefined;
	const body = message.template.components.find((component) => component.type === 'body');
	return fillPlaceholders(content, body?.type === 'body' ? body.parameters.map((parameter) => parameter.text) : []);
}
