import type { INode } from 'n8n-workflow';
import type { z } from 'zod/v4';

import type { FieldLabels } from '../schemas/common';
import type { Shown } from '../schemas/shown';
import type { Problem } from './errors';
import { inputError, shorten } from './errors';

/**
 * The one path from a schema's verdict to the user: each zod issue becomes a Problem naming the
 * field as the editor labels it (from the schema's label table: the issue's path starts with
 * the node parameter), the rule (the schema's own message) and the value the item held.
 */

type Issue = z.core.$ZodIssue;
type IssuePath = ReadonlyArray<PropertyKey>;

const MAX_SHOWN_VALUE = 80;

const TYPE_NAMES: Record<string, string> = {
	string: 'text',
	number: 'a number',
	boolean: 'true or false',
	array: 'a list (JSON array)',
	object: 'an object',
	null: 'null',
	undefined: 'nothing',
};

const typeName = (value: unknown): string =>
	value === null ? 'null' : (TYPE_NAMES[Array.isArray(value) ? 'array' : typeof value] ?? typeof value);

/** The offending value as the user typed it, shortened; undefined when showing it would not help. */
export function showValue(value: unknown): string | undefined {
	if (value === undefined || Array.isArray(value)) return undefined;
	if (typeof value !== 'object' || value === null) {
		return shorten(typeof value === 'string' ? JSON.stringify(value) : String(value), MAX_SHOWN_VALUE);
	}
	try {
		return shorten(JSON.stringify(value), MAX_SHOWN_VALUE);
	} catch {
		// Too deeply nested or cyclic: the rule alone still says what is wrong.
		return '(a value too deeply nested to show)';
	}
}

/** The rule an issue broke, phrased to follow the field's label ("To must be …"). */
export function describeRule(issue: Issue, value: unknown): string {
	// Our schemas phrase every rule they state this way; zod's generic texts are rephrased.
	if (/^(must|is|has) /.test(issue.message)) return issue.message;
	switch (issue.code) {
		case 'invalid_type':
			if (value === undefined || value === null) return 'is required';
			return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected} (got ${typeName(value)})`;
		case 'invalid_value':
			return issue.values.length === 1
				? `must be ${JSON.stringify(issue.values[0])}`
				: `must be one of ${issue.values.map((option) => JSON.stringify(option)).join(', ')}`;
		case 'unrecognized_keys':
			return `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys
				.map((key) => `"${key}"`)
				.join(', ')}: remove ${issue.keys.length > 1 ? 'them' : 'it'}`;
		case 'too_small':
		case 'too_big': {
			const count = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
			const entries = `${count} ${count === 1 ? 'entry' : 'entries'}`;
			return issue.code === 'too_small' ? `must have at least ${entries}` : `must have at most ${entries}`;
		}
		default:
			return issue.message;
	}
}

function jsonPath(path: IssuePath): string {
	return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
}

/**
 * The field as the editor names it ("Quick Reply Buttons → Button 2 → Payload") and where its
 * value sits in the node's parameters (["quickReplyButtons", "button", 1, "payload"]).
 */
export function fieldOf(path: IssuePath, labels: FieldLabels): Pick<Problem, 'field' | 'label' | 'path'> {
	const [key, ...rest] = path;
	const entry = labels[String(key)];
	if (entry === undefined) {
		const name = key === undefined ? 'Item' : String(key);
		return { field: name, path: key === undefined ? [] : [name] };
	}
	const { label } = entry;
	const base: Array<string | number> = entry.at ?? [String(key)];
	if (rest.length === 0) return { field: label, path: base };
	if (entry.json) return { field: `${label} at ${jsonPath(rest)}`, label, path: base };
	const parts = rest.map((part) =>
		typeof part === 'number'
			? (entry.entryLabel?.(part) ?? `${entry.entry ?? 'Entry'} ${part + 1}`)
			: (entry.parts?.[String(part)] ?? String(part)),
	);
	const field = [label, ...parts].join(' → ');
	// A list whose entries are parameters of their own (placeholder1, placeholder2, …).
	if (entry.entryKey && typeof rest[0] === 'number') return { field, label, path: [entry.entryKey(rest[0])] };
	const inner = rest.map((part) => (typeof part === 'number' ? part : String(part)));
	const leaf = entry.leaf !== undefined && inner.length === 1 && typeof inner[0] === 'number' ? [entry.leaf] : [];
	return { field, label, path: [...base, ...inner, ...leaf] };
}

/** The value's display a rule chose (schemas/shown.ts): text, null for none, undefined when it chose none. */
function shownBy(issue: Issue): string | null | undefined {
	const params = issue.code === 'custom' ? (issue.params as Partial<Shown> | undefined) : undefined;
	const shown = params?.shown;
	return typeof shown === 'string' || shown === null ? shown : undefined;
}

/** One issue as the user reads it; the value is the one zod reports (parsed with `reportInput`). */
export function problemOf(issue: Issue, labels: FieldLabels): Problem {
	const value = issue.input;
	const rule = describeRule(issue, value);
	// Unknown keys are named in the rule; a missing value has nothing to show.
	const nothingToShow = issue.code === 'unrecognized_keys' || rule.startsWith('is required');
	const own = shownBy(issue);
	const shown = own !== undefined ? (own ?? undefined) : nothingToShow ? undefined : showValue(value);
	return { ...fieldOf(issue.path, labels), rule, ...(shown === undefined ? {} : { value: shown }) };
}

/**
 * A schema's verdict on one candidate: what it parsed to, or every problem found, each naming the
 * field as the editor shows it. Every check of the node gives this; each caller maps the problems
 * to what its reader expects (an input error, a credential error, the answer page).
 */
export type Verdict<Output> = { data: Output } | { problems: Problem[] };

/** Parses a candidate (settings or fields as read) with its schema: the value, or the problems. */
export function judge<Output>(schema: z.ZodType<Output>, candidate: unknown, labels: FieldLabels): Verdict<Output> {
	const result = schema.safeParse(candidate);
	if (result.success) return { data: result.data };
	// Only a refused candidate pays for the values in the issues (asking for them on every parse
	// slows every valid item): the same parse again, reporting each input.
	const reported = schema.safeParse(candidate, { reportInput: true });
	const issues = reported.success ? result.error.issues : reported.error.issues;
	return { problems: issues.map((issue) => problemOf(issue, labels)) };
}

/**
 * Parses an item's candidate (the editor's fields as read) with its request schema and returns
 * the request body. On failure throws one input error listing every problem of the item. Takes
 * the execution context rather than its node: n8n copies the node on every `getNode()`, which
 * only a refused item needs.
 */
export function parseOrThrow<Output>(
	context: { getNode(): INode },
	schema: z.ZodType<Output>,
	candidate: unknown,
	itemIndex: number,
	labels: FieldLabels,
): Output {
	const verdict = judge(schema, candidate, labels);
	if ('data' in verdict) return verdict.data;
	throw inputError(context.getNode(), itemIndex, verdict.problems);
}
