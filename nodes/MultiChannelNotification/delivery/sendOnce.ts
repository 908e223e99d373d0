import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Ready } from './operation';
import type { Outcomes } from './outcomes';

/**
 * Send Once Per Key, on n8n's own deduplication store (the Remove Duplicates node's: in n8n's
 * database, so it survives restarts and is shared with queue-mode workers). A key is recorded
 * *before* its message is sent and removed only when the message certainly did not go out (never
 * sent, the service unreached, or refused); an answer that leaves it open (a 5xx, a timeout, a
 * dropped connection) keeps the key, as does n8n dying in between. Missed, and shown as skipped
 * with the reason, is the safer side for a notification than sent twice.
 *
 * n8n's store reads the node's row, changes it and writes it back without a lock, so two checks
 * at once could both find a key new. Every use of the store by one node in this process therefore
 * waits for the one before it (`inTurn`); across queue-mode workers n8n offers nothing to lock with
 * (docs/operations.md says what that leaves).
 */

const SCOPE = 'node';

const turns = new Map<string, Promise<unknown>>();

/** Runs `use` once every earlier use of the same node's store in this process has ended. */
async function inTurn<T>(context: IExecuteFunctions, use: () => Promise<T>): Promise<T> {
	const name = `${context.getWorkflow().id ?? ''}\u0000${context.getNode().id}`;
	const previous = turns.get(name) ?? Promise.resolve();
	const current = previous.then(use, use);
	const settled = current.then(
		() => undefined,
		() => undefined,
	);
	turns.set(name, settled);
	try {
		return await current;
	} finally {
		if (turns.get(name) === settled) turns.delete(name);
	}
}

const SKIPPED = {
	alreadySent:
		'this node already sent a message with this key, or may have (an earlier send got no clear answer from the service). To send it anyway, give the item a new key',
	sameKeyEarlierInThisRun: 'an earlier item in this run has the same key',
} as const;

/**
 * The items to send: the keys of keyed ones are recorded first, and an item whose key was already
 * sent (or came earlier in this run) is output as skipped instead. When the store cannot be used,
 * the keyed items fail (nothing sent) and the rest go on.
 */
export async function sendOncePerKey(context: IExecuteFunctions, items: Ready[], outcomes: Outcomes): Promise<Ready[]> {
	const firstByKey = new Map<string, Ready>();
	const left = new Set<Ready>();
	const skip = (item: Ready, reason: keyof typeof SKIPPED) => {
		left.add(item);
		const { dedupeKey } = item.options;
		const message = `Not sent: ${SKIPPED[reason]} (Options → Send Once Per Key)`;
		outcomes.done(item.itemIndex, { skipped: true, reason, dedupeKey, message }, 'skipped');
	};
	for (const item of items) {
		const key = item.options.dedupeKey;
		if (key === '') continue;
		if (firstByKey.has(key)) skip(item, 'sameKeyEarlierInThisRun');
		else firstByKey.set(key, item);
	}
	if (firstByKey.size > 0) {
		const keys = [...firstByKey.keys()];
		const maxEntries = [...firstByKey.values()][0].options.dedupeHistorySize;
		try {
			const result = await inTurn(context, async () => await context.helpers.checkProcessedAndRecord(keys, SCOPE, { mode: 'entries', maxEntries }));
			const fresh = new Set(result.new.map(String));
			for (const [key, item] of firstByKey) if (!fresh.has(key)) skip(item, 'alreadySent');
		} catch (error) {
			for (const item of firstByKey.values()) {
				left.add(item);
				if (outcomes.fail(item.itemIndex, storeError(context, item, error)) === 'stop') break;
			}
		}
	}
	return items.filter((item) => !left.has(item));
}

function storeError(context: IExecuteFunctions, { itemIndex, options }: Ready, error: unknown): NodeOperationError {
	const cause = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(context.getNode(), `Send Once Per Key could not check the key "${options.dedupeKey}": ${cause}`, {
		itemIndex,
		description: "n8n's deduplication store (in its database) could not be read or written, so the key could not be checked. Nothing was sent for this item. Re-run when n8n's database is reachable again.",
	});
}

/**
 * Forgets keys whose message certainly did not go out, so a re-run sends them. A store that
 * cannot be written keeps them: those items are then skipped on a re-run, which is logged.
 */
export async function releaseKeys(context: IExecuteFunctions, keys: string[]): Promise<void> {
	if (keys.length === 0) return;
	try {
		await inTurn(context, async () => await context.helpers.removeProcessed(keys, SCOPE, { mode: 'entries' }));
	} catch (error) {
		context.logger.warn(`Send Once Per Key could not forget the keys of messages that were not sent (${keys.length}); a re-run skips them: ${String(error)}`);
	}
}
