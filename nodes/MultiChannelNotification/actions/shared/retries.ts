import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { deliveryOf, nodeOf, serviceError } from '../../helpers/errors';
import type { PreparedSend } from '../node.type';

/**
 * n8n's node setting Retry On Fail runs the whole node again, on the same input items, when it
 * fails (or, with Continue On Fail, when the first output item is an error). Left alone, every
 * item delivered by the failed try would go out again, and so would an item whose send may have
 * gone out (5xx, timeout, dropped connection). With Retry On Fail on, the node remembers what
 * each try did with each item: the next try outputs a delivered item as it was, without sending,
 * and does not send again an item that may have been delivered (its error says so). An item that
 * was certainly not delivered — a 429 past Rate Limit Max Wait, no connection, any other refusal
 * (its error's delivery fact, helpers/errors.ts) — is sent again: that is what Retry On Fail is for.
 *
 * The memory belongs to the input items: n8n hands every try of one node run the very same input
 * array, so a WeakMap keyed by it lives exactly as long as the execution's data, and a later run
 * of the node (a loop) gets new items and a clean slate.
 */

export type Remembered = { kind: 'delivered'; json: IDataObject } | { kind: 'uncertain'; error: NodeApiError };

export interface Tries {
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
	if (nodeOf(context).retryOnFail !== true) return undefined;
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
	return serviceError(nodeOf(context), {
		itemIndex,
		...(earlier.httpCode ? { httpCode: Number(earlier.httpCode) } : {}),
		cause: earlier.message,
		delivery: 'maybe',
		title: earlier.message,
		description: `${earlier.description ?? ''}\nRetry On Fail did not send this item again: an earlier try may have delivered it.`.trim(),
	});
}
