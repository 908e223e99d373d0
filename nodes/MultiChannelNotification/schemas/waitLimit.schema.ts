import { z } from 'zod/v4';

import type { FieldLabels } from './common';
import { asJson, ruleShowing } from './shown';

/**
 * Options → Limit Wait Time of Send and Wait for Response: after a time interval (Amount and
 * Unit, 1 hour unless set) or at a specified time, which must be in the future. The input is
 * the collection's values under `limitWaitTime`; the output is when the wait ends.
 */

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

export const WAIT_LIMIT_LABELS = {
	limitWaitTime: {
		label: 'Options',
		at: ['options', 'limitWaitTime', 'values'],
		parts: {
			maxDateAndTime: 'Limit Wait Time → Max Date and Time',
			resumeAmount: 'Limit Wait Time → Amount',
			resumeUnit: 'Limit Wait Time → Unit',
		},
	},
} satisfies FieldLabels;

const unitOf = (value: unknown): number | undefined => {
	const unit = String(value ?? 'hours');
	return Object.hasOwn(UNIT_MS, unit) ? UNIT_MS[unit] : undefined;
};
const amountOf = (value: unknown) => Number(value ?? 1);
const dateOf = (value: unknown) => new Date(String(value ?? ''));

interface Interval {
	resumeAmount?: unknown;
	resumeUnit?: unknown;
}

/** The unit first: an amount is judged only in a unit there is, so one mistake gives one message. */
function afterInterval(now: number) {
	return z
		.object({ resumeAmount: z.unknown(), resumeUnit: z.unknown() })
		.superRefine(
			ruleShowing((limit: Interval) => unitOf(limit.resumeUnit) !== undefined, 'must be minutes, hours or days', (limit) => asJson(limit.resumeUnit), {
				path: ['resumeUnit'],
				stop: true,
			}),
		)
		.superRefine(
			ruleShowing(
				(limit: Interval) => Number.isFinite(amountOf(limit.resumeAmount)) && amountOf(limit.resumeAmount) > 0,
				'must be a number above 0',
				(limit) => asJson(limit.resumeAmount),
				{ path: ['resumeAmount'] },
			),
		)
		.transform(({ resumeAmount, resumeUnit }) => new Date(now + amountOf(resumeAmount) * (unitOf(resumeUnit) ?? 0)));
}

function atSpecifiedTime(now: number) {
	return z
		.object({
			maxDateAndTime: z.unknown().superRefine(
				ruleShowing((value) => dateOf(value).getTime() > now, 'must be a date and time in the future', asJson),
			),
		})
		.transform(({ maxDateAndTime }) => dateOf(maxDateAndTime));
}

/** The limit's schema for its Limit Type, judged against `now`. */
export function waitLimitSchema(limitType: unknown, now: number) {
	return z.object({ limitWaitTime: limitType === 'atSpecifiedTime' ? atSpecifiedTime(now) : afterInterval(now) }).transform((limit) => limit.limitWaitTime);
}
