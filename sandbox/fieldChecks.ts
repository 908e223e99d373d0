/**
 * The field checks the sandbox's request checks are built from (validate.ts, templateChecks.ts):
 * the kind of a JSON value, an object's allowed and required keys, non-empty strings, E.164 phone
 * numbers and https links. Each returns the first problem as `<field path>: <rule>`, or null.
 */

/** E.164: a plus sign, then 7 to 15 digits of which the first is not 0. */
const E164 = /^\+[1-9]\d{6,14}$/;
const WHITESPACE = /\s/;

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function join(path: string, key: string): string {
	return path === '' ? key : `${path}.${key}`;
}

/** Describes a value by its JSON kind, so messages say what was sent without echoing it whole. */
export function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/**
 * Checks that `value` is an object whose keys are all in `required` or `optional`, and that every
 * required key is present. Unknown keys are reported before missing ones because a misspelt key
 * usually explains the missing one.
 */
export function checkShape(
	value: unknown,
	path: string,
	required: readonly string[],
	optional: readonly string[] = [],
): string | null {
	const label = path === '' ? 'body' : path;
	if (!isJsonObject(value)) return `${label}: must be an object (got ${kindOf(value)})`;
	for (const key of Object.keys(value)) {
		if (!required.includes(key) && !optional.includes(key)) {
			const allowed = [...required, ...optional].join(', ');
			return `${join(path, key)}: unknown field (allowed here: ${allowed})`;
		}
	}
	for (const key of required) {
		if (!(key in value)) return `${join(path, key)}: is required`;
	}
	return null;
}

export function checkNonEmptyString(value: unknown, path: string): string | null {
	if (typeof value !== 'string') return `${path}: must be a string (got ${kindOf(value)})`;
	if (value.length === 0) return `${path}: must not be empty`;
	return null;
}

export function checkLiteral(value: unknown, path: string, expected: string): string | null {
	if (value !== expected) return `${path}: must be "${expected}"`;
	return null;
}

export function isE164(value: unknown): value is string {
	return typeof value === 'string' && E164.test(value);
}

export function checkPhone(value: unknown, path: string): string | null {
	if (typeof value !== 'string') return `${path}: must be a string (got ${kindOf(value)})`;
	if (!E164.test(value)) {
		return `${path}: must be an E.164 phone number: "+" then 7 to 15 digits, the first not 0 (got "${value}")`;
	}
	return null;
}

/** Spec, rule "Media URLs use https"; the header image link is held to the same rule. */
export function checkHttpsUrl(value: unknown, path: string): string | null {
	if (typeof value !== 'string') return `${path}: must be a string (got ${kindOf(value)})`;
	if (value.length === 0) return `${path}: must not be empty`;
	// The URL parser silently trims and re-encodes whitespace; a link with spaces is a client bug.
	if (WHITESPACE.test(value) || !URL.canParse(value)) return `${path}: must be a valid URL`;
	const url = new URL(value);
	if (url.protocol !== 'https:') return `${path}: must use https (got ${url.protocol.slice(0, -1)})`;
	if (url.hostname === '') return `${path}: must have a host`;
	return null;
}

/** Checks an array holding exactly one parameter object, returning it when it does. */
export function checkSingleParameter(value: unknown, path: string): { error: string } | { parameter: unknown } {
	if (!Array.isArray(value)) return { error: `${path}: must be an array (got ${kindOf(value)})` };
	if (value.length !== 1) {
		return { error: `${path}: must contain exactly one parameter (got ${value.length})` };
	}
	return { parameter: value[0] };
}
