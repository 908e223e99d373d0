import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { getConnection, sendRequest } from '../transport';
import * as chatMessage from './chatMessage';
import * as combined from './combined';
import type { NodeMap, PreparedSend, Resource, SendOperation } from './node.type';
import * as sms from './sms';

const operationsByResource: { [R in Resource]: Record<NodeMap[R], SendOperation> } = {
	chatMessage: chatMessage.operations,
	sms: sms.operations,
	combined: combined.operations,
};

function errorJson(error: unknown): IDataObject {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		return {
			error: error.message,
			...(error.description ? { description: error.description } : {}),
			...(error instanceof NodeApiError && error.httpCode ? { httpCode: error.httpCode } : {}),
		};
	}
	return { error: error instanceof Error ? error.message : String(error) };
}

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof Error && error.name === 'ExpressionError') return error;
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/**
 * Runs one operation over all input items in two passes: first every item is read and
 * validated, then the valid ones are sent. Without "Continue On Fail", one invalid item stops
 * the run before anything is sent, so fixing it and running again cannot send a message twice.
 * Output has one item per input item, in input order, each with its pairedItem.
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
	const results: INodeExecutionData[] = new Array<INodeExecutionData>(items.length);
	const prepared: Array<PreparedSend | undefined> = new Array<PreparedSend | undefined>(items.length);

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			prepared[itemIndex] = operation.prepare.call(this, itemIndex);
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this, error, itemIndex);
			results[itemIndex] = { json: errorJson(error), pairedItem: { item: itemIndex } };
		}
	}

	if (prepared.some((request) => request !== undefined)) {
		const connection = await getConnection.call(this);
		let sent = 0;
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			const request = prepared[itemIndex];
			if (request === undefined) continue;
			try {
				const response = await sendRequest.call(this, connection, request.endpoint, request.body, {
					itemIndex,
				});
				sent++;
				results[itemIndex] = {
					json: operation.output ? operation.output(response, request) : { ...response },
					pairedItem: { item: itemIndex },
				};
			} catch (error) {
				if (!continueOnFail) {
					const nodeError = asNodeError(this, error, itemIndex);
					if (sent > 0 && (nodeError instanceof NodeApiError || nodeError instanceof NodeOperationError)) {
						nodeError.description = `${nodeError.description ?? ''}\n${sent} earlier item${
							sent === 1 ? ' was' : 's were'
						} already sent in this run; to avoid sending them twice, re-run only the items from item ${itemIndex} on.`.trim();
					}
					throw nodeError;
				}
				results[itemIndex] = { json: errorJson(error), pairedItem: { item: itemIndex } };
			}
		}
	}

	return [results];
}
