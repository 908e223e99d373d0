import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { ServiceConnection } from '../transport';
import { getConnection, sendRequest } from '../transport';
import * as chatMessage from './chatMessage';
import * as combined from './combined';
import type { NodeMap, PreparedSend, Resource, SendOperation } from './node.type';
import type { ItemOptions } from './shared/options';
import { readItemOptions, readPacing } from './shared/options';
import * as sms from './sms';

const operationsByResource: { [R in Resource]: Record<NodeMap[R], SendOperation> } = {
	chatMessage: chatMessage.operations,
	sms: sms.operations,
	combined: combined.operations,
};

type NodeError = NodeApiError | NodeOperationError;

/** The output item of a failed item under Continue On Fail. */
function errorItem(error: NodeError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = {
		error: error.message,
		...(error.description ? { description: error.description } : {}),
		...(error instanceof NodeApiError && error.httpCode ? { httpCode: error.httpCode } : {}),
	};
	return { json, pairedItem: { item: itemIndex } };
}

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/** "0–4, 7, 9–10": a short list of item indexes for error descriptions. */
function ranges(indexes: number[]): string {
	const sorted = [...indexes].sort((a, b) => a - b);
	const parts: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		parts.push(start === end ? `${sorted[start]}` : `${sorted[start]}–${sorted[end]}`);
		start = end + 1;
	}
	return parts.join(', ');
}

/**
 * Runs one operation over all input items in two passes. First every item is read and
 * validated; without "Continue On Fail", one invalid item stops the run before anything is
 * sent, so fixing it and running again cannot send a message twice. Then the valid items are
 * sent, `concurrency` at a time (optionally in batches with a pause between them). The output
 * has one item per input item, in input order whatever the concurrency, each with pairedItem.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as Resource;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = (operationsByResource[resource] as Record<string, SendOperation> | undefined)?.[
		operationName
	];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);
	}

	const continueOnFail = this.continueOnFail();
	const results = new Array<INodeExecutionData>(items.length);
	const pending: Array<{ itemIndex: number; request: PreparedSend; options: ItemOptions }> = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const options = readItemOptions(this, itemIndex);
			pending.push({ itemIndex, request: operation.prepare.call(this, itemIndex), options });
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			results[itemIndex] = errorItem(nodeError, itemIndex);
		}
	}
	if (pending.length === 0) return [results];

	let connection: ServiceConnection;
	try {
		connection = await getConnection.call(this);
	} catch (error) {
		// A credential problem concerns every item still to send; with Continue On Fail each of
		// them says so, instead of n8n passing the input through as if it had been sent.
		const nodeError = asNodeError(this, error, pending[0].itemIndex);
		if (!continueOnFail) throw nodeError;
		for (const { itemIndex } of pending) {
			results[itemIndex] = errorItem(nodeError, itemIndex);
		}
		return [results];
	}
	const { concurrency, batchInterval } = readPacing(this);
	const sent: number[] = [];
	let failure: NodeError | undefined;

	const sendOne = async ({ itemIndex, request, options }: (typeof pending)[number]): Promise<void> => {
		try {
			const response = await sendRequest.call(this, connection, request.endpoint, request.body, {
				itemIndex,
				timeout: options.timeout,
				rateLimitRetries: options.rateLimitRetries,
			});
			sent.push(itemIndex);
			results[itemIndex] = {
				json: { ...response, ...request.extras, ...(operation.output?.(response) ?? {}) },
				pairedItem: { item: itemIndex },
			};
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (continueOnFail) {
				results[itemIndex] = errorItem(nodeError, itemIndex);
			} else if (failure === undefined || Number(failure.context.itemIndex) > itemIndex) {
				failure = nodeError;
			}
		}
	};

	if (batchInterval > 0) {
		for (let start = 0; start < pending.length && failure === undefined; start += concurrency) {
			if (start > 0) await sleep(batchInterval);
			await Promise.all(pending.slice(start, start + concurrency).map(sendOne));
		}
	} else {
		let next = 0;
		const worker = async () => {
			while (next < pending.length && failure === undefined) await sendOne(pending[next++]);
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
	}

	if (failure !== undefined) {
		// Requests already in flight were allowed to finish, so this list is complete.
		if (sent.length > 0) {
			failure.description = `${failure.description ?? ''}\nItems already sent in this run: ${ranges(sent)}. Do not send them again when you re-run.`.trim();
		}
		throw failure;
	}
	return [results];
}
