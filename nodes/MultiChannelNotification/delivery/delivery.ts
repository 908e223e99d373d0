import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';
import { asNodeError, inputError, pausedError, problemsOf } from '../helpers/errors';
import type { ServiceConnection } from '../transport';
import { getConnection, makeClient, sendOnce } from '../transport';
import { MASK } from '../transport/secrets';
import type { PreparedSend, Ready, SendOperation } from './operation';
import { readOptions } from './options';
import type { Outcomes } from './outcomes';
import { paces } from './pace';
import { mayHaveBeenDelivered, notResentError, triesOf } from './retries';
import type { Attempt, Clock } from './scheduler';
import { retryAfterMs, schedule } from './scheduler';
import { releaseKeys, sendOncePerKey } from './sendOnce';

/**
 * Reads and checks one item: its Options (read once, then handed to the operation) and its
 * request (the operation checks everything it sends, an SMS's segments included). One error lists every problem of the item, `earlier` ones
 * first (those its caller found, e.g. in how an answer is awaited); with refused Options the
 * request is still checked, on their defaults, so its problems are listed too.
 */
export function readItem(context: IExecuteFunctions, operation: SendOperation, itemIndex: number, earlier: Problem[] = []): Ready {
	const problems: Problem[] = [...earlier];
	const { options, problems: refused } = readOptions(context, itemIndex);
	problems.push(...refused);
	let request: PreparedSend | undefined;
	try {
		request = operation.prepare.call(context, itemIndex, options);
	} catch (error) {
		if (problemsOf(error).length === 0) throw asNodeError(context.getNode(), error, itemIndex);
		problems.push(...problemsOf(error));
	}
	if (request === undefined || problems.length > 0) throw inputError(context.getNode(), itemIndex, problems);
	return { itemIndex, options, request };
}

/**
 * Whole milliseconds on a clock that only moves forward (the wall clock can be stepped back or
 * ahead by the host's time keeping): a Retry-After wait is then never cut short, nor stretched.
 * Whole milliseconds, as the wall clock gives them: the pace's rules are tuned to whole ones.
 */
const realClock: Clock = { now: () => Math.floor(performance.timeOrigin + performance.now()), sleep: async (ms) => await sleep(ms) };

/** What a dry run shows: the request as it would go out, the key masked. */
function dryRunItem(connection: ServiceConnection, { request }: Ready): IDataObject {
	return {
		dryRun: true,
		request: {
			method: 'POST',
			url: `${connection.baseUrl}${request.endpoint}`,
			headers: { Authorization: MASK, 'Content-Type': 'application/json' },
			body: request.body,
		},
		...request.extras,
	};
}

type Tries = ReturnType<typeof triesOf>;

/**
 * Sends the valid items: dry-run items are output as requests, items whose Send Once key was
 * already sent are skipped, the rest go through the scheduler. Results land in `outcomes`.
 */
export async function deliver(
	this: IExecuteFunctions,
	operation: SendOperation,
	ready: Ready[],
	outcomes: Outcomes,
): Promise<void> {
	const connection = await connectOrFail(this, ready, outcomes);
	if (connection === undefined) return;
	// With Retry On Fail, what an earlier try of this run did with an item decides (see retries.ts).
	const tries = triesOf(this);
	const live = itemsToSend(this, connection, ready, outcomes, tries);
	if (live === undefined) return;
	const toSend = await sendOncePerKey(this, live, outcomes);
	if (toSend.length === 0) return;
	await sendPaced(this, operation, connection, toSend, outcomes, tries);
}

/** The service's connection; undefined after a credential problem, which every item fails with. */
async function connectOrFail(context: IExecuteFunctions, ready: Ready[], outcomes: Outcomes): Promise<ServiceConnection | undefined> {
	try {
		return await getConnection.call(context);
	} catch (error) {
		for (const { itemIndex } of ready) if (outcomes.fail(itemIndex, error) === 'stop') break;
		return undefined;
	}
}

/**
 * The items that go out. A dry-run item is output as its request; one an earlier try of Retry On
 * Fail delivered is output as it was, one it may have delivered fails. Undefined when such a
 * failure stops the run.
 */
