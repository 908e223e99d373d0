import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { deliveryOf, serviceError } from '../helpers/errors';
import type { PreparedSend } from './operation';

/**
 * n8n's Retry On Fail runs the whole node again on the same input items when it fails (or, with
 * Continue On Fail, when the first output item is an error): every item the failed try
 * delivered, or may have delivered (5xx, timeout, dropped connection), would go out again. So
 * each try's outcome per item is remembered: the next try outputs a delivered item as it was and
 * does not resend one that may have been delivered; an item certainly not delivered (its error's
 * delivery fact) is sent again, which is what Retry On Fail is for. The memory is keyed by the
 * input array n8n hands every try of one node run: it lives as long as the execution's data, and
 * a later run of the node (a loop) starts clean.
 */

type Remembered = { kind: 'delivered'; json: IDataObject } | { kind: 'uncertain'; error: NodeApiError };

interface Tries {
	recall(itemIndex: number, request: PreparedSend): Remembered | undefined;
	remember(itemIndex: number, request: PreparedSend, outcome: Remembered): void;
}

const byInput = new WeakMap<INodeExecutionData[], Map<string, Remembered>>();

/** Whether an error is one that says the message may already have gone out. */
export function mayHaveBeenDelivered(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError && deliveryOf(error) === 'maybe';
}

/** The memory of this node run's tries, or undefined when Retry On Fail is off. */
export function triesOf(context: IExecuteFunctions): Tries | undefined {
	if (context.getNode().retryOnFail !== true) return undefined;
	const input = context.getInputData();
	const memory = byInput.get(input) ?? new Map<string, Remembered>();
	byInput.set(input, memory);
	// The request as well as the index: a parameter that reads something that changed between
	// tries (a date, a random value) makes a different message, which is sent.
	const keyOf = (itemIndex: number, request: PreparedSend) =>
		`${itemIndex}\u0000${request.endpoint}\u0000${JSON.stringify(request.body)}`;
	return {
		recall: (itemIndex, request) => memory.get(keyOf(itemIndex, request)),
		remember: (itemIndex, request, outcome) => memory.set(keyOf(itemIndex, request), outcome),
	};
}

/** The error of an item that an earlier try may have delivered: not sent again. */
export function notResentError(context: IExecuteFunctions, itemIndex: number, earlier: NodeApiError): NodeApiError {
	return serviceError(context.getNode(), {
		itemIndex,
		...(earlier.httpCode ? { httpCode: Number(earlier.httpCode) } : {}),
		cause: earlier.message,
		delivery: 'maybe',
		title: earlier.message,
		description: `${earlier.description ?? ''}\nRetry On Fail did not send this item again: an earlier try may have delivered it.`.trim(),
	});
}
