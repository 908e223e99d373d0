import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { parseOrThrow } from '../../helpers/validation';
import { combinedRequestSchema } from '../../schemas';
import type { ServiceResponse } from '../../transport';
import { ENDPOINTS } from '../../transport';
import type { PreparedSend } from '../node.type';
import { optionsField, readPhoneNumberFormat } from '../shared/options';
import { FAILOVER_SMS_FIELDS, readSms, smsFieldLabel, smsFields } from '../shared/sms';
import {
	readTemplateMessage,
	templateFieldLabel,
	templateFields,
	templatePreview,
} from '../shared/template';

const fields: INodeProperties[] = [
	{
		displayName:
			'The service sends the chat template message and falls back to the SMS below according to its failover order. Both parts are checked before anything is sent.',
		name: 'failoverNotice',
		type: 'notice',
		default: '',
	},
	...templateFields,
	...smsFields(FAILOVER_SMS_FIELDS),
	optionsField,
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['combined'], operation: ['sendWithFailover'] } },
	fields,
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedSend {
	const phoneNumberFormat = readPhoneNumberFormat(this, itemIndex);
	const { message: chat, mode } = readTemplateMessage(this, itemIndex, phoneNumberFormat);
	const candidate = {
		chat,
		sms: readSms(this, FAILOVER_SMS_FIELDS, itemIndex, phoneNumberFormat),
	};
	const body = parseOrThrow(this.getNode(), combinedRequestSchema, candidate, itemIndex, (path, issue) => {
		const [part, ...rest] = path;
		if (part === 'chat') return templateFieldLabel(rest, issue, chat, mode);
		if (part === 'sms') return smsFieldLabel(rest, FAILOVER_SMS_FIELDS);
		return 'Combined request';
	});
	const preview = templatePreview(this, itemIndex, body.chat, mode);
	return {
		endpoint: ENDPOINTS.combined,
		body,
		extras: {
			from: body.chat.from,
			to: body.chat.to,
			smsPhoneNumber: body.sms.phone_number,
			...(preview === undefined ? {} : { preview }),
		},
	};
}

/** Lifts each channel's status to the top of the item, next to the service's answer. */
export function output(response: ServiceResponse): IDataObject {
	const result = (response.data.result ?? {}) as { chat?: { status?: unknown }; sms?: { status?: unknown } };
	return {
		chatStatus: result.chat?.status ?? null,
		smsStatus: result.sms?.status ?? null,
	};
}
