import { z } from 'zod/v4';

import { placeholderNumbers } from '../helpers/templateContent';
import type { FieldLabels } from './common';
import { CHAT_NUMBER_LABELS, e164PhoneNumber, httpsUrl, requiredText } from './common';
import { isObject, withComponentDefaults } from './componentDefaults';

/**
 * Template message (spec: "Template message object" and "Component object kinds"); also the
 * chat part of a combined send (combined.schema.ts), which the spec says is exactly this object.
 *
 * The input is the editor's fields as the item holds them — body parameters, header image and
 * buttons as fields, or the components array as JSON — and the output is the body the service
 * takes. Every rule of the spec about template messages is checked here, once.
 */

export const LANGUAGE_POLICY = 'deterministic';
export const MAX_QUICK_REPLIES = 3;
export const QUICK_REPLY_INDEXES = ['0', '1', '2'] as const;

export const TEMPLATE_LABELS = {
	...CHAT_NUMBER_LABELS,
	templateName: { label: 'Template Name' },
	templateContent: { label: 'Template Content' },
	languageCode: { label: 'Language Code' },
	languagePolicy: { label: 'Language Policy', at: ['options', 'languagePolicy'] },
	bodyParameters: { label: 'Body Parameters', at: ['bodyParameters', 'parameter'], leaf: 'text', entry: 'Parameter' },
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

// Spec: Limits → 3 quick reply buttons at most, index values 0 to 2.
const quickReplyIndex = z.enum(QUICK_REPLY_INDEXES, {
	error: 'must be 0, 1 or 2 (a template has at most 3 quick reply buttons)',
});
// Spec: a URL button's index is the string position of the button.
const urlButtonIndex = z.string().regex(/^\d+$/, { error: 'must be a button position: 0, 1 or 2' });

/* The components as the service takes them: what Components (JSON) is checked against. */

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

export type HeaderComponent = z.output<typeof headerComponentSchema>;
export type BodyComponent = z.output<typeof bodyComponentSchema>;
export type QuickReplyButton = z.output<typeof quickReplyButtonSchema>;
export type UrlButton = z.output<typeof urlButtonSchema>;
export type TemplateComponent = HeaderComponent | BodyComponent | QuickReplyButton | UrlButton;

const schemaByKind = {
	header: headerComponentSchema,
	body: bodyComponentSchema,
	quickReply: quickReplyButtonSchema,
	url: urlButtonSchema,
} as const;
type ComponentKind = keyof typeof schemaByKind;

function componentKind(component: unknown): ComponentKind | undefined {
	const { type, sub_type: subType } = component as { type?: unknown; sub_type?: unknown };
	if (type === 'header' || type === 'body') return type;
	if (type === 'button' && subType === 'quick_reply') return 'quickReply';
	if (type === 'button' && subType === 'url') return 'url';
	return undefined;
}

type Path = Array<string | number>;
type Context = z.RefinementCtx<unknown>;


/**
 * Spec rule 2 and Limits: at most 3 quick reply buttons; and since `index` is the button's
 * position in the template, two buttons cannot share one. Shared by both ways of giving buttons.
 */
function checkButtons(
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
		if (typeof index !== 'string') continue;
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

export const componentsJsonSchema = z.unknown().transform((raw, ctx) => {
	const components = withComponentDefaults(parseComponents(raw, ctx));
	if (components === z.NEVER) return z.NEVER;
	if (!Array.isArray(components)) {
		ctx.addIssue({ code: 'custom', input: components, message: 'must be a list (JSON array) of components' });
		return z.NEVER;
	}
	const counts: Record<ComponentKind, number> = { header: 0, body: 0, quickReply: 0, url: 0 };
	const buttons: Array<{ quickReply: boolean; index: unknown; path: Path }> = [];
	components.forEach((component: unknown, position) => {
		const kind = isObject(component) ? componentKind(component) : undefined;
		if (kind === undefined) {
			const type = isObject(component) ? component.type : undefined;
			ctx.addIssue({
				code: 'custom',
				path: !isObject(component) ? [position] : type === 'button' ? [position, 'sub_type'] : [position, 'type'],
				input: !isObject(component) ? component : type === 'button' ? component.sub_type : type,
				message: !isObject(component)
					? 'must be a component object'
					: type === 'button'
						? 'must be "quick_reply" or "url" for a button component'
						: 'must be "header", "body" or "button"',
			});
			return;
		}
		counts[kind] += 1;
		const parsed = schemaByKind[kind].safeParse(component, { reportInput: true });
		if (!parsed.success) {
			for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [position, ...issue.path] });
		}
		if (kind === 'quickReply' || kind === 'url') {
			buttons.push({ quickReply: kind === 'quickReply', index: (component as { index?: unknown }).index, path: [position] });
		}
	});
	checkButtons(ctx, buttons, []);
	// Spec rule 1: the body component is required.
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
	return components as TemplateComponent[];
});

