import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readText } from '../../helpers/parameters';
import type { PhoneNumberFormat } from '../../helpers/phoneNumber';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';
import type { FieldLabel } from '../../schemas';
import { PHONE_PLACEHOLDER, SMS_PHONE_HINT } from './phoneText';

/**
 * The SMS fields, declared once: SMS → Send names them `phoneNumber`/`message`, Send with
 * Failover `smsPhoneNumber`/`smsMessage` for its SMS part (whose number defaults to To).
 */
interface SmsFieldNames {
	phoneNumber: string;
	message: string;
}

export function smsFields(
	names: SmsFieldNames,
	labels: { phoneNumber: FieldLabel; message: FieldLabel },
	phoneNumberDescription: string,
): INodeProperties[] {
	return [
		{
			displayName: labels.phoneNumber.label,
			name: names.phoneNumber,
			type: 'string',
			required: true,
			default: '',
			placeholder: PHONE_PLACEHOLDER,
			hint: SMS_PHONE_HINT,
			description: phoneNumberDescription,
		},
		{
			displayName: labels.message.label,
			name: names.message,
			type: 'string',
			required: true,
			default: '',
			typeOptions: { rows: 3 },
			description: 'Text of the SMS',
		},
	];
}

/** The SMS fields of the item as the schema takes them, keyed by node parameter. */
export function readSms(
	context: IExecuteFunctions,
	names: SmsFieldNames,
	itemIndex: number,
	phoneNumberFormat: PhoneNumberFormat,
): Record<string, unknown> {
	return {
		[names.phoneNumber]: normalizePhoneNumber(
			readText(context, names.phoneNumber, itemIndex, { trim: true }),
			phoneNumberFormat,
		),
		[names.message]: readText(context, names.message, itemIndex),
	};
}
