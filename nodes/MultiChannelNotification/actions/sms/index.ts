import type { INodeProperties } from 'n8n-workflow';

import type { SendOperation } from '../node.type';
import * as send from './send.operation';

export const operations: Record<'send', SendOperation> = { send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['sms'] } },
		options: [
			{
				name: 'Send SMS',
				value: 'send',
				description: 'Send an SMS to an Indonesian (+62) number',
				action: 'Send an SMS',
			},
		],
		default: 'send',
	},
	...send.description,
];
