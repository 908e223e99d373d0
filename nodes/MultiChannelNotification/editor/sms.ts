import type { INodeProperties } from 'n8n-workflow';

import type { FieldLabel } from '../schemas';
import { PHONE_PLACEHOLDER, SMS_PHONE_HINT } from './phoneText';

export function smsFields(
	names: { phoneNumber: string; message: string },
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
