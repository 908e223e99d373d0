import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Endpoint, ServiceResponse } from '../transport';

/** Resource → operation map; a misspelt operation fails to compile. */
export type NodeMap = {
	chatMessage: 'sendTemplate' | 'sendMedia' | 'sendAndWait';
	sms: 'send' | 'sendAndWait';
	combined: 'sendWithFailover' | 'sendAndWait';
};

export type Resource = keyof NodeMap;

/** A validated request, ready to send. */
export interface PreparedSend {
	endpoint: Endpoint;
	body: IDataObject;
	/** Added to the output item next to the service's answer (numbers used, preview). */
	extras: IDataObject;
}

/**
 * One operation: its fields, how it turns one item into a validated request (throwing a
 * NodeOperationError naming the field when the item is invalid), and what its output adds to
 * the service's answer. Sending is the router's job, so every item is checked before the first
 * request goes out.
 */
export interface SendOperation {
	/** How the editor lists it; an AI agent's tool is described by its action. */
	option: OperationOption;
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedSend;
	/** Fields derived from the service's answer, added to the output item. */
	output?(response: ServiceResponse): IDataObject;
}

/** One operation as the editor lists it. */
export interface OperationOption extends INodePropertyOptions {
	value: string;
	action: string;
}

/** A resource's Operation property, the first operation the default (n8n's lint wants a literal default first). */
export function operationProperty(resource: Resource, options: OperationOption[]): INodeProperties {
	const property: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: '',
	};
	return { ...property, default: options[0].value };
}
