import { z } from 'zod';

import { e164PhoneNumber, httpsUrl, requiredText } from './common';

/**
 * Template message (spec: "Template message object" and "Component object kinds").
 * Also the `chat` part of a combined send, which the spec says is exactly this object.
 */

export const MAX_QUICK_REPLIES = 3;
export const QUICK_REPLY_INDEXES = ['0', '1', '2'] as const;

const textParameter = z.object({ type: z.literal('text'), text: requiredText }).strict();

export const headerComponentSchema = z
	.object({
		type: z.literal('header'),
		parameters: z
			.array(
				z
					.object({
						type: z.literal('image'),
						image: z.object({ link: httpsUrl }).strict(),
					})
					.strict(),
			)
			.length(1),
	})
	.strict();

export const bodyComponentSchema = z
	.object({
		type: z.literal('body'),
		// Ordered by placeholder number: parameters[0] fills {{1}}. An empty list is allowed for a
		// template whose content has no placeholders; the component itself is still required.
		parameters: z.array(textParameter),
	})
	.strict();

export const quickReplyButtonSchema = z
	.object({
		type: z.literal('button'),
		sub_type: z.literal('quick_reply'),
		index: z.string().refine((value) => (QUICK_REPLY_INDEXES as readonly string[]).includes(value), {
			message: 'must be 0, 1 or 2 (a template has at most 3 quick reply buttons)',
		}),
		parameters: z
			.array(z.object({ type: z.literal('payload'), payload: requiredText }).strict())
			.length(1),
	})
	.strict();

export const urlButtonSchema = z
	.object({
		type: z.literal('button'),
		sub_type: z.literal('url'),
		index: z.string().regex(/^\d+$/, { message: 'must be a button position: 0, 1, 2, …' }),
		parameters: z.array(textParameter).length(1),
	})
	.strict();

export type HeaderComponent = z.infer<typeof headerComponentSchema>;
export type BodyComponent = z.infer<typeof bodyComponentSchema>;
export type QuickReplyButton = z.infer<typeof quickReplyButtonSchema>;
export type UrlButton = z.infer<typeof urlButtonSchema>;
export type TemplateComponent = HeaderComponent | BodyComponent | QuickReplyButton | UrlButton;

/** What a component is, from its `type` and `sub_type`; undefined when neither fits. */
export type ComponentKind = 'header' | 'body' | 'quickReply' | 'url';

export function componentKind(component: unknown): ComponentKind | undefined {
	if (typeof component !== 'object' || component === null || Array.isArray(component)) {
		return undefined;
	}
	const { type, sub_type: subType } = component as { type?: unknown; sub_type?: unknown };
	if (type === 'header') return 'header';
	if (type === 'body') return 'body';
	if (type === 'button' && subType === 'quick_reply') return 'quickReply';
	if (type === 'button' && subType === 'url') return 'url';
	return undefined;
}

const schemaByKind = {
	header: headerComponentSchema,
	body: bodyComponentSchema,
	quickReply: quickReplyButtonSchema,
	url: urlButtonSchema,
} as const;

/** Marks which UI field a whole-list rule is about, for the error message. */
export type ComponentsRuleField = 'body' | 'header' | 'quickReplies';

export const componentsSchema = z
	.array(z.unknown())
	.superRefine((components, ctx) => {
		const counts: Record<ComponentKind, number> = { header: 0, body: 0, quickReply: 0, url: 0 };
		const indexUsedAt = new Map<string, number>();

		components.forEach((component, position) => {
			const kind = componentKind(component);
			if (kind === undefined) {
				const isObject =
					typeof component === 'object' && component !== null && !Array.isArray(component);
				const type = isObject ? (component as { type?: unknown }).type : undefined;
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: !isObject ? [position] : type === 'button' ? [position, 'sub_type'] : [position, 'type'],
					message: !isObject
						? 'must be a component object'
						: type === 'button'
							? 'must be "quick_reply" or "url" for a button component'
							: 'must be "header", "body" or "button"',
				});
				return;
			}
			counts[kind] += 1;
			const parsed = schemaByKind[kind].safeParse(component);
			if (!parsed.success) {
				for (const issue of parsed.error.issues) {
					ctx.addIssue({ ...issue, path: [position, ...issue.path] });
				}
				return;
			}
			if (kind === 'quickReply' || kind === 'url') {
				// Spec: `index` is the button's position in the template, so two buttons cannot share it.
				const index = (parsed.data as QuickReplyButton | UrlButton).index;
				const earlier = indexUsedAt.get(index);
				if (earlier !== undefined) {
					ctx.addIssue({
						code: z.ZodIssueCode.custom,
						path: [position, 'index'],
						message: `must be unique: position ${index} is already used by another button`,
					});
				} else {
					indexUsedAt.set(index, position);
				}
			}
		});

		// Spec: Rules 1 and 2, and Limits → Quick reply buttons per template message.
		if (counts.body === 0) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				params: { field: 'body' satisfies ComponentsRuleField },
				message:
					'must include the body component (it is required, even with no parameters: {"type": "body", "parameters": []})',
			});
		} else if (counts.body > 1) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				params: { field: 'body' satisfies ComponentsRuleField },
				message: `must include only one body component (got ${counts.body})`,
			});
		}
		if (counts.header > 1) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				params: { field: 'header' satisfies ComponentsRuleField },
				message: `must include at most one header component (got ${counts.header})`,
			});
		}
		if (counts.quickReply > MAX_QUICK_REPLIES) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				params: { field: 'quickReplies' satisfies ComponentsRuleField },
				message: `must have at most ${MAX_QUICK_REPLIES} quick reply buttons (got ${counts.quickReply})`,
			});
		}
	})
	.transform((components) => components as TemplateComponent[]);

export const templateMessageSchema = z
	.object({
		from: e164PhoneNumber,
		to: e164PhoneNumber,
		type: z.literal('template'),
		template: z
			.object({
				name: requiredText,
				language: z.object({ policy: requiredText, code: requiredText }).strict(),
				components: componentsSchema,
			})
			.strict(),
	})
	.strict();

export type TemplateMessage = z.infer<typeof templateMessageSchema>;
