import type { ILoadOptionsFunctions, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { placeholderNumbers } from '../helpers/templateContent';

/**
 * The editor's one input per placeholder: n8n's resource mapper asks for its fields whenever
 * Template Content changes (loadOptionsDependsOn), and gets {{1}} … {{N}}, N being the highest
 * placeholder of the text (a gap is reported by the send's check, not hidden here).
 */

export const NO_PLACEHOLDERS =
	'No {{1}}, {{2}} … placeholders in Template Content. Paste the approved template text there (the field set to Fixed, not Expression) to get one input per placeholder here, or fill Body Parameters below.';

/** The field id of placeholder {{n}}, which is also the key of its value. */
export const placeholderFieldId = (number: number): string => String(number);

export function placeholderFields(content: unknown): ResourceMapperField[] {
	if (typeof content !== 'string') return [];
	const numbers = placeholderNumbers(content).filter((number) => number >= 1);
	const highest = numbers.length === 0 ? 0 : numbers[numbers.length - 1];
	return Array.from({ length: highest }, (_unused, at) => ({
		id: placeholderFieldId(at + 1),
		displayName: `{{${at + 1}}}`,
		required: true,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: 'string',
	}));
}

export async function getTemplatePlaceholders(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	// The editor sends the panel's current values, expressions already resolved by n8n.
	const fields = placeholderFields(this.getCurrentNodeParameter('templateContent'));
	// Without auto-mapping, n8n's mapper shows no text of its own when there are no fields.
	return fields.length > 0 ? { fields } : { fields, emptyFieldsNotice: NO_PLACEHOLDERS };
}
