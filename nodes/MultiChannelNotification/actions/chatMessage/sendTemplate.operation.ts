import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { parseOrThrow } from '../../helpers/validation';
import { templateMessageSchema } from '../../schemas';
import { ENDPOINTS } from '../../transport';
import type { PreparedSend } from '../node.type';
import { readTemplateMessage, templateFieldLabel, templateFields } from '../shared/template';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['chatMessage'], operation: ['sendTemplate'] } },
	templateFields,
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedSend {
	const { message, mode } = readTemplateMessage(this, itemIndex);
	const body = parseOrThrow(this.getNode(), templateMessageSchema, message, itemIndex, (path, issue) =>
		templateFieldLabel(path, issue, message, mode),
	);
	return { endpoint: ENDPOINTS.chatMessage, body };
}
