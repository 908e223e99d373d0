import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v4';

import type { PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { PHONE_PLACEHOLDER, SMS_PHONE_HINT } from '../../editor/phoneText';
import { readText } from '../../helpers/parameters';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';
import { parseOrThrow } from '../../helpers/validation';
import type { FieldLabel, FieldLabels } from '../../schemas/common';
import { requiredText, smsPhoneNumber } from '../../schemas/common';
import { ruleShowing } from '../../schemas/shown';
import { withSmsLink } from '../../sendAndWait/link';
import { ENDPOINTS } from '../../transport';
import { replaceLookAlikes } from './lookAlikes';
import { countSms, SMS_UNITS } from './segments';

/**
 * The SMS channel, what every operation that sends an SMS shares (the combined ones too): its
 * fields Phone Number and Message, their reader, the request's schema, what the SMS costs
 * against Options → Max SMS Segments, and the SMS operations' request. It imports only the shared
 * core below actions/ (the delivery engine's types, the editor's phone texts, helpers, schemas,
 * the answer link, the endpoints) and its own rules (segments.ts, lookAlikes.ts).
 */

/** The fields: Phone Number and Message, named `phoneNumber` and `message` wherever an SMS is sent. */
export const SMS_LABELS = {
	phoneNumber: { label: 'Phone Number' },
	message: { label: 'Message' },
} satisfies FieldLabels;

export function smsFields(
	labels: { phoneNumber: FieldLabel; message: FieldLabel },
	phoneNumberDescription: string,
): INodeProperties[] {
	return [
		{
			displayName: labels.phoneNumber.label,
			name: 'phoneNumber',
			type: 'string',
			required: true,
			default: '',
			placeholder: PHONE_PLACEHOLDER,
			hint: SMS_PHONE_HINT,
			description: phoneNumberDescription,
		},
		{
			displayName: labels.message.label,
			name: 'message',
			type: 'string',
			required: true,
			default: '',
			typeOptions: { rows: 3 },
			description: 'Text of the SMS',
		},
	];
}

/**
 * SMS notification request (spec: "SMS notification request"). The input is the fields as read;
 * the output is the body the service takes. Send with Failover checks its SMS part by the same
 * rules (actions/combined/combined.schema.ts).
 */
export const smsSendSchema = z
	.object({ phoneNumber: smsPhoneNumber, message: requiredText })
	.transform(({ phoneNumber, message }) => ({ phone_number: phoneNumber, message }));

/**
 * The SMS fields of the item as the schema takes them. With Options → Replace Look-Alike
 * Characters, the message's look-alikes are replaced here, before anything checks or counts it.
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
 * Options → Max SMS Segments: what is wrong with an SMS text that needs more segments than
 * allowed — the count, the limit, the encoding, its sizes and, for UCS-2, the characters that
 * made it so, and what replacing its look-alikes would need when that is fewer. Undefined when
 * within the limit (or there is none).
 */
function overSegmentLimit(message: string, maxSegments: number | undefined): string | undefined {
	if (maxSegments === undefined) return undefined;
	const { encoding, segments, length, forcedBy } = countSms(message);
	if (segments <= maxSegments) return undefined;
	const { single, perPart } = SMS_UNITS[encoding];
	const replaced = encoding === 'UCS-2' ? countSms(replaceLookAlikes(message)).segments : segments;
	const because = forcedBy.length === 0 ? '' : ` because of ${forcedBy.map((character) => JSON.stringify(character)).join(', ')}`;
	const fix = replaced < segments ? `; with Options → Replace Look-Alike Characters on it would need ${replaced}` : '';
	return `needs ${segments} SMS segments, more than Max SMS Segments allows (${maxSegments}): it is ${encoding} (${single} characters in one SMS, ${perPart} per segment; this one is ${length})${because}${fix}`;
}

/**
 * Options → Max SMS Segments as a rule on a valid request (`messageOf` finds its SMS text as
 * sent, link included), named by the SMS's own field: its text is what to shorten.
 */
export function withinSegmentLimit<Body>(maxSegments: number | undefined, messageOf: (body: Body) => string) {
	return ruleShowing<Body>(
		(body) => overSegmentLimit(messageOf(body), maxSegments) === undefined,
		(body) => overSegmentLimit(messageOf(body), maxSegments) ?? '',
		() => null,
		{ path: ['message'] },
	);
}

/** The request with its SMS counted: `sms` in its output (a real send and a dry run alike), its segments for the run summary. */
export function withSmsCost(request: PreparedSend, message: string): PreparedSend {
	const count = countSms(message);
	return { ...request, extras: { ...request.extras, sms: { ...count } }, smsSegments: count.segments };
}

/**
 * The request of an SMS operation for one item: its fields read, then checked (Max SMS Segments
 * included) and counted. `link` (Send and Wait for Response) goes on its own line below the text,
 * which the checks and the count then include. Output: the service's answer plus `phoneNumber`,
 * the number the SMS went to, and `sms`, what it costs.
 */
export function prepareSms(context: IExecuteFunctions, itemIndex: number, options: ItemOptions, link?: string): PreparedSend {
	const candidate = readSms(context, itemIndex, options);
	if (link !== undefined) candidate.message = withSmsLink(candidate.message, link);
	const schema = smsSendSchema.superRefine(withinSegmentLimit(options.maxSmsSegments, (sent) => sent.message));
	const body = parseOrThrow(context, schema, candidate, itemIndex, SMS_LABELS);
	return withSmsCost({ endpoint: ENDPOINTS.sms, body, extras: { phoneNumber: body.phone_number } }, body.message);
}
