import { z } from 'zod/v4';

import { e164PhoneNumber, httpsUrl, requiredText } from '../../schemas/common';
import type { Context } from './components.schema';
import {
	checkButtons,
	componentsJsonSchema,
	isObject,
	NEXT_FREE_INDEX,
	QUICK_REPLY_INDEXES,
	quickReplyIndexOrNext,
	urlButtonIndex,
} from './components.schema';

/**
 * A template send as the node reads it from the editor's fields (the shape each field is judged
 * by), and the rules that span several fields, checked after each field's own rule.
 */

/** The template part of a send as the node reads it from the editor's fields: the input of a template send and of a combined send. */
export const templateInputShape = {
	from: e164PhoneNumber,
	to: e164PhoneNumber,
	templateName: requiredText,
	languageCode: requiredText,
	languagePolicy: requiredText,
	/** Optional check text; not sent. */
	templateContent: z.string().optional(),
	/**
	 * Whether Template Content is set to Expression in the editor (n8n switches a field to
	 * Expression when text with {{ }} is pasted into it empty): its placeholders were then
	 * evaluated by n8n before the node read the text. Not sent.
	 */
	templateTextTurnedIntoExpression: z.boolean().optional(),
	// Fields mode.
	headerImageUrl: httpsUrl.optional(),
	/** One value per placeholder of Template Content, {{1}} first (the editor's one input per placeholder). */
	placeholderValues: z.array(requiredText).optional(),
	bodyParameters: z.array(requiredText).optional(),
	quickReplyButtons: z.array(z.object({ index: quickReplyIndexOrNext, payload: requiredText })).optional(),
	urlButton: z.object({ index: urlButtonIndex, text: requiredText }).optional(),
	// JSON mode.
	componentsJson: componentsJsonSchema.optional(),
	/**
	 * Added by `withListLengths`: how many values each list had before any was judged, and whether
	 * Components (JSON) was given at all (JSON mode, even when its value is refused).
	 */
	listLengths: z
		.object({ placeholderValues: z.number().optional(), bodyParameters: z.number().optional(), componentsJsonGiven: z.boolean().optional() })
		.optional(),
};

/**
 * The candidate with the lengths of its two value lists, taken before zod judges their
 * entries: a list with a refused entry is left out of what the cross-field check sees, and its
 * count must still be right ("3 were given", not "0"). A refused Components (JSON) is left out
 * too, and the check must not then count the fields mode's lists the user is not using.
 */
export function withListLengths(raw: unknown): unknown {
	if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
	const { placeholderValues, bodyParameters, componentsJson } = raw as Record<string, unknown>;
	const length = (list: unknown) => (Array.isArray(list) ? list.length : undefined);
	return {
		...raw,
		listLengths: { placeholderValues: length(placeholderValues), bodyParameters: length(bodyParameters), componentsJsonGiven: componentsJson !== undefined },
	};
}

export type TemplateInput = z.output<z.ZodObject<typeof templateInputShape>>;

// The rules that span several fields (spec: placeholders and body parameters, button positions).

// Spec "Content": placeholders are written {{1}}, {{2}}, …
const PLACEHOLDER = /\{\{(\d+)\}\}/g;

/** The distinct placeholder numbers the content uses, ascending. */
export function placeholderNumbers(content: string): number[] {
	const numbers = new Set<number>();
	for (const match of content.matchAll(PLACEHOLDER)) numbers.add(Number(match[1]));
	return [...numbers].sort((a, b) => a - b);
}

/** The content with every placeholder filled in: what the recipient reads. */
export function fillPlaceholders(content: string, values: readonly string[]): string {
	return content.replace(PLACEHOLDER, (placeholder, number: string) => values[Number(number) - 1] ?? placeholder);
}

