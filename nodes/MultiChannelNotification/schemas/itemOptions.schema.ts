import { z } from 'zod/v4';

import type { FieldLabels } from './common';
import { asJson, ruleShowing } from './shown';

/**
 * The Options every send has that are read for each item. A timeout under 1 ms (possible through
 * an expression) would abandon every request while the service may still deliver it, so it is
 * refused before sending; one longer than an hour is cut to an hour. Send Once History Size is how
 * many keys n8n's deduplication store keeps for the node (the newest), a whole number from 1 to a
 * million: every check reads the whole list, so it is bounded. Max SMS Segments (SMS operations) is
 * a whole number from 0 to 255, the most parts a concatenated SMS can have (3GPP TS 23.040
 * § 9.2.3.24.1); 0 or unset is no limit.
 */

const MAX_TIMEOUT_MS = 3_600_000;

export const DEFAULT_DEDUPE_HISTORY_SIZE = 10_000;
export const MAX_DEDUPE_HISTORY_SIZE = 1_000_000;

export const ITEM_OPTIONS_LABELS = {
	timeout: { label: 'Timeout (Milliseconds)', at: ['options', 'timeout'] },
	dedupeHistorySize: { label: 'Send Once History Size', at: ['options', 'dedupeHistorySize'] },
	maxSmsSegments: { label: 'Max SMS Segments', at: ['options', 'maxSmsSegments'] },
} satisfies FieldLabels;

const isTimeout = (value: unknown) => {
	const number = Number(value);
	return value === undefined || (Number.isFinite(number) && number >= 1);
};

/** Unset stays unset: the reader has the default. */
const timeout = z
	.unknown()
	.superRefine(ruleShowing(isTimeout, 'must be a number of milliseconds, at least 1', asJson))
	.transform((value) => (value === undefined ? undefined : Math.min(Math.ceil(Number(value)), MAX_TIMEOUT_MS)));

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

export const itemOptionsSchema = z.object({ timeout, dedupeHistorySize, maxSmsSegments });
