import type { IExecuteFunctions, INodeExecutionData, ITaskMetadata } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { deliver, readItem } from '../delivery/delivery';
import type { OperationRun, SendOperation } from '../delivery/operation';
import type { Outcomes } from '../delivery/outcomes';
import type { Problem } from '../helpers/errors';
import { judge } from '../helpers/validation';
import { WAIT_LIMIT_LABELS, waitLimitSchema } from '../schemas/waitLimit.schema';
import { readFormParameters } from './form';
import { answerLink, questionNonce } from './link';
import type { Channel } from './question';
import { questionOf, rememberQuestion } from './question';

/**
 * Until when the execution waits (Options → Limit Wait Time, or indefinitely), and every problem
 * of the answer's setup: a bad limit, or a Custom Form nobody could fill in. Read before anything
 * is sent, so a message never goes out without a waiting execution that can take its answer.
 */
export function readWait(context: IExecuteFunctions, itemIndex: number, now = Date.now()): { waitTill: Date; problems: Problem[] } {
	const problems =
		context.getNodeParameter('responseType', itemIndex, 'approval') === 'customForm'
			? readFormParameters((name, fallback) => context.getNodeParameter(name, itemIndex, fallback)).problems
			: [];
	const limit = context.getNodeParameter('options.limitWaitTime.values', itemIndex, {}) as Record<string, unknown>;
	if (Object.keys(limit).length === 0) return { waitTill: WAIT_INDEFINITELY, problems };
	const verdict = judge(waitLimitSchema(limit.limitType, now), { limitWaitTime: limit }, WAIT_LIMIT_LABELS);
	if ('data' in verdict) return { waitTill: verdict.data, problems };
	return { waitTill: WAIT_INDEFINITELY, problems: [...problems, ...verdict.problems] };
}

/**
 * Send and Wait for Response, as n8n's own nodes do it: one message for the execution (from the
 * first item; `channel` as the operation names it), then the execution waits for the answer that
 * comes through the node's webhook (webhook.ts). Nothing waits unless the message was sent: an
 * invalid item, a Dry Run or a failed send ends here like any other send, with nothing waiting.
 */
async function sendAndWait(
	this: IExecuteFunctions,
	channel: Channel,
	operation: SendOperation,
	outcomes: Outcomes,
): Promise<INodeExecutionData[][]> {
	const itemIndex = 0;
	let waitTill: Date;
	try {
		const wait = readWait(this, itemIndex);
		waitTill = wait.waitTill;
		const ready = readItem(this, operation, itemIndex, wait.problems);
		await deliver.call(this, operation, [ready], outcomes);
		if (ready.options.dryRun) return outcomes.finish();
	} catch (error) {
		outcomes.fail(itemIndex, error);
		return outcomes.finish();
	}
	const sent = outcomes.sentItem(itemIndex);
	if (sent === undefined) return outcomes.finish();
	// Who was asked and by which message, for the answer's output, and the value in its link,
	// so that only this question's link answers (question.ts).
	rememberQuestion(this, questionOf(channel, sent), questionNonce(this));
	// n8n 2.8–2.13 check the link's signature only when asked to; 2.14 and newer always do.
	if (typeof this.setSignatureValidationRequired === 'function') this.setSignatureValidationRequired();
	// Newer n8n (2.41) hands a waiting task's resumeUrl to the editor's waiting tooltip (editor/waiting.ts).
	const metadata: ITaskMetadata & { resumeUrl: string } = { resumeUrl: answerLink(this) };
	if (typeof this.setMetadata === 'function') this.setMetadata(metadata);
	await this.putExecutionToWait(waitTill);
	return [this.getInputData()];
}

/** How a Send and Wait operation runs: its message sent over `channel`, then the wait for the answer. */
export function waitForAnswer(channel: Channel): OperationRun {
	return async function (operation, outcomes) {
		return await sendAndWait.call(this, channel, operation, outcomes);
	};
}