function itemsToSend(
	context: IExecuteFunctions,
	connection: ServiceConnection,
	ready: Ready[],
	outcomes: Outcomes,
	tries: Tries,
): Ready[] | undefined {
	const live: Ready[] = [];
	for (const item of ready) {
		if (item.options.dryRun) {
			outcomes.done(item.itemIndex, dryRunItem(connection, item), 'dryRun', item.request.smsSegments);
			continue;
		}
		const earlier = tries?.recall(item.itemIndex, item.request);
		if (earlier === undefined) live.push(item);
		else if (earlier.kind === 'delivered') outcomes.done(item.itemIndex, earlier.json, 'sent', item.request.smsSegments);
		else if (outcomes.fail(item.itemIndex, notResentError(context, item.itemIndex, earlier.error)) === 'stop') return undefined;
	}
	return live;
}

/**
 * Sends the items through the scheduler at the pace of their service, then forgets the Send
 * Once keys of those that certainly did not go out.
 */
async function sendPaced(
	context: IExecuteFunctions,
	operation: SendOperation,
	connection: ServiceConnection,
	toSend: Ready[],
	outcomes: Outcomes,
	tries: Tries,
): Promise<void> {
	const { pacing } = toSend[0].options;
	const { send, giveUp, mayHaveGoneOut } = itemSender(context, operation, connection, { toSend, outcomes, tries, maxWaitMs: pacing.maxWaitMs });
	// One pace per service (credential and Base URL), shared with every execution in this process.
	const service = paces.use(`${connection.credential.id || connection.credential.name}\u0000${connection.baseUrl}`, realClock.now());
	const cancel = context.getExecutionCancelSignal?.();
	try {
		const stats = await schedule(
			toSend.length,
			{ send, giveUp, signal: cancel },
			pacing,
			realClock,
			service.pace,
		);
		outcomes.noteRateLimits(stats.throttled, stats.longestWaitMs ?? 0);
	} finally {
		service.release(realClock.now());
		const unsent = toSend.filter((item) => item.options.dedupeKey !== '' && !mayHaveGoneOut.has(item.itemIndex));
		await releaseKeys(context, unsent.map((item) => item.options.dedupeKey));
	}
}

/**
 * What the scheduler calls for job `job` (the item `toSend[job]`): `send` sends it once and
 * records what came of it, `giveUp` fails it once it has waited past Rate Limit Max Wait.
 * `mayHaveGoneOut` holds the items that were delivered, or may have been: every item whose request
 * left, until an answer says the service refused it (a 429, a rejection) or never got it.
 */
function itemSender(
	context: IExecuteFunctions,
	operation: SendOperation,
	connection: ServiceConnection,
	{ toSend, outcomes, tries, maxWaitMs }: { toSend: Ready[]; outcomes: Outcomes; tries: Tries; maxWaitMs: number },
) {
	const client = makeClient.call(context, connection);
	const mayHaveGoneOut = new Set<number>();
	const lastRefusal = new Map<number, NodeApiError>();
	const send = async (job: number): Promise<Attempt> => {
		const { itemIndex, request, options } = toSend[job];
		mayHaveGoneOut.add(itemIndex);
		try {
			const result = await sendOnce.call(context, connection, client, request.endpoint, request.body, {
				itemIndex,
				timeout: options.timeout,
			});
			if (result.kind === 'rateLimited') {
				mayHaveGoneOut.delete(itemIndex);
				lastRefusal.set(job, result.error);
				return { kind: 'throttled', retryAfterMs: retryAfterMs(result.retryAfter) };
			}
			const json = { ...result.response, ...request.extras, ...(operation.output?.(result.response) ?? {}) };
			tries?.remember(itemIndex, request, { kind: 'delivered', json });
			outcomes.done(itemIndex, json, 'sent', request.smsSegments);
			return { kind: 'done' };
		} catch (error) {
			if (mayHaveBeenDelivered(error)) tries?.remember(itemIndex, request, { kind: 'uncertain', error });
			else mayHaveGoneOut.delete(itemIndex);
			return outcomes.fail(itemIndex, error) === 'stop' ? { kind: 'stop' } : { kind: 'done' };
		}
	};
	const giveUp = (job: number, waitedMs: number, askedMs: number): 'done' | 'stop' => {
		// An item the shared pause held before it was ever sent has no refusal of its own.
		const error = lastRefusal.get(job) ?? pausedError(context.getNode(), toSend[job].itemIndex);
		error.description = `${error.description ?? ''} The item waited ${Math.round(waitedMs / 1000)} s in all and the service asked for ${Math.ceil(askedMs / 1000)} s more, past Options → Rate Limit Max Wait (Seconds) (${maxWaitMs / 1000}). Nothing was delivered for this item.`.trim();
		return outcomes.fail(toSend[job].itemIndex, error) === 'stop' ? 'stop' : 'done';
	};
	return { send, giveUp, mayHaveGoneOut };
}
