import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Endpoint, ServiceResponse } from '../transport';

/** Resource → operation map; a misspelt operation fails to compile. */
export type NodeMap = {
	chatMessage: 'sendTemplate' | 'sendMedia' | 'sendAndWait';
	sms: 'send' | 'sendAndWait';
	combined: 'sendWithFailover' | 'sendAndWait';
};

export type Resource = keyof NodeMap;

/**
 * The Resource of the node's human-review tool for AI agents, which sends an SMS. n8n builds that
 * tool (`…HitlTool`) with Resource fixed to the first value the first Operation field offering
 * Send and Wait shows for: the registry puts an Operation field of this value first. The
 * Resource field never offers it (n8n's node creator sets a resource's first value, so it needs
 * an Operation field of its own), so that tool's panel can speak to the person building the
 * workflow and leave out the ordinary tool variant's model-facing Tool Description; at run time
 * it is SMS.
 */
export const HUMAN_REVIEW_RESOURCE = 'smsReview';

/** The resource the node's Resource parameter names; the human-review tool's is SMS. */
export const resourceOf = (value: string): string => (value === HUMAN_REVIEW_RESOURCE ? 'sms' : value);

/** The Resource values a resource's fields show for: SMS's also for the human-review tool. */
export const shownFor = (resource: Resource): string[] => (resource === 'sms' ? [resource, HUMAN_REVIEW_RESOURCE] : [resource]);

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
export function operationProperty(resource: Resource | typeof HUMAN_REVIEW_RESOURCE, options: OperationOption[]): INodeProperties {
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
