import type { INodeProperties } from 'n8n-workflow';

import type { FieldLabel } from '../schemas';
import { PHONE_PLACEHOLDER, SMS_PHONE_HINT } from './phoneText';

/**
 * The SMS fields: Phone Number and Message, named `phoneNumber` and `message` in every operation
 * that sends an SMS (actions/read/sms.ts reads them by these names).
 */
export function smsFields(
	labels: { phoneNumber: FieldLabel; message: FieldLabel },
	phoneNumberDescription: string,
): INodeProperties[] {
	return [
		{
			displayName: labels.phoneNumber.label,
			name: 'phoneNumber',
			type: 'string',
			required: true,
			default: '',
			placeholder: PHONE_PLACEHOLDER,
			hint: SMS_PHONE_HINT,
			description: phoneNumberDescription,
		},
		{
			displayName: labels.message.label,
			name: 'message',
			type: 'string',
			required: true,
			default: '',
			typeOptions: { rows: 3 },
			description: 'Text of the SMS',
		},
	];
}
