import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** `{{ $json.field }}` or `{{ $json["field"] }}`: the field name is group 1, 2 or 3. */
const JSON_FIELD = String.raw`\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\])\s*\}\}`;
const WHOLE = new RegExp(`^=${JSON_FIELD}$`);
const SEGMENT = new RegExp(JSON_FIELD, 'g');

/**
 * `={{ $json.field }}` or `={{ $json["field"] }}`, nothing else: the field name, or undefined.
 * The commonest expression in a workflow; see {@link readParameter}.
 */
export function jsonFieldOf(raw: unknown): string | undefined {
	if (typeof raw !== 'string' || !raw.startsWith('={{')) return undefined;
	const match = WHOLE.exec(raw);
	return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

const own = Object.prototype.hasOwnProperty;

/** What {@link direct} returns when n8n must evaluate the value. */
const EVALUATE = Symbol('evaluate');

function fieldValue(json: Record<string, unknown> | undefined, field: string): unknown {
	return json && own.call(json, field) ? json[field] : undefined;
}

/**
 * An expression (`=…`) resolved without n8n's engine, or EVALUATE. Two forms only:
 * exactly `={{ $json.field }}` whose field holds a text, number or boolean (n8n gives that value
 * as it is), and text with `{{ $json.field }}` parts whose fields all hold text (n8n joins them).
 */
function expression(raw: string, json: Record<string, unknown> | undefined): unknown {
	const whole = jsonFieldOf(raw);
	if (whole !== undefined) {
		const value = fieldValue(json, whole);
		return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : EVALUATE;
	}
	const template = raw.slice(1);
	let text = '';
	let last = 0;
	for (const match of template.matchAll(SEGMENT)) {
		const before = template.slice(last, match.index);
		const value = fieldValue(json, match[1] ?? match[2] ?? match[3]);
		if (before.includes('{{') || before.includes('}}') || typeof value !== 'string') return EVALUATE;
		text += before + value;
		last = match.index + match[0].length;
	}
	const rest = template.slice(last);
	return rest.includes('{{') || rest.includes('}}') ? EVALUATE : text + rest;
}

/**
 * A raw parameter value resolved without n8n's expression engine, or EVALUATE. Literals are
 * n8n's values as they are (collections copied, as n8n copies them); expressions see
 * {@link expression}.
 */
function direct(raw: unknown, json: Record<string, unknown> | undefined): unknown {
	if (typeof raw === 'string') return raw.startsWith('=') ? expression(raw, json) : raw;
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
 * Reads a parameter of one item. Literal values, and expressions made only of `{{ $json.field }}`
 * parts (see {@link expression}), are read straight from the node and the input item: the value
 * n8n's expression engine would give (`$json` is the item's `json`), without its cost (about
 * 60 µs an expression, most of the node's per-item time). Any other expression, and any other
 * outcome (missing field, object, null), makes the whole value go through n8n's
 * `getNodeParameter` as usual, so its results and errors are n8n's own.
 */
export function readParameter(context: IExecuteFunctions, name: string, itemIndex: number, fallback: unknown): unknown {
	const { raw, items } = rawOf(context, name);
	const value = direct(raw === ABSENT ? fallback : raw, items[itemIndex]?.json as Record<string, unknown> | undefined);
	return value === EVALUATE ? (context.getNodeParameter(name, itemIndex, fallback) as unknown) : value;
}

interface RawParameters {
	items: INodeExecutionData[];
	values: Map<string, unknown>;
}

/** Per execution: the input items and each parameter as written (the same for every item). */
const rawParameters = new WeakMap<IExecuteFunctions, RawParameters>();

/** What n8n hands back for a parameter the node does not have: the caller's fallback applies. */
const ABSENT = Symbol('absent');

function rawOf(context: IExecuteFunctions, name: string): { raw: unknown; items: INodeExecutionData[] } {
	let cached = rawParameters.get(context);
	if (cached === undefined) {
		cached = { items: context.getInputData(), values: new Map() };
		rawParameters.set(context, cached);
	}
	if (!cached.values.has(name)) {
		cached.values.set(name, context.getNodeParameter(name, 0, ABSENT, { rawExpressions: true }) as unknown);
	}
	return { raw: cached.values.get(name), items: cached.items };
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
