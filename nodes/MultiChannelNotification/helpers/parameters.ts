import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Reading the editor's fields. Every value comes from n8n's `getNodeParameter`, so expressions,
 * their escaping, security guards and tool-run context are n8n's own; this module only turns
 * what n8n gives into what the schemas take.
 */

/**
 * Reads a text field. Numbers and booleans from expressions become text (a body parameter
 * `{{ $json.total }}` is usually a number); anything else is returned as is so the schema
 * reports it. `trim` is for identifiers and links, never for message text.
 */
export function readText(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	options: { trim?: boolean } = {},
): unknown {
	return asText(context.getNodeParameter(name, itemIndex, ''), options);
}

/** The same conversion for a value found inside a collection entry. */
export function asText(value: unknown, { trim = false }: { trim?: boolean } = {}): unknown {
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
		return String(value);
	}
	if (typeof value === 'string' && trim) return value.trim();
	return value;
}

/** Entries of a fixedCollection, e.g. `{ parameter: [{ text }] }` → `[{ text }]`. */
export function readCollectionEntries(
	context: IExecuteFunctions,
	name: string,
	key: string,
	itemIndex: number,
): Array<Record<string, unknown>> {
	const collection = context.getNodeParameter(name, itemIndex, {}) as Record<string, unknown> | null;
	const entries = collection?.[key];
	if (Array.isArray(entries)) return entries as Array<Record<string, unknown>>;
	if (entries && typeof entries === 'object') return [entries as Record<string, unknown>];
	return [];
}
