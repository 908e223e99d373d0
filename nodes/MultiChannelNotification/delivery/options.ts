import type { IExecuteFunctions } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';
import type { PhoneNumberFormat } from '../helpers/phoneNumber';
import { judge } from '../helpers/validation';
import type { ItemOptionValues } from '../schemas/itemOptions.schema';
import { ITEM_OPTIONS_LABELS, itemOptionsSchema } from '../schemas/itemOptions.schema';
import { INITIAL_LIMIT } from './pace';
import type { PacingSettings } from './scheduler';

/**
 * The Options collection every send has (the editor's fields are in editor/optionsField.ts), read once
 * for each item and judged by one schema (schemas/itemOptions.schema.ts). The object is handed to
 * the operation's `prepare`, to the send and, from the first item that goes out, to the pacing.
 */

export interface ItemOptions {
	/** Milliseconds one request may take. */
	timeout: number;
	dryRun: boolean;
	/** Empty: send every time. */
	dedupeKey: string;
	/** How many Send Once keys the node keeps (the newest). */
	dedupeHistorySize: number;
	/** Options → Max SMS Segments; undefined: no limit. */
	maxSmsSegments?: number;
	/** How From, To and Phone Number values are read. */
	phoneNumberFormat: PhoneNumberFormat;
	/** Options → Replace Look-Alike Characters (SMS operations). */
	replaceLookAlikes: boolean;
	/** Options → Language Policy (template operations), as given: the template's schema judges it. */
	languagePolicy: unknown;
	/** Read by the run from its first item that goes out. */
	pacing: PacingSettings;
}

/** The node's options from the schema's values. */
function itemOptions({ concurrency, batchInterval, rateLimitMaxWait, ...values }: ItemOptionValues): ItemOptions {
	// Batches need a fixed size: without Concurrency they are as large as the starting window.
	const pinned = concurrency !== undefined || batchInterval > 0;
	return {
		...values,
		pacing: { concurrency: pinned ? (concurrency ?? INITIAL_LIMIT) : undefined, batchInterval, maxWaitMs: rateLimitMaxWait * 1000 },
	};
}

/**
 * The item's Options, and every problem with them. A refused option is replaced by its default
 * (the item is not sent), so the operation can still check the item's fields and one error lists
 * all its problems.
 */
export function readOptions(context: IExecuteFunctions, itemIndex: number): { options: ItemOptions; problems: Problem[] } {
	const read = context.getNodeParameter('options', itemIndex, {}) as unknown;
	const given = typeof read === 'object' && read !== null ? (read as Record<string, unknown>) : {};
	const verdict = judge(itemOptionsSchema, given, ITEM_OPTIONS_LABELS);
	if ('data' in verdict) return { options: itemOptions(verdict.data), problems: [] };
	const refused = new Set(verdict.problems.map((problem) => problem.path[1]));
	const kept = Object.fromEntries(Object.entries(given).filter(([name]) => !refused.has(name)));
	return { options: itemOptions(itemOptionsSchema.parse(kept)), problems: verdict.problems };
}
