import type { IExecuteFunctions } from 'n8n-workflow';

import { asText, readCollectionEntries, readText } from '../../../helpers/parameters';
import type { PhoneNumberFormat } from '../../../helpers/phoneNumber';
import { normalizePhoneNumber } from '../../../helpers/phoneNumber';
import { LANGUAGE_POLICY, URL_BUTTON_DEFAULT_INDEX } from '../../../schemas';
import { readPlaceholderValues, templateTextTurnedIntoExpression } from './placeholders';

/**
 * The item's template fields as the schema takes them (schemas/template.schema.ts), keyed by
 * node parameter: only the active way of giving components is read. Nothing is judged here.
 */
export function readTemplateFields(
	context: IExecuteFunctions,
	itemIndex: number,
	phoneNumberFormat: PhoneNumberFormat,
): Record<string, unknown> {
	const content = context.getNodeParameter('templateContent', itemIndex, '') as unknown;
	const fields = context.getNodeParameter('componentsInputMode', itemIndex, 'fields') !== 'json';
	const header = fields ? readText(context, 'headerImageUrl', itemIndex, { trim: true }) : '';
	// Every key is present (undefined when not used), so all items share one object shape.
	return {
		from: normalizePhoneNumber(readText(context, 'from', itemIndex, { trim: true }), phoneNumberFormat),
		to: normalizePhoneNumber(readText(context, 'to', itemIndex, { trim: true }), phoneNumberFormat),
		templateName: readText(context, 'templateName', itemIndex, { trim: true }),
		languageCode: readText(context, 'languageCode', itemIndex, { trim: true }),
		languagePolicy: asText(context.getNodeParameter('options.languagePolicy', itemIndex, LANGUAGE_POLICY), {
			trim: true,
		}),
		templateContent: typeof content === 'string' && content.trim() !== '' ? content : undefined,
		headerImageUrl: header === '' || header === null ? undefined : header,
		templateTextTurnedIntoExpression: templateTextTurnedIntoExpression(context, itemIndex),
		placeholderValues: fields ? readPlaceholderValues(context, itemIndex, content) : undefined,
		bodyParameters: fields ? bodyParameters(context, itemIndex) : undefined,
		quickReplyButtons: fields ? quickReplyButtons(context, itemIndex) : undefined,
		urlButton: fields ? urlButton(context, itemIndex) : undefined,
		componentsJson: fields ? undefined : context.getNodeParameter('componentsJson', itemIndex, ''),
	};
}

function bodyParameters(context: IExecuteFunctions, itemIndex: number): unknown[] {
	return readCollectionEntries(context, 'bodyParameters', 'parameter', itemIndex).map((entry) => asText(entry.text));
}

function quickReplyButtons(context: IExecuteFunctions, itemIndex: number): unknown[] {
	return readCollectionEntries(context, 'quickReplyButtons', 'button', itemIndex).map((button) => ({
		index: asText(button.index, { trim: true }),
		payload: asText(button.payload),
	}));
}

function urlButton(context: IExecuteFunctions, itemIndex: number): unknown {
	const [button] = readCollectionEntries(context, 'urlButton', 'button', itemIndex);
	if (!button) return undefined;
	const index = asText(button.index, { trim: true });
	return { index: index === '' || index === undefined ? URL_BUTTON_DEFAULT_INDEX : index, text: asText(button.text) };
}
