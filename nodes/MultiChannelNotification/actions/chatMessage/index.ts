import type { INodeProperties } from 'n8n-workflow';

import type { SendOperation } from '../node.type';
import { operationProperty } from '../node.type';
import * as sendMedia from './sendMedia.operation';
import * as sendTemplate from './sendTemplate.operation';

export const operations: Record<'sendTemplate' | 'sendMedia', SendOperation> = { sendTemplate, sendMedia };

export const description: INodeProperties[] = [
	operationProperty('chatMessage', [sendTemplate.option, sendMedia.option]),
	...sendTemplate.description, ...sendMedia.description,
];
