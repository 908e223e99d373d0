import { z } from 'zod/v4';

import { placeholderNumbers } from '../helpers/templateContent';
import type { FieldLabels } from './common';
import { CHAT_NUMBER_LABELS, e164PhoneNumber, httpsUrl, requiredText } from './common';
import type { Context, TemplateComponent } from './components.schema';
import {
	checkButtons,
	componentsJsonSchema,
	NEXT_FREE_INDEX,
	QUICK_REPLY_INDEXES,
	quickReplyIndexOrNext,
	urlButtonIndex,
} from './components.schema';
import { isObject } from './componentDefaults';

/**
 * Template message (spec: "Template message object" and "Component object kinds"); also the
 * chat part of a combined send (combined.schema.ts), which the spec says is exactly this object.
 *
 * The input is the editor's fields as the item holds them — body parameters, header image and
 * buttons as fields, or the components array as JSON — and the output is the body the service
 * takes. Every rule of the spec about template messages is checked here, once.
 */

export const LANGUAGE_POLICY = 'deterministic';

export const TEMPLATE_LABELS = {
	...CHAT_NUMBER_LABELS,
	templateName: { label: 'Template Name' },
	templateContent: { label: 'Template Content' },
	languageCode: { label: 'Language Code' },
	languagePolicy: { label: 'Language Policy', at: ['options', 'languagePolicy'] },
	bodyParameters: { label: 'Body Parameters', at: ['bodyParameters', 'parameter'], leaf: 'text', entry: 'Parameter' },
	placeholderValues: {
		label: 'Placeholder Values',
		at: ['placeholderValues', 'value'],
		entryLabel: (position: number) => `{{${position + 1}}}`,
		entryKey: (position: number) => String(position + 1),
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


/* The template fields of the editor: the input of a template send and of a combined send. */

export const templateFields = {
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
	templateContentIsExpression: z.boolean().optional(),
	// Fields mode.
	headerImageUrl: httpsUrl.optional(),
	/** One value per placeholder of Template Content, {{1}} first (the editor's one input per placeholder). */
	placeholderValues: z.array(requiredText).optional(),
	bodyParameters: z.array(requiredText).optional(),
	quickReplyButtons: z.array(z.object({ index: quickReplyIndexOrNext, payload: requiredText })).optional(),
	urlButton: z.object({ index: urlButtonIndex, text: requiredText }).optional(),
	// JSON mode.
	componentsJson: componentsJsonSchema.optional(),
};

type TemplateInput = z.output<z.ZodObject<typeof templateFields>>;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Fields mode's body values: one input per placeholder when used, else the free list. */
function fieldBodyValues(input: Partial<TemplateInput>): string[] {
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

/** The body parameters the send carries, from whichever mode the item uses. */
function bodyValues(input: Partial<TemplateInput>): unknown[] | undefined {
	if (input.componentsJson === undefined) return fieldBodyValues(input);
	if (!Array.isArray(input.componentsJson)) return undefined;
	const body = input.componentsJson.find((component) => isObject(component) && component.type === 'body');
	return isObject(body) && Array.isArray(body.parameters) ? body.parameters : undefined;
}

let lastContent: string | undefined;
let lastReading: { highest: number; problem?: string } = { highest: 0 };

/**
 * Spec: placeholders are numbered from 1 and the parameters follow their numbers, so the
 * content must use 1…N without gaps. Template Content is usually fixed text, the same for every
 * item: the last reading is kept.
 */
function readPlaceholders(content: string): { highest: number; problem?: string } {
	if (content === lastContent) return lastReading;
	const numbers = placeholderNumbers(content);
	const highest = numbers.length === 0 ? 0 : numbers[numbers.length - 1];
	const missing: number[] = [];
	for (let number = 1; number <= highest; number++) if (!numbers.includes(number)) missing.push(number);
	const problem =
		numbers[0] === 0
			? 'must number its placeholders from {{1}}, but uses {{0}}'
			: missing.length > 0
				? `must number its placeholders {{1}} to {{${highest}}} without gaps, but ${missing
						.slice(0, 5)
						.map((number) => `{{${number}}}`)
						.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`
				: undefined;
	lastContent = content;
	lastReading = problem === undefined ? { highest } : { highest, problem };
	return lastReading;
}

/** The fields already refused in this parse (zod's check context carries the issues so far). */
function issuesSoFar(ctx: Context): PropertyKey[] {
	const issues = (ctx as { issues?: Array<{ path?: PropertyKey[] }> }).issues;
	return Array.isArray(issues) ? issues.map((issue) => issue.path?.[0]).filter((key) => key !== undefined) : [];
}

/**
 * Spec: placeholders are written {{1}}, {{2}}, … and the parameters follow their numbers, so a
 * Template Content (when given) must number them 1…N without gaps and the send must carry
 * exactly N body parameters. Plus the button rules for fields mode.
 */
function checkTemplate(input: Partial<TemplateInput>, ctx: Context): void {
	if ((input.quickReplyButtons?.length ?? 0) > 0 || isObject(input.urlButton)) {
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
	if ((input.placeholderValues?.length ?? 0) > 0 && (input.bodyParameters?.length ?? 0) > 0) {
		ctx.addIssue({
			code: 'custom',
			path: ['bodyParameters'],
			input: input.bodyParameters,
			message: `must be empty when Placeholder Values are filled in (got ${plural(
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
	const values = bodyValues(input);
	if (values === undefined || values.length === highest) return;
	// A list whose entries were refused above reached here without them: its count says nothing.
	if (issuesSoFar(ctx).some((path) => path === 'placeholderValues' || path === 'bodyParameters')) return;
	if (input.templateContentIsExpression === true) {
		// n8n evaluated the pasted {{1}}, {{2}}…: a count error would blame the wrong field.
		ctx.addIssue({
			code: 'custom',
			path: ['templateContent'],
			input: input.templateContent,
			message: `is set to Expression: switch it to Fixed (above the field) so {{1}}, {{2}}… stay as written. n8n turns a field into an expression when text with {{ }} is pasted into it empty, and evaluated this one before the node read it: ${plural(
				highest,
				'placeholder',
				'placeholders',
			)} left for ${values.length} ${values.length === 1 ? 'value' : 'values'}`,
		});
		return;
	}
	const given = values.length === 1 ? 'was' : 'were';
	const placeholders = `{{1}}${highest > 1 ? ` to {{${highest}}}` : ''}`;
	const json = input.componentsJson !== undefined;
	// The free list is named only when it is what the item used.
	const list = !json && (input.placeholderValues?.length ?? 0) === 0 && (input.bodyParameters?.length ?? 0) > 0;
	const field = json ? 'componentsJson' : list || highest === 0 ? 'bodyParameters' : 'placeholderValues';
	ctx.addIssue({
		code: 'custom',
		path: [field],
		input: values,
		message:
			highest === 0
				? `must ${json ? 'give the body component no parameters' : 'be empty'}: Template Content has no {{1}}-style placeholders, but ${values.length} ${given} given`
				: field === 'placeholderValues'
					? `must have a value for each placeholder of Template Content (${placeholders}), but ${values.length} ${given} given`
					: `must ${json ? 'give the body component' : 'have'} ${plural(highest, json ? 'parameter' : 'entry', json ? 'parameters' : 'entries')}, one for each placeholder of Template Content (${placeholders}), but ${values.length} ${given} given`,
	});
}

export const templateChecks = z.superRefine(checkTemplate);
// Run even when a field has a type error, so one run reports every problem of the item (zod
// 3.25's v4 API honours `when` on the check, not yet as a parameter).
templateChecks._zod.when = () => true;

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

export const templateSendSchema = z.object(templateFields).check(templateChecks).transform(toTemplateMessage);
