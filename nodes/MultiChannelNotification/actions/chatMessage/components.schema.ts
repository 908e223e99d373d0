import { z } from 'zod/v4';

import { httpsUrl, requiredText } from '../../schemas/common';

/**
 * Template components as the service takes them (spec: "Component object kinds"): what
 * Components (JSON) is checked against, and the button rules both ways of giving buttons share.
 */

const MAX_QUICK_REPLIES = 3;
export const QUICK_REPLY_INDEXES = ['0', '1', '2'] as const;
/** A quick reply's Index left to the node: the lowest position no other button uses, in list order. */
export const NEXT_FREE_INDEX = 'auto';

// Spec: Limits → 3 quick reply buttons at most, index values 0 to 2.
const QUICK_REPLY_INDEX_RULE = { error: 'must be 0, 1 or 2 (a template has at most 3 quick reply buttons)' };
const quickReplyIndex = z.enum(QUICK_REPLY_INDEXES, QUICK_REPLY_INDEX_RULE);
export const quickReplyIndexOrNext = z.enum([NEXT_FREE_INDEX, ...QUICK_REPLY_INDEXES], QUICK_REPLY_INDEX_RULE);
// Spec: a URL button's index is "string position of the button; default 0".
export const urlButtonIndex = z.string().regex(/^\d+$/, { error: 'must be a button position: 0, 1 or 2' });
export const URL_BUTTON_DEFAULT_INDEX = '0';

type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Components (JSON) may leave out what the spec marks "(default)" in "Component object kinds":
 * a component's `type` (button when it has `sub_type` or `index`, else body), a body
 * parameter's `type` (text), a button's `sub_type` (quick_reply) and a URL button's `index`
 * (0). An `index` given as a whole number becomes the string the service takes. Everything else
 * is left for the schema to judge.
 */
function withComponentDefaults(value: unknown): unknown {
	if (!Array.isArray(value)) return value;
	return value.map((entry: unknown) => {
		if (!isObject(entry)) return entry;
		const component: JsonObject = { ...entry };
		if (component.type === undefined) {
			component.type = 'sub_type' in component || 'index' in component ? 'button' : 'body';
		}
		if (component.type === 'body' && Array.isArray(component.parameters)) {
			component.parameters = component.parameters.map((parameter: unknown) =>
				isObject(parameter) && parameter.type === undefined ? { type: 'text', ...parameter } : parameter,
			);
		}
		if (component.type === 'button') {
			if (component.sub_type === undefined) component.sub_type = 'quick_reply';
			if (component.sub_type === 'url' && component.index === undefined) component.index = URL_BUTTON_DEFAULT_INDEX;
			if (Number.isInteger(component.index)) component.index = String(component.index);
		}
		return component;
	});
}

const ONE_ENTRY = 'must have exactly 1 entry';

const textParameter = z.strictObject({ type: z.literal('text'), text: requiredText });

const headerComponentSchema = z.strictObject({
	type: z.literal('header'),
	parameters: z
		.array(z.strictObject({ type: z.literal('image'), image: z.strictObject({ link: httpsUrl }) }))
		.length(1, { error: ONE_ENTRY }),
});

const bodyComponentSchema = z.strictObject({
	type: z.literal('body'),
	// Ordered by placeholder number: parameters[0] fills {{1}}. An empty list is allowed for a
	// template whose content has no placeholders; the component itself is still required.
	parameters: z.array(textParameter),
});

const quickReplyButtonSchema = z.strictObject({
	type: z.literal('button'),
	sub_type: z.literal('quick_reply'),
	index: quickReplyIndex,
	parameters: z.array(z.strictObject({ type: z.literal('payload'), payload: requiredText })).length(1, { error: ONE_ENTRY }),
});

const urlButtonSchema = z.strictObject({
	type: z.literal('button'),
	sub_type: z.literal('url'),
	index: urlButtonIndex,
	parameters: z.array(textParameter).length(1, { error: ONE_ENTRY }),
});

const schemaByKind = {
	header: headerComponentSchema,
	body: bodyComponentSchema,
	quickReply: quickReplyButtonSchema,
	url: urlButtonSchema,
} as const;
type ComponentKind = keyof typeof schemaByKind;
export type TemplateComponent = z.output<(typeof schemaByKind)[ComponentKind]>;

function componentKind({ type, sub_type: subType }: Record<string, unknown>): ComponentKind | undefined {
	if (type === 'header' || type === 'body') return type;
	if (type === 'button' && subType === 'quick_reply') return 'quickReply';
	if (type === 'button' && subType === 'url') return 'url';
	return undefined;
}

type Path = Array<string | number>;
export type Context = z.RefinementCtx<unknown>;

/**
 * Spec rule 2 and Limits: at most 3 quick reply buttons; and since `index` is the button's
 * position in the template, two buttons cannot share one. Shared by both ways of giving buttons.
 */
export function checkButtons(
	ctx: Context,
	buttons: Array<{ quickReply: boolean; index: unknown; path: Path }>,
	listPath: Path,
): void {
	const quickReplies = buttons.filter((button) => button.quickReply).length;
	if (quickReplies > MAX_QUICK_REPLIES) {
		ctx.addIssue({
			code: 'custom',
			path: listPath,
			input: buttons,
			message: `must have at most ${MAX_QUICK_REPLIES} quick reply buttons (got ${quickReplies})`,
		});
	}
	const used = new Set<unknown>();
	for (const { index, path } of buttons) {
		// An unresolved Next Free Position means more than 3 buttons: reported above.
		if (typeof index !== 'string' || index === NEXT_FREE_INDEX) continue;
		if (used.has(index)) {
			ctx.addIssue({
				code: 'custom',
				path: [...path, 'index'],
				input: index,
				message: `must be unique: position ${index} is already used by another button`,
			});
		}
		used.add(index);
	}
}

