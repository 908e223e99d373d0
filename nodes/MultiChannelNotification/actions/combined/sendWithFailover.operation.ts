import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationOption, PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { smsTemplateOptionsField } from '../../editor/optionsField';
import { LOCAL_NUMBERS_NOTE, SMS_INDONESIA_ONLY } from '../../editor/phoneText';
import { OUTCOME_RULES, PHONE_RULE, SMS_ONLY } from '../../editor/tool';
import { parseOrThrow } from '../../helpers/validation';
import type { ServiceResponse } from '../../transport';
import { ENDPOINTS } from '../../transport';
import { readTemplateFields, templatePreview } from '../chatMessage/sendTemplate.operation';
import { templateFields } from '../chatMessage/templateFields';
import { readSms, smsFields, withinSegmentLimit, withSmsCost } from '../sms/sms';
import { COMBINED_LABELS as LABELS, combinedSendSchema } from './combined.schema';

const [phoneNumberField, messageField] = smsFields(
	LABELS,
	`Who gets the SMS. It copies To (the expression shown) unless you change it. ${SMS_INDONESIA_ONLY}, so when To is not one, put one here. ${LOCAL_NUMBERS_NOTE}.`,
);

const fields: INodeProperties[] = [
	{
		displayName:
			'The service sends the chat template message and falls back to the SMS below according to its failover order. Both parts are checked before anything is sent.',
		name: 'failoverNotice',
		type: 'notice',
		default: '',
	},
	...templateFields,
	{ ...phoneNumberField, default: '={{ $parameter["to"] }}' },
	messageField,
	smsTemplateOptionsField,
];

export const option: OperationOption = { name: 'Send with Failover', value: 'sendWithFailover', action: 'Send a notification with failover',
	description: 'Send a chat template message with an SMS as failover, in one request' };

/** What an AI model is told about this operation as its tool. */
export const toolDescription = [
	'Sends one notification as a single request that carries both parts: a chat template message and an SMS; the service falls back from the chat message to the SMS by its failover order.',
	'Both parts are required and checked before anything is sent.',
	`Chat part: From and To ${PHONE_RULE}; an approved template name; the body component is required, its parameters fill {{1}}, {{2}}, … in order, one per placeholder; at most 3 quick replies at index 0–2; an optional URL button.`,
	`SMS part: the phone number, also E.164 with leading +, and the SMS text. ${SMS_ONLY}.`,
	OUTCOME_RULES,
].join(' ');

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['combined'], operation: ['sendWithFailover'] } },
	fields,
);

/**
 * Output: the service's answer plus `from` and `to` (chat part) and `phoneNumber` (SMS part) as
 * sent, `preview` when Template Content is set, `sms` (what the SMS part costs) and each channel's status.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number, options: ItemOptions): PreparedSend {
	// One object holding both parts' fields, as the schema reads them.
	const candidate = Object.assign(
		readTemplateFields(this, itemIndex, options),
		readSms(this, itemIndex, options),
	);
	const schema = combinedSendSchema.superRefine(withinSegmentLimit(options.maxSmsSegments, (sent) => sent.sms.message));
	const body = parseOrThrow(this, schema, candidate, itemIndex, LABELS);
	const preview = templatePreview(candidate.templateContent, body.chat);
	const request: PreparedSend = {
		endpoint: ENDPOINTS.combined,
		body,
		extras: {
			from: body.chat.from,
			to: body.chat.to,
			phoneNumber: body.sms.phone_number,
			...(preview === undefined ? {} : { preview }),
		},
	};
	return withSmsCost(request, body.sms.message);
}

/** Lifts each channel's status to the top of the item, next to the service's answer. */
export function output(response: ServiceResponse): IDataObject {
	const result = (response.data.result ?? {}) as { chat?: { status?: unknown }; sms?: { status?: unknown } };
	return {
		chatStatus: result.chat?.status ?? null,
		smsStatus: result.sms?.status ?? null,
	};
}
