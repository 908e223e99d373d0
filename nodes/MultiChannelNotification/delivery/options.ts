import type { IExecuteFunctions } from 'n8n-workflow';

import type { PhoneNumberFormat } from '../helpers/phoneNumber';
import { parseOrThrow } from '../helpers/validation';
import { ITEM_OPTIONS_LABELS, itemOptionsSchema } from '../schemas/itemOptions.schema';
import { INITIAL_LIMIT } from './pace';
import type { PacingSettings } from './scheduler';

/** Reading the Options collection every send has (the editor's fields are in editor/options.ts). */

export const MAX_CONCURRENCY = 100;
export const DEFAULT_TIMEOUT_MS = 30000;
export const DEFAULT_RATE_LIMIT_MAX_WAIT_S = 120;

/** Read for each item. */
export interface ItemOptions {
	timeout: number;
	dryRun: boolean;
	/** Empty: send every time. */
	dedupeKey: string;
	/** How many Send Once keys the node keeps (the newest). */
	dedupeHistorySize: number;
	/** Options → Max SMS Segments; undefined: no limit. */
	maxSmsSegments?: number;
}

function whole(value: unknown, fallback: number, min: number, max: number): number {
	const number = typeof value === 'number' ? value : Number(value);
	if (value === undefined || value === '' || !Number.isFinite(number)) return fallback;
	return Math.min(max, Math.max(min, Math.floor(number)));
}

/** The last item's Options, per execution: the router and the operation both read them. */
const lastRead = new WeakMap<IExecuteFunctions, { itemIndex: number; options: Record<string, unknown> }>();

function optionsOf(context: IExecuteFunctions, itemIndex: number): Record<string, unknown> {
	const cached = lastRead.get(context);
	if (cached?.itemIndex === itemIndex) return cached.options;
	const options = context.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>;
	lastRead.set(context, { itemIndex, options });
	return options;
}

/** How From, To and Phone Number values are read for one item. */
export function readPhoneNumberFormat(context: IExecuteFunctions, itemIndex: number): PhoneNumberFormat {
	return optionsOf(context, itemIndex).phoneNumberFormat === 'strict' ? 'strict' : 'normalize';
}

/** Options → Replace Look-Alike Characters (SMS operations), off unless set. */
export function readReplaceLookAlikes(context: IExecuteFunctions, itemIndex: number): boolean {
	return optionsOf(context, itemIndex).replaceLookAlikes === true;
}

/** The per-item options; a timeout that would abandon every request is refused (itemOptions.schema.ts). */
export function readItemOptions(context: IExecuteFunctions, itemIndex: number): ItemOptions {
	const options = optionsOf(context, itemIndex);
	const { timeout, dedupeHistorySize, maxSmsSegments } = parseOrThrow(context, itemOptionsSchema, options, itemIndex, ITEM_OPTIONS_LABELS);
	const key = options.dedupeKey;
	return {
		timeout: timeout ?? DEFAULT_TIMEOUT_MS,
		dryRun: options.dryRun === true,
		dedupeKey: typeof key === 'string' ? key.trim() : typeof key === 'number' ? String(key) : '',
		dedupeHistorySize,
		maxSmsSegments,
	};
}

/** Pacing, read once per execution from the given (first valid) item. */
export function readPacing(context: IExecuteFunctions, itemIndex: number): PacingSettings {
	const options = optionsOf(context, itemIndex);
	const batchInterval = whole(options.batchInterval, 0, 0, 3600000);
	// Batches need a fixed size: without Concurrency they are as large as the starting window.
	const pinned = options.concurrency !== undefined || batchInterval > 0;
	return {
		concurrency: pinned ? whole(options.concurrency, INITIAL_LIMIT, 1, MAX_CONCURRENCY) : undefined,
		batchInterval,
		maxWaitMs: whole(options.rateLimitMaxWait, DEFAULT_RATE_LIMIT_MAX_WAIT_S, 0, 86400) * 1000,
	};
}
