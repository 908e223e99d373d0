import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationOption, PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { templateOptionsField } from '../../editor/optionsField';
import { OUTCOME_RULES, PHONE_RULE, TEMPLATE_RULES } from '../../editor/tool';
import { parseOrThrow } from '../../helpers/validation';
import { ENDPOINTS } from '../../transport';
import { templateFields } from './templateFields';
import { TEMPLATE_LABELS, templateSendSchema } from './templateMessage.schema';
import { readTemplateFields, templatePreview } from './templateReader';

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

/** The request for a template candidate as read.ts reads it (Send and Wait adds its link first). */
export function templateRequest(context: IExecuteFunctions, candidate: Record<string, unknown>, itemIndex: number): PreparedSend {
	const body = parseOrThrow(context, templateSendSchema, candidate, itemIndex, TEMPLATE_LABELS);
	const preview = templatePreview(candidate.templateContent, body);
	return {
		endpoint: ENDPOINTS.chatMessage,
		body,
		extras: { from: body.from, to: body.to, ...(preview === undefined ? {} : { preview }) },
	};
}
