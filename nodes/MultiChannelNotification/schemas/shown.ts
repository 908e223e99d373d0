import type { z } from 'zod/v4';

/**
 * How a rule shows the value it refused, when not as the node shows values by default
 * (helpers/validation.ts): carried in the issue's `params`, as text, or null for never (a
 * secret, or a value the rule's own text already quotes).
 */
export interface Shown {
	shown: string | null;
}

/** The value as JSON writes it ("soon" quoted, Infinity and NaN as null), else as text (undefined). */
export const asJson = (value: unknown): string => JSON.stringify(value) ?? String(value);

/**
 * A rule for `.superRefine`: when `holds` is false, one issue with the rule's text (fixed, or made
 * from the value) and the value shown by `show`. `stop` ends the schema's checks there, so one
 * mistake gives one message; `path` names the key of an object the rule is about.
 */
export function ruleShowing<T>(
	holds: (value: T) => boolean,
	rule: string | ((value: T) => string),
	show: (value: T) => string | null,
	{ stop = false, path = [] }: { stop?: boolean; path?: PropertyKey[] } = {},
) {
	return (value: T, context: z.RefinementCtx<T>): void => {
		if (holds(value)) return;
		const params: Shown = { shown: show(value) };
		const message = typeof rule === 'string' ? rule : rule(value);
		// A fresh path each time: zod prefixes the issue's path in place as it passes up the schema.
		context.addIssue({ code: 'custom', message, input: value, params, path: [...path], continue: !stop });
	};
}
