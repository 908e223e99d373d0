import { z } from 'zod/v4';

import type { FieldLabels } from './common';
import { asJson, ruleShowing } from './shown';

/**
 * The Options every send has that are read for each item. A timeout under 1 ms (possible through
 * an expression) would abandon every request while the service may still deliver it, so it is
 * refused before sending; one longer than an hour is cut to an hour.
 */

const MAX_TIMEOUT_MS = 3_600_000;

export const ITEM_OPTIONS_LABELS = {
	timeout: { label: 'Timeout (Milliseconds)', at: ['options', 'timeout'] },
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

export const itemOptionsSchema = z.object({ timeout });
