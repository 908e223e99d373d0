import type { INodeProperties } from 'n8n-workflow';

import type { SendOperation } from '../node.type';
import { operationProperty } from '../node.type';
import * as sendWithFailover from './sendWithFailover.operation';

export const operations: Record<'sendWithFailover', SendOperation> = { sendWithFailover };

export const description: INodeProperties[] = [
	operationProperty('combined', [sendWithFailover.option]),
	...sendWithFailover.description,
];
