import type { IExecuteFunctions } from 'n8n-workflow';

import { asText, readCollectionEntries, readText } from '../../../helpers/parameters';
import type { PhoneNumberFormat } from '../../../helpers/phoneNumber';
import { normalizePhoneNumber } from '../../../helpers/phoneNumber';
import { LANGUAGE_POLICY } from '../../../schemas';

/**
 * The item's template fields as the schema takes them (schemas/template.schema.ts), keyed by
 * node parameter: only the active way of giving components is read. Nothing is judged here.
 */
export function readTemplateFields(
	context: IExecuteFunctions,
	itemIndex: number,
	phoneNumberFormat: PhoneNumberFormat,
): Record<string, unknown> {
	const fields: Record<string, unknown> = {
		from: normalizePhoneNumber(readText(context, 'from', itemIndex, { trim: true }), phoneNumberFormat),
		to: normalizePhoneNumber(readText(context, 'to', itemIndex, { trim: true }), phoneNumberFormat),
		templateName: readText(context, 'templateName', itemIndex, { trim: true }),
		languageCode: readText(context, 'languageCode', itemIndex, { trim: true }),
		languagePolicy: asText(context.getNodeParameter('options.languagePolicy', itemIndex, LANGUAGE_POLICY), {
			trim: true,
		}),
	};
	const content = context.getNodeParameter('templateContent', itemIndex, '') as unknown;
	if (typeof content === 'string' && content.trim() !== '') fields.templateContent = content;

	if (context.getNodeParameter('componentsInputMode', itemIndex, 'fields') === 'json') {
		fields.componentsJson = context.getNodeParameter('componentsJson', itemIndex, '');
		return fields;
	}
	const header = readText(context, 'headerImageUrl', itemIndex, { trim: true });
	if (header !== '' && header !== null && header !== undefined) fields.headerImageUrl = header;
	fields.bodyParameters = readCollectionEntries(context, 'bodyParameters', 'parameter', itemIndex).map((entry) =>
		asText(entry.text),
	);
	fields.quickReplyButtons = readCollectionEntries(context, 'quickReplyButtons', 'button', itemIndex).map(
		(button) => ({ index: asText(button.index, { trim: true }), payload: asText(button.payload) }),
	);
	const [urlButton] = readCollectionEntries(context, 'urlButton', 'button', itemIndex);
	if (urlButton) {
		const index = asText(urlButton.index, { trim: true });
		// Spec: a URL button's index defaults to 0.
		fields.urlButton = { index: index === '' || index === undefined ? '0' : index, text: asText(urlButton.text) };
	}
	return fields;
}
