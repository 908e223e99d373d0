import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { parseOrThrow } from '../../helpers/validation';
import { templateMessageSchema } from '../../schemas';
import { ENDPOINTS } from '../../transport';
import type { PreparedSend } from '../node.type';
import { optionsField, readPhoneNumberFormat } from '../shared/options';
import {
	readTemplateMessage,
	templateFieldLabel,
	templateFields,
	templatePreview,
} from '../shared/template';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['chatMessage'], operation: ['sendTemplate'] } },
	[...templateFields, optionsField],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedSend {
	const phoneNumberFormat = readPhoneNumberFormat(this, itemIndex);
	const { message, mode } = readTemplateMessage(this, itemIndex, phoneNumberFormat);
	const body = parseOrThrow(this.getNode(), templateMessageSchema, message, itemIndex, (path, issue) =>
		templateFieldLabel(path, issue, message, mode),
	);
	const preview = templatePreview(this, itemIndex, body, mode);
	return {
		endpoint: ENDPOINTS.chatMessage,
		body,
		extras: { from: body.from, to: body.to, ...(preview === undefined ? {} : { preview }) },
	};
}