/* The template fields of the editor: the input of a template send and of a combined send. */

export const templateFields = {
	from: e164PhoneNumber,
	to: e164PhoneNumber,
	templateName: requiredText,
	languageCode: requiredText,
	languagePolicy: requiredText,
	/** Optional check text; not sent. */
	templateContent: z.string().optional(),
	// Fields mode.
	headerImageUrl: httpsUrl.optional(),
	bodyParameters: z.array(requiredText).optional(),
	quickReplyButtons: z.array(z.object({ index: quickReplyIndex, payload: requiredText })).optional(),
	urlButton: z.object({ index: urlButtonIndex, text: requiredText }).optional(),
	// JSON mode.
	componentsJson: componentsJsonSchema.optional(),
};

type TemplateInput = z.output<z.ZodObject<typeof templateFields>>;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The body parameters the send carries, from whichever mode the item uses. */
function bodyValues(input: Partial<TemplateInput>): unknown[] | undefined {
	if (input.componentsJson === undefined) return input.bodyParameters ?? [];
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

/**
 * Spec: placeholders are written {{1}}, {{2}}, … and the parameters follow their numbers, so a
 * Template Content (when given) must number them 1…N without gaps and the send must carry
 * exactly N body parameters. Plus the button rules for fields mode.
 */
function checkTemplate(input: Partial<TemplateInput>, ctx: Context): void {
	if ((input.quickReplyButtons?.length ?? 0) > 0 || isObject(input.urlButton)) {
		checkButtons(
			ctx,
			[
				...(input.quickReplyButtons ?? []).map((button, position) => ({
					quickReply: true,
					index: button?.index,
					path: ['quickReplyButtons', position],
				})),
				...(isObject(input.urlButton) ? [{ quickReply: false, index: input.urlButton.index, path: ['urlButton'] }] : []),
			],
			['quickReplyButtons'],
		);
	}
	if (typeof input.templateContent !== 'string') return;
	const { highest, problem } = readPlaceholders(input.templateContent);
	if (problem !== undefined) {
		ctx.addIssue({ code: 'custom', path: ['templateContent'], input: input.templateContent, message: problem });
		return;
	}
	const values = bodyValues(input);
	if (values === undefined || values.length === highest) return;
	const given = values.length === 1 ? 'was' : 'were';
	ctx.addIssue({
		code: 'custom',
		path: [input.componentsJson === undefined ? 'bodyParameters' : 'componentsJson'],
		input: values,
		message:
			highest === 0
				? `must be empty: the template content has no placeholders, but ${values.length} ${given} given`
				: `must be ${plural(highest, 'value', 'values')} for the template content's placeholders ({{1}}${
						highest > 1 ? ` to {{${highest}}}` : ''
					}), but ${values.length} ${given} given`,
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
	const components: TemplateComponent[] = input.componentsJson ?? [
		...(input.headerImageUrl
			? [{ type: 'header' as const, parameters: [{ type: 'image' as const, image: { link: input.headerImageUrl } }] }]
			: []),
		{ type: 'body', parameters: (input.bodyParameters ?? []).map((text) => ({ type: 'text' as const, text })) },
		...(input.quickReplyButtons ?? []).map(({ index, payload }) => ({
			type: 'button' as const,
			sub_type: 'quick_reply' as const,
			index,
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
