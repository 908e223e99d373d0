import { z } from 'zod/v4';

import { e164PhoneNumber, httpsUrl, requiredText } from '../../schemas/common';
import { componentsJsonSchema, quickReplyIndexOrNext, urlButtonIndex } from './components.schema';

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
