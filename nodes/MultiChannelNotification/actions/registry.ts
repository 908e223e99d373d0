import type { INodeProperties } from 'n8n-workflow';

import * as sendMedia from './chatMessage/sendMedia.operation';
import * as sendTemplate from './chatMessage/sendTemplate.operation';
import * as sendWithFailover from './combined/sendWithFailover.operation';
import type { NodeMap, Resource, SendOperation } from './node.type';
import { operationProperty } from './node.type';
import * as send from './sms/send.operation';

/**
 * The typed operation registry: resource → operation → implementation. The router looks
 * operations up here, and the node's fields (each resource's Operation selector first) come from
 * the same modules, in this order.
 */
export const registry: { [R in Resource]: { [O in NodeMap[R]]: SendOperation } } = {
	chatMessage: { sendTemplate, sendMedia },
	sms: { send },
	combined: { sendWithFailover },
};

/** The implementation of a resource/operation pair read from the node's parameters. */
export function operationFor(resource: string, operation: string): SendOperation | undefined {
	if (!Object.hasOwn(registry, resource)) return undefined;
	const operations = registry[resource as Resource] as Record<string, SendOperation>;
	return Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}

export const operationProperties: INodeProperties[] = Object.entries(registry).flatMap(([resource, byName]) => {
	const operations: SendOperation[] = Object.values(byName);
	return [
		operationProperty(resource as Resource, operations.map(({ option }) => option)),
		...operations.flatMap(({ description }) => description),
	];
});