/**
 * The quick replies' positions with Next Free Position resolved: in list order, each takes the
 * lowest position that no button (quick reply or URL) has by choice. Positions given by choice
 * are kept as they are, so a clash between them is still reported.
 */
export function resolveQuickReplyIndexes(indexes: readonly unknown[], urlButtonIndex?: unknown): unknown[] {
	const taken = new Set<unknown>([...indexes.filter((index) => index !== NEXT_FREE_INDEX), urlButtonIndex]);
	return indexes.map((index) => {
		if (index !== NEXT_FREE_INDEX) return index;
		const free = QUICK_REPLY_INDEXES.find((position) => !taken.has(position));
		if (free === undefined) return index;
		taken.add(free);
		return free;
	});
}

/** Fields mode's buttons (Quick Reply Buttons and URL Button), Next Free Position resolved, against the button rules. */
export function checkFieldButtons(
	quickReplies: ReadonlyArray<{ index?: unknown } | undefined>,
	urlButton: unknown,
	ctx: Context,
): void {
	const indexes = resolveQuickReplyIndexes(
		quickReplies.map((button) => button?.index),
		isObject(urlButton) ? urlButton.index : undefined,
	);
	checkButtons(
		ctx,
		[
			...quickReplies.map((_button, position) => ({
				quickReply: true,
				index: indexes[position],
				path: ['quickReplyButtons', position],
			})),
			...(isObject(urlButton) ? [{ quickReply: false, index: urlButton.index, path: ['urlButton'] }] : []),
		],
		['quickReplyButtons'],
	);
}

/** Components (JSON) as the item holds it: JSON text, or the array an expression produced. */
function parseComponents(raw: unknown, ctx: Context): unknown {
	if (typeof raw !== 'string') return raw;
	if (raw.trim() === '') return undefined;
	try {
		return JSON.parse(raw) as unknown;
	} catch (error) {
		ctx.addIssue({
			code: 'custom',
			input: raw,
			message: `must be valid JSON — ${error instanceof Error ? error.message : String(error)}`,
		});
		return z.NEVER;
	}
}

/** Components (JSON) as a list, the spec's defaults filled in; undefined once it is refused. */
function componentList(raw: unknown, ctx: Context): unknown[] | undefined {
	const components = withComponentDefaults(parseComponents(raw, ctx));
	if (components === z.NEVER) return undefined;
	if (!Array.isArray(components)) {
		ctx.addIssue({ code: 'custom', input: components, message: 'must be a list (JSON array) of components' });
		return undefined;
	}
	return components;
}

/** One component checked against its kind's schema; its kind, or undefined when it has none. */
function checkComponent(component: JsonObject, position: number, ctx: Context): ComponentKind | undefined {
	const kind = componentKind(component);
	if (kind === undefined) {
		const button = component.type === 'button';
		ctx.addIssue({
			code: 'custom',
			path: [position, button ? 'sub_type' : 'type'],
			input: button ? component.sub_type : component.type,
			message: button ? 'must be "quick_reply" or "url" for a button component' : 'must be "header", "body" or "button"',
		});
		return undefined;
	}
	const parsed = schemaByKind[kind].safeParse(component, { reportInput: true });
	if (!parsed.success) {
		for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [position, ...issue.path] });
	}
	return kind;
}

/** Spec rule 1: exactly one body component; and at most one header. */
function checkComponentCounts(counts: Record<ComponentKind, number>, components: unknown[], ctx: Context): void {
	if (counts.body !== 1) {
		ctx.addIssue({
			code: 'custom',
			input: components,
			message:
				counts.body === 0
					? 'must include the body component (it is required, even with no parameters: {"type": "body", "parameters": []})'
					: `must include only one body component (got ${counts.body})`,
		});
	}
	if (counts.header > 1) {
		ctx.addIssue({
			code: 'custom',
			input: components,
			message: `must include at most one header component (got ${counts.header})`,
		});
	}
}

export const componentsJsonSchema = z.unknown().transform((raw, ctx) => {
	const components = componentList(raw, ctx);
	if (components === undefined) return z.NEVER;
	const counts: Record<ComponentKind, number> = { header: 0, body: 0, quickReply: 0, url: 0 };
	const buttons: Array<{ quickReply: boolean; index: unknown; path: Path }> = [];
	components.forEach((component: unknown, position) => {
		if (!isObject(component)) {
			ctx.addIssue({ code: 'custom', path: [position], input: component, message: 'must be a component object' });
			return;
		}
		const kind = checkComponent(component, position, ctx);
		if (kind === undefined) return;
		counts[kind] += 1;
		if (kind === 'quickReply' || kind === 'url') {
			buttons.push({ quickReply: kind === 'quickReply', index: component.index, path: [position] });
		}
	});
	checkButtons(ctx, buttons, []);
	checkComponentCounts(counts, components, ctx);
	return components as TemplateComponent[];
});
