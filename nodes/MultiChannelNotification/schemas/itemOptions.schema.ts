import { z } from 'zod/v4';

import type { FieldLabels } from './common';
import { asJson, ruleShowing } from './shown';

/**
 * The Options collection, every option of it, read once for each item (delivery/options.ts): a
 * value the node cannot use is refused naming the option, never clamped nor replaced by the
 * default; for the pacing options, the switches, Phone Number Format and Send Once Per Key, empty
 * (an expression that gave nothing) is the default. A timeout under 1 ms (possible through an
 * expression) would abandon every request while the service may still deliver it, so it is
 * refused before sending, and so is one longer than an hour. Send Once History Size is how
 * many keys n8n's deduplication store keeps for the node (the newest), a whole number from 1 to a
 * million: every check reads the whole list, so it is bounded. Max SMS Segments (SMS operations) is
 * a whole number from 0 to 255, the most parts a concatenated SMS can have (3GPP TS 23.040
 * § 9.2.3.24.1); 0 or unset is no limit. Concurrency is a whole number of requests in flight
 * from 1 to 100; Batch Interval up to an hour and Rate Limit Max Wait up to a day, parts of a
 * millisecond or second rounded down. The switches are true or false, Phone Number Format one of
 * its two values, Send Once Per Key text or a number (trimmed). Language Policy is taken as given:
 * the template's request schema judges it (actions/chatMessage/templateMessage.schema.ts).
 */

const MAX_TIMEOUT_MS = 3_600_000;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_CONCURRENCY = 100;
const MAX_BATCH_INTERVAL_MS = 3_600_000;
export const DEFAULT_RATE_LIMIT_MAX_WAIT_S = 120;
const MAX_RATE_LIMIT_MAX_WAIT_S = 86_400;

export const DEFAULT_DEDUPE_HISTORY_SIZE = 10_000;
export const MAX_DEDUPE_HISTORY_SIZE = 1_000_000;

export const ITEM_OPTIONS_LABELS = {
	timeout: { label: 'Timeout (Milliseconds)', at: ['options', 'timeout'] },
	dedupeHistorySize: { label: 'Send Once History Size', at: ['options', 'dedupeHistorySize'] },
	maxSmsSegments: { label: 'Max SMS Segments', at: ['options', 'maxSmsSegments'] },
	concurrency: { label: 'Concurrency', at: ['options', 'concurrency'] },
	batchInterval: { label: 'Batch Interval (Milliseconds)', at: ['options', 'batchInterval'] },
	rateLimitMaxWait: { label: 'Rate Limit Max Wait (Seconds)', at: ['options', 'rateLimitMaxWait'] },
	dryRun: { label: 'Dry Run', at: ['options', 'dryRun'] },
	phoneNumberFormat: { label: 'Phone Number Format', at: ['options', 'phoneNumberFormat'] },
	replaceLookAlikes: { label: 'Replace Look-Alike Characters', at: ['options', 'replaceLookAlikes'] },
	dedupeKey: { label: 'Send Once Per Key', at: ['options', 'dedupeKey'] },
	// Judged by the template's request schema (actions/chatMessage/templateMessage.schema.ts).
	languagePolicy: { label: 'Language Policy', at: ['options', 'languagePolicy'] },
} satisfies FieldLabels;

const isTimeout = (value: unknown) => {
	const number = Number(value);
	return value === undefined || (Number.isFinite(number) && number >= 1 && number <= MAX_TIMEOUT_MS);
};

const timeout = z
	.unknown()
	.superRefine(ruleShowing(isTimeout, `must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (an hour)`, asJson))
	.transform((value) => (value === undefined ? DEFAULT_TIMEOUT_MS : Math.ceil(Number(value))));

const isHistorySize = (value: unknown) => {
	const number = Number(value);
	return value === undefined || (value !== '' && Number.isInteger(number) && number >= 1 && number <= MAX_DEDUPE_HISTORY_SIZE);
};

