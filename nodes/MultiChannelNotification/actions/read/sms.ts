import type { IExecuteFunctions } from 'n8n-workflow';

import { readText } from '../../helpers/parameters';
import type { PhoneNumberFormat } from '../../helpers/phoneNumber';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';

/**
 * The SMS fields, declared once: SMS → Send names them `phoneNumber`/`message`, Send with
 * Failover `smsPhoneNumber`/`smsMessage` for its SMS part (whose number defaults to To).
 */
export interface SmsFieldNames {
	phoneNumber: string;
	message: string;
}

/** The SMS fields of the item as the schema takes them, keyed by node parameter. */
export function readSms(
	context: IExecuteFunctions,
	names: SmsFieldNames,
	itemIndex: number,
	phoneNumberFormat: PhoneNumberFormat,
): Record<string, unknown> {
	return {
		[names.phoneNumber]: normalizePhoneNumber(
			readText(context, names.phoneNumber, itemIndex, { trim: true }),
			phoneNumberFormat,
		),
		[names.message]: readText(context, names.message, itemIndex),
	};
}
