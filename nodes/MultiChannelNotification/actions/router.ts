import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { deliver, readItem } from '../delivery/delivery';
import type { OperationRun, Ready } from '../delivery/operation';
import { Outcomes } from '../delivery/outcomes';
import { isToolRun, toolResultForError } from '../delivery/toolResult';
import { otherError } from '../helpers/errors';
import { CUSTOM_API_CALL, CUSTOM_API_CALL_MESSAGE, resourceOf } from '../helpers/resource';
import { operationFor } from './registry';

/**
 * The ordinary run, in two passes: first every item is read and checked (options included), so
 * without Continue On Fail one invalid item stops the run before anything is sent and a re-run
 * after the fix cannot send twice; then the valid items are delivered.
 */
const readThenDeliver: OperationRun = async function (operation, outcomes) {
	const ready: Ready[] = [];
	const count = this.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			ready.push(readItem(this, operation, itemIndex));
		} catch (error) {
			if (outcomes.fail(itemIndex, error) === 'stop') return outcomes.finish();
		}
	}
	if (ready.length > 0) await deliver.call(this, operation, ready, outcomes);
	return outcomes.finish();
};

/**
 * Runs the chosen operation over all input items, its own way or the ordinary one. One output
 * item per input item, in input order, each with pairedItem.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resourceName = this.getNodeParameter('resource', 0) as string;
	// With Custom API Call as the Resource, n8n shows no Operation field: it is not read.
	if (resourceName === CUSTOM_API_CALL || this.getNodeParameter('operation', 0) === CUSTOM_API_CALL) {
		throw new NodeOperationError(this.getNode(), CUSTOM_API_CALL_MESSAGE, { description: `${CUSTOM_API_CALL_MESSAGE}. Nothing was sent.` });
	}
	const resource = resourceOf(resourceName);
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operationFor(resource, operationName);
	if (!operation) {
		throw otherError(this.getNode(), new Error(`The operation "${operationName}" of "${resource}" is not supported`));
	}
	const items = this.getInputData();
	// As an AI agent's tool, a refused or failed item is the tool's result: the model reads
	// every problem, named by its argument, and can try again; the agent run goes on.
	const tool = isToolRun(this);
	const outcomes = new Outcomes(this, items.length, tool ? 'tool' : this.continueOnFail() ? 'item' : 'throw', (error) =>
		toolResultForError(error, this.getNode().parameters),
	);
	return await (operation.run ?? readThenDeliver).call(this, operation, outcomes);
}
