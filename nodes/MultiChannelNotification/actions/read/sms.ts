import type { IExecuteFunctions } from 'n8n-workflow';

import { readText } from '../../helpers/parameters';
import type { PhoneNumberFormat } from '../../helpers/phoneNumber';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';

/**
 * The SMS fields of the item as the schema takes them: `phoneNumber` and `message`, the names
 * of the SMS fields in every operation that sends an SMS (the combined operations' SMS part
 * too, whose number defaults to To).
 */
export function readSms(
	context: IExecuteFunctions,
	itemIndex: number,
	phoneNumberFormat: PhoneNumberFormat,
): { phoneNumber: unknown; message: unknown } {
	return {
		phoneNumber: normalizePhoneNumber(readText(context, 'phoneNumber', itemIndex, { trim: true }), phoneNumberFormat),
		message: readText(context, 'message', itemIndex),
	};
}
