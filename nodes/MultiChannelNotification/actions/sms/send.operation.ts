import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationOption, PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { smsOptionsField } from '../../editor/options';
import { SMS_RECIPIENT_DESCRIPTION } from '../../editor/phoneText';
import { smsFields } from '../../editor/sms';
import { OUTCOME_RULES, PHONE_RULE, SMS_ONLY } from '../../editor/tool';
import { parseOrThrow } from '../../helpers/validation';
import { SMS_ALLOWED_NUMBER, SMS_LABELS, smsSendSchema } from '../../schemas';
import { ENDPOINTS } from '../../transport';
import { readSms, withSmsCost } from '../read/sms';

export const option: OperationOption = { name: 'Send SMS', value: 'send', action: 'Send an SMS',
	description: `Send an SMS to ${SMS_ALLOWED_NUMBER}` };

/** What an AI model is told about this operation as its tool. */
export const toolDescription = [
	'Sends one SMS through the Multi-Channel Notification Service.',
	`Phone number: the recipient ${PHONE_RULE}. ${SMS_ONLY}; any other country is refused.`,
	'Message: the exact SMS text.',
	OUTCOME_RULES,
].join(' ');

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['sms'], operation: ['send'] } },
	[
		...smsFields(SMS_LABELS, SMS_RECIPIENT_DESCRIPTION),
		smsOptionsField,
	],
);

/** Output: the service's answer plus `phoneNumber`, the number the SMS went to, and `sms`, what it costs. */
export function prepare(this: IExecuteFunctions, itemIndex: number, options: ItemOptions): PreparedSend {
	const candidate = readSms(this, itemIndex, options);
	const body = parseOrThrow(this, smsSendSchema, candidate, itemIndex, SMS_LABELS);
	return withSmsCost({ endpoint: ENDPOINTS.sms, body, extras: { phoneNumber: body.phone_number } }, body.message, SMS_LABELS.message.label);
}