/** How many placeholders have an input of their own in the editor (Placeholder Values). */
export const PLACEHOLDER_INPUT_COUNT = 20;
/** The parameter holding the value of {{number}}. */
export const placeholderInputName = (number: number): string => `placeholder${number}`;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Fields mode's body values: one input per placeholder when used, else the free list. */
export function fieldBodyValues(input: Partial<TemplateInput>): string[] {
	return (input.placeholderValues?.length ?? 0) > 0 ? (input.placeholderValues ?? []) : (input.bodyParameters ?? []);
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

type CountedField = 'componentsJson' | 'placeholderValues' | 'bodyParameters';

/**
 * How many body parameters the send carries and from which field; undefined when they cannot be
 * counted (JSON that is not a list, or refused). Fields mode counts the lists as given, a refused entry
 * included (`listLengths`): the inputs {{1}}… when used, else the free list.
 */
function bodyCount(input: Partial<TemplateInput>): { field: CountedField; count: number; values?: unknown[] } | undefined {
	if (input.componentsJson !== undefined || input.listLengths?.componentsJsonGiven === true) {
		if (!Array.isArray(input.componentsJson)) return undefined;
		const body = input.componentsJson.find((component) => isObject(component) && component.type === 'body');
		if (!isObject(body) || !Array.isArray(body.parameters)) return undefined;
		return { field: 'componentsJson', count: body.parameters.length, values: body.parameters };
	}
	const inputs = input.listLengths?.placeholderValues ?? input.placeholderValues?.length ?? 0;
	if (inputs > 0) return { field: 'placeholderValues', count: inputs, values: input.placeholderValues };
	const count = input.listLengths?.bodyParameters ?? input.bodyParameters?.length ?? 0;
	return { field: 'bodyParameters', count, values: input.bodyParameters };
}

/**
 * Spec: placeholders are numbered from 1 and the parameters follow their numbers, so the
 * content must use 1…N without gaps.
 */
function readPlaceholders(content: string): { highest: number; problem?: string } {
	const numbers = placeholderNumbers(content);
	const highest = numbers.at(-1) ?? 0;
	if (numbers[0] === 0) return { highest, problem: 'must number its placeholders from {{1}}, but uses {{0}}' };
	// Counted, not listed: a stray {{99999999}} must not make a list of every number below it.
	const missing = highest - numbers.length;
	if (missing === 0) return { highest };
	const used = new Set(numbers);
	const named: string[] = [];
	for (let number = 1; named.length < Math.min(5, missing); number++) if (!used.has(number)) named.push(`{{${number}}}`);
	return {
		highest,
		problem: `must number its placeholders {{1}} to {{${highest}}} without gaps, but ${named.join(', ')} ${missing === 1 ? 'is' : 'are'} missing`,
	};
}

function checkButtonPositions(input: Partial<TemplateInput>, ctx: Context): void {
	const quickReplies = input.quickReplyButtons ?? [];
	const indexes = resolveQuickReplyIndexes(
		quickReplies.map((button) => button?.index),
		isObject(input.urlButton) ? input.urlButton.index : undefined,
	);
	checkButtons(
		ctx,
		[
			...quickReplies.map((_button, position) => ({
				quickReply: true,
				index: indexes[position],
				path: ['quickReplyButtons', position],
			})),
			...(isObject(input.urlButton) ? [{ quickReply: false, index: input.urlButton.index, path: ['urlButton'] }] : []),
		],
		['quickReplyButtons'],
	);
}

/** The count rule's message for the field the item used. */
function countMessage(field: CountedField, highest: number, count: number): string {
	const given = `${count} ${count === 1 ? 'was' : 'were'} given`;
	const placeholders = `{{1}}${highest > 1 ? ` to {{${highest}}}` : ''}`;
	const none = 'Template Content has no {{1}}-style placeholders';
	if (field === 'componentsJson') {
		return highest === 0
			? `must give the body component no parameters: ${none}, but ${given}`
			: `must give the body component ${plural(highest, 'parameter', 'parameters')}, one for each placeholder of Template Content (${placeholders}), but ${given}`;
	}
	if (field === 'placeholderValues') {
		const longer =
			highest > PLACEHOLDER_INPUT_COUNT
				? `: inputs go up to {{${PLACEHOLDER_INPUT_COUNT}}}, so for a longer template leave them empty and fill Body Parameters with all ${highest} values`
				: count === 0
					? `: fill in ${highest === 1 ? 'the input' : 'the inputs'} ${placeholders} below Template Content (Body Parameters is used only while Template Content is empty)`
					: '';
		return `must have a value for each placeholder of Template Content (${placeholders}), but ${given}${longer}`;
	}
	return highest === 0
		? `must be empty: ${none}, but ${given}`
		: `must have ${plural(highest, 'entry', 'entries')}, one for each placeholder of Template Content (${placeholders}), but ${given}`;
}

/**
 * Spec: placeholders are written {{1}}, {{2}}, … and the parameters follow their numbers, so a
 * Template Content (when given) must number them 1…N without gaps and the send must carry
 * exactly N body parameters. Plus the button rules for fields mode.
 */
function checkTemplate(input: Partial<TemplateInput>, ctx: Context): void {
	if ((input.quickReplyButtons?.length ?? 0) > 0 || isObject(input.urlButton)) checkButtonPositions(input, ctx);
	if ((input.placeholderValues?.length ?? 0) > 0 && (input.bodyParameters?.length ?? 0) > 0) {
		ctx.addIssue({
			code: 'custom',
			path: ['bodyParameters'],
			input: input.bodyParameters,
			message: `must be empty when the {{1}}, {{2}}, … inputs are filled in (got ${plural(
				input.bodyParameters?.length ?? 0,
				'entry',
				'entries',
			)}): remove them, the list is for templates entered without their text`,
		});
	}
	if (typeof input.templateContent !== 'string') return;
	const { highest, problem } = readPlaceholders(input.templateContent);
	if (problem !== undefined) {
		ctx.addIssue({ code: 'custom', path: ['templateContent'], input: input.templateContent, message: problem });
		return;
	}
	if (input.templateTextTurnedIntoExpression === true) {
		// n8n evaluated the pasted {{1}}, {{2}}…: whatever the counts, the message would go out
		// without the values the template needs, and a count error would blame the wrong field.
		ctx.addIssue({
			code: 'custom',
			path: ['templateContent'],
			input: input.templateContent,
			message:
				'is set to Expression: click Fixed above the field so {{1}}, {{2}}… stay as written. n8n turns a field into an expression when text with {{ }} is pasted into it empty, and then reads {{1}} as the number 1',
		});
		return;
	}
	const body = bodyCount(input);
	if (body === undefined || body.count === highest) return;
	// Nothing given at all: the inputs below Template Content are what the user sees empty.
	const field = body.field === 'bodyParameters' && body.count === 0 && highest > 0 ? 'placeholderValues' : body.field;
	ctx.addIssue({ code: 'custom', path: [field], input: body.values, message: countMessage(field, highest, body.count) });
}

export const templateChecks = z.superRefine(checkTemplate);
// Run even when a field has a type error, so one run reports every problem of the item (zod
// 3.25's v4 API honours `when` on the check, not yet as a parameter).
templateChecks._zod.when = () => true;
