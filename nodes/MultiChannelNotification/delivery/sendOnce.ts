import type { IExecuteFunctions } from 'n8n-workflow';

import type { Ready } from './operation';
import type { Outcomes } from './outcomes';

/**
 * Send Once Per Key, on n8n's own deduplication store (the Remove Duplicates node's: in n8n's
 * database, so it survives restarts and is shared with queue-mode workers). A key is recorded
 * *before* its message is sent and removed when the send fails or never starts. Should n8n die in
 * between, that one message is not sent on a re-run: missed (and shown as skipped) is the safer
 * side for a notification than sent twice.
 */

const SCOPE = 'node';
const OPTIONS = { mode: 'entries' as const };

/**
 * The items to send: the keys of keyed ones are recorded first, and an item whose key was already
 * sent (or came earlier in this run) is output as skipped instead.
 */
export async function sendOncePerKey(context: IExecuteFunctions, items: Ready[], outcomes: Outcomes): Promise<Ready[]> {
	const firstByKey = new Map<string, Ready>();
	const skipped = new Set<Ready>();
	const skip = (item: Ready, reason: 'alreadySent' | 'sameKeyEarlierInThisRun') => {
		skipped.add(item);
		const said = reason === 'alreadySent' ? 'this key was already sent by this node' : 'an earlier item in this run has the same key';
		const { dedupeKey } = item.options;
		const message = `Not sent: ${said} (Options → Send Once Per Key)`;
		outcomes.done(item.itemIndex, { skipped: true, reason, dedupeKey, message }, 'skipped');
	};
	for (const item of items) {
		const key = item.options.dedupeKey;
		if (key === '') continue;
		if (firstByKey.has(key)) skip(item, 'sameKeyEarlierInThisRun');
		else firstByKey.set(key, item);
	}
	if (firstByKey.size > 0) {
		const result = await context.helpers.checkProcessedAndRecord([...firstByKey.keys()], SCOPE, OPTIONS);
		const fresh = new Set(result.new.map(String));
		for (const [key, item] of firstByKey) if (!fresh.has(key)) skip(item, 'alreadySent');
	}
	return items.filter((item) => !skipped.has(item));
}

/** Forgets keys whose message was not sent, so a re-run sends them. */
export async function releaseKeys(context: IExecuteFunctions, keys: string[]): Promise<void> {
	if (keys.length > 0) await context.helpers.removeProcessed(keys, SCOPE, OPTIONS);
}
