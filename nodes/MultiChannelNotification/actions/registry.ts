import type { INodeProperties } from 'n8n-workflow';

import * as chatMessage from './chatMessage';
import * as combined from './combined';
import type { NodeMap, Resource, SendOperation } from './node.type';
import * as sms from './sms';

/**
 * The typed operation registry: resource → operation → implementation. The router looks
 * operations up here, and the node's description and subtitle are derived from the same modules.
 */
export const registry: { [R in Resource]: { [O in NodeMap[R]]: SendOperation } } = {
	chatMessage: chatMessage.operations,
	sms: sms.operations,
	combined: combined.operations,
};

const resources: Array<{ resource: Resource; description: INodeProperties[] }> = [
	{ resource: 'chatMessage', description: chatMessage.description },
	{ resource: 'sms', description: sms.description },
	{ resource: 'combined', description: combined.description },
];

/** The implementation of a resource/operation pair read from the node's parameters. */
export function operationFor(resource: string, operation: string): SendOperation | undefined {
	if (!Object.hasOwn(registry, resource)) return undefined;
	const operations = registry[resource as Resource] as Record<string, SendOperation>;
	return Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}

/** Every resource's fields, in order. */
export const operationProperties: INodeProperties[] = resources.flatMap(({ description }) => description);

/** Operation value → display name, from each resource's Operation property. */
function operationNames(): Record<string, string> {
	const names: Record<string, string> = {};
	for (const property of operationProperties) {
		if (property.name !== 'operation') continue;
		for (const option of property.options ?? []) {
			if ('value' in option && typeof option.value === 'string') names[option.value] = option.name;
		}
	}
	return names;
}

/** The node's subtitle: the chosen operation's display name. */
export const subtitle = `={{ ${JSON.stringify(operationNames())}[$parameter["operation"]] }}`;
