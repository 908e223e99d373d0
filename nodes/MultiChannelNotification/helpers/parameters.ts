import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * `={{ $json.field }}` or `={{ $json["field"] }}`, nothing else: the field name, or undefined.
 * The commonest expression in a workflow; see {@link readParameter}.
 */
export function jsonFieldOf(raw: unknown): string | undefined {
	if (typeof raw !== 'string' || !raw.startsWith('={{')) return undefined;
	const match = /^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\])\s*\}\}$/.exec(raw);
	return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

const own = Object.prototype.hasOwnProperty;

/** What {@link direct} returns when n8n must evaluate the value. */
const EVALUATE = Symbol('evaluate');

/**
 * A raw parameter value resolved without n8n's expression engine, or EVALUATE. Literals are
 * n8n's values as they are (collections copied, as n8n copies them); the only expression taken
 * is `{{ $json.field }}` whose field holds a text, number or boolean.
 */
function direct(raw: unknown, json: Record<string, unknown> | undefined): unknown {
	if (typeof raw === 'string') {
		if (!raw.startsWith('=')) return raw;
		const field = jsonFieldOf(raw);
		const value = field !== undefined && json && own.call(json, field) ? json[field] : undefined;
		return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : EVALUATE;
	}
	if (raw === null || typeof raw !== 'object') return raw;
	if (Array.isArray(raw)) {
		const copy: unknown[] = [];
		for (const each of raw) {
			const value = direct(each, json);
			if (value === EVALUATE) return EVALUATE;
			copy.push(value);
		}
		return copy;
	}
	const copy: Record<string, unknown> = {};
	for (const key of Object.keys(raw)) {
		const value = direct((raw as Record<string, unknown>)[key], json);
		if (value === EVALUATE) return EVALUATE;
		copy[key] = value;
	}
	return copy;
}

/**
 * Reads a parameter of one item. Literal values, and a parameter that is exactly
 * `{{ $json.field }}` finding a text, number or boolean there, are read straight from the node
 * and the input item: the value n8n's expression engine would give (`$json` is the item's
 * `json`), without its cost (about 60 µs an expression, most of the node's per-item time). Any
 * other expression, and any other outcome (missing field, object, null), makes the whole value go
 * through n8n's `getNodeParameter` as usual, so its results and errors are n8n's own.
 */
export function readParameter(context: IExecuteFunctions, name: string, itemIndex: number, fallback: unknown): unknown {
	const raw = context.getNodeParameter(name, itemIndex, fallback, { rawExpressions: true }) as unknown;
	const json = context.getInputData()[itemIndex]?.json as Record<string, unknown> | undefined;
	const value = direct(raw, json);
	return value === EVALUATE ? (context.getNodeParameter(name, itemIndex, fallback) as unknown) : value;
}

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
	return asText(readParameter(context, name, itemIndex, ''), options);
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
	const collection = readParameter(context, name, itemIndex, {}) as Record<string, unknown>;
	const entries = collection?.[key];
	if (Array.isArray(entries)) return entries as Array<Record<string, unknown>>;
	if (entries && typeof entries === 'object') return [entries as Record<string, unknown>];
	return [];
}
