import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodIssue, ZodType, ZodTypeDef } from 'zod';

export type IssuePath = ReadonlyArray<string | number>;

/** Names the UI field an issue is about, e.g. `['to']` → `To`. */
export type FieldLabeler = (path: IssuePath, issue: ZodIssue) => string;

const MAX_SHOWN_VALUE = 80;

const TYPE_NAMES: Record<string, string> = {
	string: 'text',
	number: 'a number',
	integer: 'a whole number',
	boolean: 'true or false',
	array: 'a list (JSON array)',
	object: 'an object',
	null: 'null',
	undefined: 'nothing',
};

function valueAt(candidate: unknown, path: IssuePath): unknown {
	let current: unknown = candidate;
	for (const key of path) {
		if (typeof current !== 'object' || current === null) return undefined;
		current = (current as Record<string | number, unknown>)[key];
	}
	return current;
}

function safeStringify(value: unknown): string | undefined {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch (error) {
		// Deeply nested or cyclic JSON (RangeError / TypeError): the rule alone still says
		// what is wrong, so the value is left out rather than failing the error itself.
		return error instanceof Error ? undefined : String(error);
	}
}

/** The offending value as the user typed it, shortened; undefined when showing it would not help. */
export function showValue(value: unknown): string | undefined {
	if (value === undefined) return undefined;
	let shown: string;
	if (typeof value === 'string') {
		shown = JSON.stringify(value);
	} else if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
		shown = String(value);
	} else {
		shown = safeStringify(value) ?? '(a value too deeply nested to show)';
	}
	return shown.length > MAX_SHOWN_VALUE ? `${shown.slice(0, MAX_SHOWN_VALUE - 1)}…` : shown;
}

/** The rule an issue broke, phrased to follow the field's label ("To must be …"). */
export function describeRule(issue: ZodIssue): string {
	switch (issue.code) {
		case 'invalid_type':
			if (issue.received === 'undefined' || issue.received === 'null') return 'is required';
			return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected} (got ${TYPE_NAMES[issue.received] ?? issue.received})`;
		case 'invalid_literal':
			return `must be ${JSON.stringify(issue.expected)}`;
		case 'unrecognized_keys':
			return `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys
				.map((key) => `"${key}"`)
				.join(', ')}: remove ${issue.keys.length > 1 ? 'them' : 'it'}`;
		case 'invalid_union_discriminator':
		case 'invalid_enum_value':
			return `must be one of ${issue.options.map((option) => JSON.stringify(option)).join(', ')}`;
		case 'too_small':
		case 'too_big':
			if (issue.type === 'array') {
				const count = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
				const entries = `${count} ${count === 1 ? 'entry' : 'entries'}`;
				if (issue.exact) return `must have exactly ${entries}`;
				return issue.code === 'too_small' ? `must have at least ${entries}` : `must have at most ${entries}`;
			}
			return issue.message;
		default:
			return issue.message;
	}
}

function formatIssue(issue: ZodIssue, candidate: unknown, labelFor: FieldLabeler): string {
	const label = labelFor(issue.path, issue);
	const rule = describeRule(issue);
	// Whole-list rules already carry their count; a missing value has nothing to show.
	const showsValue = issue.code !== 'unrecognized_keys' && issue.path.length > 0 && !rule.startsWith('is required');
	const value = showsValue ? showValue(valueAt(candidate, issue.path)) : undefined;
	return value === undefined ? `${label} ${rule}` : `${label} ${rule} — got ${value}`;
}

/**
 * Parses a candidate request with its schema. On failure throws a NodeOperationError for the
 * item whose message names the first problem (field as labelled in the UI, value, rule) and
 * whose description lists every problem found, so one run shows everything to fix.
 */
export function parseOrThrow<Output>(
	node: INode,
	schema: ZodType<Output, ZodTypeDef, unknown>,
	candidate: unknown,
	itemIndex: number,
	labelFor: FieldLabeler,
): Output {
	const result = schema.safeParse(candidate);
	if (result.success) return result.data;

	const problems = result.error.issues.map((issue) => formatIssue(issue, candidate, labelFor));
	const description = [
		...(problems.length > 1 ? problems.map((problem) => `• ${problem}`) : []),
		'Nothing was sent for this item.',
	].join('\n');
	throw new NodeOperationError(node, `Item ${itemIndex}: ${problems[0]}`, {
		itemIndex,
		description,
	});
}