const dedupeHistorySize = z
	.unknown()
	.superRefine(ruleShowing(isHistorySize, 'must be a whole number of keys from 1 to 1000000', asJson))
	.transform((value) => (value === undefined ? DEFAULT_DEDUPE_HISTORY_SIZE : Number(value)));

export const MAX_SMS_PARTS = 255;

const noLimit = (value: unknown) => value === undefined || value === '' || Number(value) === 0;
const isSegmentLimit = (value: unknown) => {
	const number = Number(value);
	return noLimit(value) || (Number.isInteger(number) && number >= 1 && number <= MAX_SMS_PARTS);
};

/** Undefined: no limit. */
const maxSmsSegments = z
	.unknown()
	.superRefine(ruleShowing(isSegmentLimit, `must be a whole number of segments from 0 (no limit) to ${MAX_SMS_PARTS}`, asJson))
	.transform((value) => (noLimit(value) ? undefined : Number(value)));

/** Unset, or empty as an expression gives it. */
const empty = (value: unknown) => value === undefined || value === null || value === '';
const inRange = (value: unknown, min: number, max: number, whole = false) => {
	const number = typeof value === 'string' && value.trim() === '' ? Number.NaN : Number(value);
	return (typeof value === 'number' || typeof value === 'string') && number >= min && number <= max && (!whole || Number.isInteger(number));
};

/** Undefined: not set (the node adapts); null: set but empty (pinned at the starting value, as the editor's default). */
const concurrency = z
	.unknown()
	.superRefine(ruleShowing((value) => empty(value) || inRange(value, 1, MAX_CONCURRENCY, true), `must be a whole number of requests from 1 to ${MAX_CONCURRENCY}`, asJson))
	.transform((value) => (value === undefined ? undefined : empty(value) ? null : Number(value)));

/** A whole number of units from 0 to `max` (parts rounded down), the default when empty. */
const duration = (unit: string, max: number, fallback: number) =>
	z
		.unknown()
		.superRefine(ruleShowing((value) => empty(value) || inRange(value, 0, max), `must be a number of ${unit} from 0 to ${max}`, asJson))
		.transform((value) => (empty(value) ? fallback : Math.floor(Number(value))));

const onOff = z
	.unknown()
	.superRefine(ruleShowing((value) => value === undefined || typeof value === 'boolean', 'must be true or false', asJson))
	.transform((value) => value === true);

const phoneNumberFormat = z
	.unknown()
	.superRefine(ruleShowing((value) => empty(value) || value === 'normalize' || value === 'strict', 'must be "normalize" or "strict"', asJson))
	.transform((value): 'normalize' | 'strict' => (value === 'strict' ? 'strict' : 'normalize'));

/** Empty: send every time. */
const dedupeKey = z
	.unknown()
	.superRefine(ruleShowing((value) => empty(value) || typeof value === 'string' || typeof value === 'number', 'must be text or a number', asJson))
	.transform((value) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : ''));

/** Options → Language Policy (template operations): the only value the service documents. */
export const LANGUAGE_POLICY = 'deterministic';

/**
 * An unset Language Policy is the editor's default; one set to an expression that gave nothing is
 * kept, for the template's schema to refuse.
 */
const withLanguagePolicy = (given: unknown) =>
	typeof given === 'object' && given !== null && !('languagePolicy' in given) ? { ...given, languagePolicy: LANGUAGE_POLICY } : given;

export const itemOptionsSchema = z.preprocess(withLanguagePolicy, z.object({
	timeout,
	dedupeHistorySize,
	maxSmsSegments,
	concurrency,
	batchInterval: duration('milliseconds', MAX_BATCH_INTERVAL_MS, 0),
	rateLimitMaxWait: duration('seconds', MAX_RATE_LIMIT_MAX_WAIT_S, DEFAULT_RATE_LIMIT_MAX_WAIT_S),
	dryRun: onOff,
	phoneNumberFormat,
	replaceLookAlikes: onOff,
	dedupeKey,
	// Judged by the template's request schema, with the label the editor shows.
	languagePolicy: z.unknown(),
}));

/** The Options as the node uses them. */
export type ItemOptionValues = z.output<typeof itemOptionsSchema>;
