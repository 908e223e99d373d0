import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationOption, PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { smsOptionsField } from '../../editor/optionsField';
import { SMS_RECIPIENT_DESCRIPTION } from '../../editor/phoneText';
import { OUTCOME_RULES, PHONE_RULE, SMS_ONLY } from '../../editor/tool';
import { SMS_ALLOWED_NUMBER } from '../../schemas/common';
import { prepareSms, SMS_LABELS, smsFields } from './sms';

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

/** The SMS: read, checked and counted (sms.ts). */
export function prepare(this: IExecuteFunctions, itemIndex: number, options: ItemOptions): PreparedSend {
	return prepareSms(this, itemIndex, options);
}
