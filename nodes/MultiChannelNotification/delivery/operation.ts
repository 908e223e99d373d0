import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Endpoint, ServiceResponse } from '../transport';
import type { ItemOptions } from './options';
import type { Outcomes } from './outcomes';

/** A validated request, ready to send. */
export interface PreparedSend {
	endpoint: Endpoint;
	body: IDataObject;
	/** Added to the output item next to the service's answer (numbers used, preview). */
	extras: IDataObject;
	/** The segments of the SMS the request carries, for the run summary; undefined when it carries none. */
	smsSegments?: number;
}

/**
 * One operation: its fields, what an AI model is told about it, how it turns one item into a
 * validated request (throwing a NodeOperationError naming the field when the item is invalid),
 * and what its output adds to the service's answer, and, when it does not run the ordinary way,
 * how it runs. Sending is the delivery engine's job, so every item is checked before the first
 * request goes out.
 */
export interface SendOperation {
	/** How the editor lists it; an AI agent's tool is described by its action. */
	option: OperationOption;
	description: INodeProperties[];
	/**
	 * What an AI model is told about the operation as its tool: what one call does and the rules
	 * its arguments must follow. Under 1024 characters, the shortest limit among model providers.
	 */
	toolDescription: string;
	/** The item's Options were read once, before (delivery/options.ts): `options` holds them. */
	prepare(this: IExecuteFunctions, itemIndex: number, options: ItemOptions): PreparedSend;
	/** Fields derived from the service's answer, added to the output item. */
	output?(response: ServiceResponse): IDataObject;
	/**
	 * How the operation runs over the input items, when not the ordinary way (every item read and
	 * checked, then the valid ones delivered): Send and Wait sends one message, then waits.
	 */
	run?: OperationRun;
}

/** Runs an operation over the node's input items; one output item per input item, each in `outcomes`. */
export type OperationRun = (this: IExecuteFunctions, operation: SendOperation, outcomes: Outcomes) => Promise<INodeExecutionData[][]>;

/** One operation as the editor lists it. */
export interface OperationOption extends INodePropertyOptions {
	value: string;
	action: string;
}

/** A valid item, ready to go out. */
export interface Ready {
	itemIndex: number;
	request: PreparedSend;
	options: ItemOptions;
}
