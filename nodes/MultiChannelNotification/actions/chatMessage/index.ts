import type { INodeProperties } from 'n8n-workflow';

import type { SendOperation } from '../node.type';
import * as sendMedia from './sendMedia.operation';
import * as sendTemplate from './sendTemplate.operation';

export const operations: Record<'sendTemplate' | 'sendMedia', SendOperation> = { sendTemplate, sendMedia };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['chatMessage'] } },
		options: [
			{
				name: 'Send Template',
				value: 'sendTemplate',
				description: 'Send an approved template message, with body parameters, header image and buttons',
				action: 'Send a template message',
			},
			{
				name: 'Send Media',
				value: 'sendMedia',
				description: 'Send an image, video, audio or document to a user who has started the chat',
				action: 'Send a media message',
			},
		],
		default: 'sendTemplate',
	},
	...sendTemplate.description,
	...sendMedia.description,
];
