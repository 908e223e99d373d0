import type { INodeProperties } from 'n8n-workflow';

import type { SendOperation } from '../node.type';
import { operationProperty } from '../node.type';
import * as send from './send.operation';

export const operations: Record<'send', SendOperation> = { send };

export const description: INodeProperties[] = [
	operationProperty('sms', [send.option]),
	...send.description,
];
