import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Send Once Per Key, on n8n's own deduplication store (the Remove Duplicates node's: in n8n's
 * database, so it survives restarts and is shared with queue-mode workers). A key is recorded
 * *before* its message is sent and removed when the send fails or never starts. Should n8n die in
 * between, that one message is not sent on a re-run: missed (and shown as skipped) is the safer
 * side for a notification than sent twice.
 */

const SCOPE = 'node';
const OPTIONS = { mode: 'entries' as const };

export interface Keyed {
	itemIndex: number;
	key: string;
}

export interface Claim {
	/** Items to send: their key was not sent before (and is now recorded). */
	claimed: Set<number>;
	/** Items not to send, with why. */
	skipped: Map<number, 'alreadySent' | 'sameKeyEarlierInThisRun'>;
}

/** Records the keys of these items; those already recorded (or repeated in this run) are skipped. */
export async function claimKeys(context: IExecuteFunctions, items: Keyed[]): Promise<Claim> {
	const claimed = new Set<number>();
	const skipped: Claim['skipped'] = new Map();
	if (items.length === 0) return { claimed, skipped };
	const firstByKey = new Map<string, number>();
	for (const { itemIndex, key } of items) {
		if (firstByKey.has(key)) skipped.set(itemIndex, 'sameKeyEarlierInThisRun');
		else firstByKey.set(key, itemIndex);
	}
	const result = await context.helpers.checkProcessedAndRecord([...firstByKey.keys()], SCOPE, OPTIONS);
	const fresh = new Set(result.new.map(String));
	for (const [key, itemIndex] of firstByKey) {
		if (fresh.has(key)) claimed.add(itemIndex);
		else skipped.set(itemIndex, 'alreadySent');
	}
	return { claimed, skipped };
}

/** Forgets keys whose message was not sent, so a re-run sends them. */
export async function releaseKeys(context: IExecuteFunctions, keys: string[]): Promise<void> {
	if (keys.length > 0) await context.helpers.removeProcessed(keys, SCOPE, OPTIONS);
}
