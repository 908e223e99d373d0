import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError, forErrorPanel, problemsOf } from '../helpers/errors';
import type { Outcome, RunCounts } from './summary';
import { ranges, runSummary } from './summary';

/**
 * The output of one execution and its error policy. One output item per input item, in input
 * order, each with pairedItem. A failed item becomes an error item when the node continues on
 * fail (or runs as an AI agent's tool, so the model reads the error and can correct itself);
 * otherwise the earliest failure ends the run, naming the items already sent.
 */

type NodeError = NodeApiError | NodeOperationError;

type ErrorStyle = 'throw' | 'item' | 'tool';

export class Outcomes {
	private readonly results: INodeExecutionData[];
	private readonly items: RunCounts['items'] = { sent: [], refused: [], skipped: [], dryRun: [] };
	private rateLimited: RunCounts['rateLimited'];
	private readonly smsSegments: NonNullable<RunCounts['smsSegments']> = { sent: 0, dryRun: 0 };
	private failure: NodeError | undefined;

	constructor(
		private readonly context: IExecuteFunctions,
		count: number,
		private readonly style: ErrorStyle,
		/** Turns an error into the JSON an AI agent's model reads (tool runs only). */
		private readonly toolResult?: (error: NodeError) => IDataObject,
	) {
		this.results = new Array<INodeExecutionData>(count);
	}

	/** An item that was sent, or is output without sending (dry run, skipped), and the SMS segments it sent or would send. */
	done(itemIndex: number, json: IDataObject, outcome: Exclude<Outcome, 'refused'>, smsSegments = 0): void {
		this.items[outcome].push(itemIndex);
		if (outcome === 'sent' || outcome === 'dryRun') this.smsSegments[outcome] += smsSegments;
		this.results[itemIndex] = { json, pairedItem: { item: itemIndex } };
	}

	/** Whether the item's message went out in this run. */
	wasSent(itemIndex: number): boolean {
		return this.items.sent.includes(itemIndex);
	}

	/** The output of an item whose message went out in this run. */
	sentItem(itemIndex: number): IDataObject | undefined {
		return this.wasSent(itemIndex) ? this.results[itemIndex]?.json : undefined;
	}

	/** How rate limits held this run back (the scheduler's count and longest wait). */
	noteRateLimits(times: number, longestWaitMs: number): void {
		if (times > 0) this.rateLimited = { times, longestWaitMs };
	}

	/** Records a failed item; says whether the run may go on. */
	fail(itemIndex: number, error: unknown): 'continue' | 'stop' {
		const nodeError = asNodeError(this.context.getNode(), error, itemIndex);
		if (this.style === 'throw') {
			if (this.failure === undefined || Number(this.failure.context.itemIndex) > itemIndex) this.failure = nodeError;
			return 'stop';
		}
		const json: IDataObject =
			this.style === 'tool' && this.toolResult
				? this.toolResult(nodeError)
				: {
						error: nodeError.message,
						...(nodeError.description ? { description: nodeError.description } : {}),
						...(nodeError instanceof NodeApiError && nodeError.httpCode ? { httpCode: nodeError.httpCode } : {}),
						...(problemsOf(nodeError).length > 1 ? { problems: problemsOf(nodeError).map((p) => `${p.field} ${p.rule}`) } : {}),
					};
		this.items.refused.push(itemIndex);
		this.results[itemIndex] = { json, pairedItem: { item: itemIndex } };
		return 'continue';
	}

	/** The output, or the earliest failure (requests in flight were allowed to finish first). */
	finish(): INodeExecutionData[][] {
		const failure = this.failure;
		if (failure === undefined) {
			// The run summary, where n8n shows execution hints (n8n 1.x and 2.x have them; guarded all the same).
			const hint = runSummary({ total: this.results.length, items: this.items, rateLimited: this.rateLimited, smsSegments: this.smsSegments });
			if (hint && typeof this.context.addExecutionHints === 'function') this.context.addExecutionHints(hint);
			return [this.results.filter((item) => item !== undefined)];
		}
		if (this.items.sent.length > 0) {
			failure.description = `${failure.description ?? ''}\nItems already sent in this run: ${ranges(this.items.sent)}. Do not send them again when you re-run (or set Options → Send Once Per Key).`.trim();
		}
		throw forErrorPanel(failure);
	}
}
