import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { parseOrThrow } from '../../helpers/validation';
import { smsRequestSchema } from '../../schemas';
import { ENDPOINTS } from '../../transport';
import type { PreparedSend } from '../node.type';
import { optionsField, readPhoneNumberFormat } from '../shared/options';
import { readSms, SMS_FIELDS, smsFieldLabel, smsFields } from '../shared/sms';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['sms'], operation: ['send'] } },
	[...smsFields(SMS_FIELDS), optionsField],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedSend {
	const phoneNumberFormat = readPhoneNumberFormat(this, itemIndex);
	const candidate = readSms(this, SMS_FIELDS, itemIndex, phoneNumberFormat);
	const body = parseOrThrow(this.getNode(), smsRequestSchema, candidate, itemIndex, (path) =>
		smsFieldLabel(path, SMS_FIELDS),
	);
	return {
		endpoint: ENDPOINTS.sms,
		body,
		extras: { phoneNumber: body.phone_number },
	};
}
