import type { INodeProperties } from 'n8n-workflow';

import type { SendOperation } from '../delivery/operation';
import { operationProperty } from '../editor/operationField';
import { HUMAN_REVIEW_RESOURCE } from '../helpers/resource';
import * as sendMedia from './chatMessage/sendMedia.operation';
import * as sendTemplate from './chatMessage/sendTemplate.operation';
import * as chatSendAndWait from './chatMessage/sendTemplateAndWait.operation';
import * as sendWithFailover from './combined/sendWithFailover.operation';
import * as combinedSendAndWait from './combined/sendWithFailoverAndWait.operation';
import * as send from './sms/send.operation';
import * as smsSendAndWait from './sms/sendSmsAndWait.operation';

/**
 * The operation registry, resource → operation → implementation: the only list of operations.
 * The router looks operations up here; the node's fields (each resource's Operation selector
 * first) and its AI tool's descriptions come from the same modules, in this order, after the
 * human-review tool's Operation field (an SMS: it needs only a number and the message the agent
 * writes).
 */
export const registry = {
	sms: { send, sendAndWait: smsSendAndWait },
	chatMessage: { sendTemplate, sendMedia, sendAndWait: chatSendAndWait },
	combined: { sendWithFailover, sendAndWait: combinedSendAndWait },
} satisfies Record<string, Record<string, SendOperation>>;

/** Resource → the names of its operations, as the registry lists them. */
type NodeMap = { [R in keyof typeof registry]: keyof (typeof registry)[R] };
type Resource = keyof NodeMap;

/** Each resource by the name the Resource field gives it, in the field's order (Chat Message first, its default). */
export const RESOURCE_NAMES: { [R in Resource]: string } = {
	chatMessage: 'Chat Message',
	sms: 'SMS',
	combined: 'Combined Notification',
};

/** The node's Resource field: the registry's resources. */
export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: Object.entries(RESOURCE_NAMES).map(([value, name]) => ({ name, value })),
	// A literal: n8n's lint (node-param-default-missing) reads only a literal as a default. A test keeps it the first resource.
	default: 'chatMessage',
};

/** The implementation of a resource/operation pair read from the node's parameters. */
export function operationFor(resource: string, operation: string): SendOperation | undefined {
	if (!Object.hasOwn(registry, resource)) return undefined;
	const operations = registry[resource as Resource] as Record<string, SendOperation>;
	return Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}

export const operationProperties: INodeProperties[] = [
	// First: n8n fixes its human-review tool's Resource from the first Operation field offering Send and Wait (helpers/resource.ts).
	operationProperty(HUMAN_REVIEW_RESOURCE, [smsSendAndWait.option]),
	...Object.entries(registry).flatMap(([resource, byName]) => {
		const operations: SendOperation[] = Object.values(byName);
		return [
			operationProperty(resource as Resource, operations.map(({ option }) => option)),
			...operations.flatMap(({ description }) => description),
		];
	}),
];

