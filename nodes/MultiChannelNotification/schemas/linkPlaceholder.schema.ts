import { z } from 'zod/v4';

import type { FieldLabels } from './common';
import { asJson, ruleShowing } from './shown';

/**
 * Link Goes Into of a template's Send and Wait for Response: the body placeholder that takes the
 * answer link. The input is where it would go (the placeholder's number, the values given so far,
 * whether the components are JSON); that placeholder must be left empty, every one before it
 * given, and the components given as fields. One mistake gives one message.
 */

export const LINK_PLACEHOLDER_LABELS = { linkPlaceholder: { label: 'Link Goes Into' } } satisfies FieldLabels;

interface Placement {
	/** The components are given as JSON, which cannot take the link. */
	json: boolean;
	position: number;
	values: unknown[];
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const never = () => null;
const STOP = { stop: true };

const placement = z
	.custom<Placement>()
	.superRefine(
		ruleShowing(
			({ json }: Placement) => !json,
			'needs the body given as fields: switch Components to fields, the link cannot go into JSON',
			never,
			STOP,
		),
	)
	.superRefine(
		ruleShowing(
			({ position }: Placement) => Number.isInteger(position) && position >= 1,
			'must be a placeholder number, 1 or more',
			({ position }) => asJson(position),
			STOP,
		),
	)
	.superRefine(
		ruleShowing(
			({ position, values }: Placement) => position > values.length || isBlank(values[position - 1]),
			({ position }) => `is {{${position}}}, which already has a value: leave it empty, the answer link goes there`,
			({ position, values }) => String(values[position - 1]),
			STOP,
		),
	)
	.superRefine(
		ruleShowing(
			({ position, values }: Placement) => position - 1 <= values.length,
			({ position, values }) =>
				`is {{${position}}}, but only ${values.length} placeholder value(s) come before it: give {{1}} … {{${position - 1}}} a value first`,
			never,
		),
	);

export const linkPlaceholderSchema = z.object({ linkPlaceholder: placement }).transform(({ linkPlaceholder }) => linkPlaceholder);
