import type { INodeProperties } from 'n8n-workflow';

import type { SendOperation } from '../node.type';
import * as sendWithFailover from './sendWithFailover.operation';

export const operations: Record<'sendWithFailover', SendOperation> = { sendWithFailover };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['combined'] } },
		options: [
			{
				name: 'Send with Failover',
				value: 'sendWithFailover',
				description: 'Send a chat template message with an SMS as failover, in one request',
				action: 'Send a notification with failover',
			},
		],
		default: 'sendWithFailover',
	},
	...sendWithFailover.description,
];
