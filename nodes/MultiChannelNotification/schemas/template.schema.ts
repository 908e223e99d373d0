import { z } from 'zod/v4';

import type { FieldLabels } from './common';
import { CHAT_NUMBER_LABELS, e164PhoneNumber, httpsUrl, requiredText } from './common';
import type { TemplateComponent } from './components.schema';
import { componentsJsonSchema, QUICK_REPLY_INDEXES, quickReplyIndexOrNext, urlButtonIndex } from './components.schema';
import { fieldBodyValues, placeholderInputName, resolveQuickReplyIndexes, templateChecks } from './templateChecks';

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

/** The template fields of the editor: the input of a template send and of a combined send. */
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

export type TemplateInput = z.output<z.ZodObject<typeof templateFields>>;

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
	.preprocess(withListLengths, z.object(templateFields))
	.check(templateChecks)
	.transform(toTemplateMessage);
