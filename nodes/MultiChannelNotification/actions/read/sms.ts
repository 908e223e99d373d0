import type { IExecuteFunctions } from 'n8n-workflow';

import type { PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { replaceLookAlikes } from '../../helpers/lookAlikes';
import { readText } from '../../helpers/parameters';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';
import { countSms } from '../../helpers/smsSegments';

/**
 * The SMS fields of the item as the schema takes them: `phoneNumber` and `message`, the names
 * of the SMS fields in every operation that sends an SMS (the combined operations' SMS part
 * too, whose number defaults to To). With Options → Replace Look-Alike Characters, the message's
 * look-alikes are replaced here, before anything checks or counts it.
 */
export function readSms(
	context: IExecuteFunctions,
	itemIndex: number,
	{ phoneNumberFormat, replaceLookAlikes: replace }: Pick<ItemOptions, 'phoneNumberFormat' | 'replaceLookAlikes'>,
): { phoneNumber: unknown; message: unknown } {
	const phoneNumber = normalizePhoneNumber(readText(context, 'phoneNumber', itemIndex, { trim: true }), phoneNumberFormat);
	const message = readText(context, 'message', itemIndex);
	return { phoneNumber, message: replace && typeof message === 'string' ? replaceLookAlikes(message) : message };
}

/**
 * The request with its SMS counted (`message`: the text as sent, link included): `sms` in its
 * output, for a real send and a dry run alike, and for Options → Max SMS Segments (delivery.ts),
 * whose refusal says when replacing look-alikes would take fewer segments.
 */
export function withSmsCost(request: PreparedSend, message: string, field: string): PreparedSend {
	const count = countSms(message);
	const replaced = count.encoding === 'UCS-2' ? countSms(replaceLookAlikes(message)).segments : count.segments;
	const sms = { field, count, ...(replaced < count.segments ? { ifReplaced: replaced } : {}) };
	return { ...request, extras: { ...request.extras, sms: { ...count } }, sms };
}
