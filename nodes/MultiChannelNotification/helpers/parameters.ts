import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

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
	return asText(context.getNodeParameter(name, itemIndex, '') as unknown, options);
}

/** The same conversion for a value found inside a collection entry. */
export function asText(value: unknown, { trim = false }: { trim?: boolean } = {}): unknown {
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
		return String(value);
	}
	if (typeof value === 'string' && trim) return value.trim();
	return value;
}

/** Entries of a multiple-value fixedCollection, e.g. `{ parameter: [{ text }] }` → `[{ text }]`. */
export function readCollectionEntries(
	context: IExecuteFunctions,
	name: string,
	key: string,
	itemIndex: number,
): Array<Record<string, unknown>> {
	const collection = context.getNodeParameter(name, itemIndex, {}) as Record<string, unknown>;
	const entries = collection?.[key];
	if (Array.isArray(entries)) return entries as Array<Record<string, unknown>>;
	if (entries && typeof entries === 'object') return [entries as Record<string, unknown>];
	return [];
}

/**
 * A JSON field's value: n8n hands over a string when typed, or the value itself when an
 * expression produced an object or array.
 */
export function readJson(
	context: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): unknown {
	const value: unknown = context.getNodeParameter(name, itemIndex, '');
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value) as unknown;
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new NodeOperationError(
			context.getNode(),
			`Item ${itemIndex}: ${label} must be valid JSON — ${reason}`,
			{ itemIndex, description: 'Nothing was sent for this item.' },
		);
	}
}
