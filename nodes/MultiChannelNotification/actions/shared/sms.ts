import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readText } from '../../helpers/parameters';
import type { PhoneNumberFormat } from '../../helpers/phoneNumber';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';
import type { IssuePath } from '../../helpers/validation';

/**
 * The SMS fields, declared once: SMS → Send uses them as `phoneNumber`/`message`, Send with
 * Failover as its SMS part `smsPhoneNumber`/`smsMessage`.
 */
export interface SmsFieldNames {
	phoneNumber: string;
	message: string;
	labelPrefix: string;
}

export const SMS_FIELDS: SmsFieldNames = { phoneNumber: 'phoneNumber', message: 'message', labelPrefix: '' };
export const FAILOVER_SMS_FIELDS: SmsFieldNames = {
	phoneNumber: 'smsPhoneNumber',
	message: 'smsMessage',
	labelPrefix: 'SMS ',
};

export function smsFields(names: SmsFieldNames): INodeProperties[] {
	return [
		{
			displayName: `${names.labelPrefix}Phone Number`,
			name: names.phoneNumber,
			type: 'string',
			required: true,
			default: '',
			placeholder: '+6281234567890',
			description: 'Recipient in E.164 format. SMS can only go to Indonesian numbers (+62) for now.',
		},
		{
			displayName: `${names.labelPrefix}Message`,
			name: names.message,
			type: 'string',
			required: true,
			default: '',
			typeOptions: { rows: 3 },
			description: 'Text of the SMS',
		},
	];
}

export function readSms(
	context: IExecuteFunctions,
	names: SmsFieldNames,
	itemIndex: number,
	phoneNumberFormat: PhoneNumberFormat,
) {
	return {
		phone_number: normalizePhoneNumber(
			readText(context, names.phoneNumber, itemIndex, { trim: true }),
			phoneNumberFormat,
		),
		message: readText(context, names.message, itemIndex),
	};
}

export function smsFieldLabel(path: IssuePath, names: SmsFieldNames): string {
	if (path[0] === 'phone_number') return `${names.labelPrefix}Phone Number`;
	if (path[0] === 'message') return `${names.labelPrefix}Message`;
	return names.labelPrefix ? 'SMS part' : 'SMS request';
}
