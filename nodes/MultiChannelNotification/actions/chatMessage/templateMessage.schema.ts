import { z } from 'zod/v4';

import type { FieldLabels } from '../../schemas/common';
import { CHAT_NUMBER_LABELS, e164PhoneNumber, httpsUrl, requiredText } from '../../schemas/common';
import { ITEM_OPTIONS_LABELS } from '../../schemas/itemOptions.schema';
import type { Context, TemplateComponent } from './components.schema';
import {
	checkFieldButtons,
	componentsJsonSchema,
	isObject,
	QUICK_REPLY_INDEXES,
	quickReplyIndexOrNext,
	resolveQuickReplyIndexes,
	urlButtonIndex,
} from './components.schema';

/**
 * Template message (spec: "Template message object" and "Component object kinds"); also the
 * chat part of a combined send (combined.schema.ts), which the spec says is exactly this object.
 *
 * The input is the editor's fields as the item holds them — body parameters, header image and
 * buttons as fields, or the components array as JSON — and the output is the body the service
 * takes. Every rule of the spec about template messages is checked here, once: each field's own
 * rule in the input's shape, then the rules that span several fields.
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
	if ((input.quickReplyButtons?.length ?? 0) > 0 || isObject(input.urlButton)) {
		checkFieldButtons(input.quickReplyButtons ?? [], input.urlButton, ctx);
	}
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

export const TEMPLATE_LABELS = {
	...CHAT_NUMBER_LABELS,
	templateName: { label: 'Template Name' },
	templateContent: { label: 'Template Content' },
	languageCode: { label: 'Language Code' },
	languagePolicy: ITEM_OPTIONS_LABELS.languagePolicy,
	bodyParameters: { label: 'Body Parameters', at: ['bodyParameters', 'parameter'], leaf: 'text', entry: 'Parameter' },
	placeholderValues: {
		label: 'Placeholder Values',
		// Each value is its own parameter, placeholder1 … placeholderN, labelled {{1}} … {{N}}.
		at: [placeholderInputName(1)],
		entryLabel: (position: number) => `{{${position + 1}}}`,
		entryKey: (position: number) => placeholderInputName(position + 1),
	},
	headerImageUrl: { label: 'Header Image URL' },
	quickReplyButtons: {
		label: 'Quick Reply Buttons',
		at: ['quickReplyButtons', 'button'],
		entry: 'Button',
		parts: { index: 'Index', payload: 'Payload' },
	},
	urlButton: { label: 'URL Button', at: ['urlButton', 'button'], parts: { index: 'Index', text: 'URL Parameter' } },
	componentsJson: { label: 'Components (JSON)', json: true },
} satisfies FieldLabels;

export type TemplateMessage = {
	from: string;
	to: string;
	type: 'template';
	template: { name: string; language: { policy: string; code: string }; components: TemplateComponent[] };
};

/** The request body from validated fields; fields mode always sends the body component (rule 1). */
export function toTemplateMessage(input: TemplateInput): TemplateMessage {
	const quickReplies = input.quickReplyButtons ?? [];
	// Validated before: every Next Free Position has a free position.
	const indexes = resolveQuickReplyIndexes(
		quickReplies.map((button) => button.index),
		input.urlButton?.index,
	) as Array<(typeof QUICK_REPLY_INDEXES)[number]>;
	const components: TemplateComponent[] = input.componentsJson ?? [
		...(input.headerImageUrl
			? [{ type: 'header' as const, parameters: [{ type: 'image' as const, image: { link: input.headerImageUrl } }] }]
			: []),
		{ type: 'body', parameters: fieldBodyValues(input).map((text) => ({ type: 'text' as const, text })) },
		...quickReplies.map(({ payload }, position) => ({
			type: 'button' as const,
			sub_type: 'quick_reply' as const,
			index: indexes[position],
			parameters: [{ type: 'payload' as const, payload }],
		})),
		...(input.urlButton
			? [
					{
						type: 'button' as const,
						sub_type: 'url' as const,
						index: input.urlButton.index,
						parameters: [{ type: 'text' as const, text: input.urlButton.text }],
					},
				]
			: []),
	];
	return {
		from: input.from,
		to: input.to,
		type: 'template',
		template: {
			name: input.templateName,
			language: { policy: input.languagePolicy, code: input.languageCode },
			components,
		},
	};
}

export const templateSendSchema = z
	.preprocess(withListLengths, z.object(templateInputShape))
	.check(templateChecks)
	.transform(toTemplateMessage);
