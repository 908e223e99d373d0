import { z } from 'zod/v4';

import type { FieldLabels } from '../../schemas/common';
import { CHAT_NUMBER_LABELS } from '../../schemas/common';
import { ITEM_OPTIONS_LABELS } from '../../schemas/itemOptions.schema';
import type { TemplateComponent } from './components.schema';
import { QUICK_REPLY_INDEXES } from './components.schema';
import type { TemplateInput } from './templateInput';
import {
	fieldBodyValues,
	placeholderInputName,
	resolveQuickReplyIndexes,
	templateChecks,
	templateInputShape,
	withListLengths,
} from './templateInput';

/**
 * Template message (spec: "Template message object" and "Component object kinds"); also the
 * chat part of a combined send (combined.schema.ts), which the spec says is exactly this object.
 *
 * The input is the editor's fields as the item holds them — body parameters, header image and
 * buttons as fields, or the components array as JSON — and the output is the body the service
 * takes. Every rule of the spec about template messages is checked here, once.
 */

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
