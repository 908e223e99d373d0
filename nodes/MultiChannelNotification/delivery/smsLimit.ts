import type { Problem } from '../helpers/errors';
import type { SmsCount } from '../helpers/smsSegments';
import { SMS_UNITS } from '../helpers/smsSegments';

/**
 * Options → Max SMS Segments: the problem of an SMS that needs more segments than allowed, named
 * by the SMS's own field (its text is what to shorten), with the count, the limit, the encoding,
 * its sizes and, for UCS-2, the characters that made it so, and what replacing its look-alikes
 * would need when that is fewer. Undefined when within the limit.
 */
export function smsLimitProblem(sms: { field: string; count: SmsCount; ifReplaced?: number }, limit: number | undefined): Problem | undefined {
	const { encoding, segments, length, forcedBy } = sms.count;
	if (limit === undefined || segments <= limit) return undefined;
	const { single, perPart } = SMS_UNITS[encoding];
	const because = forcedBy.length === 0 ? '' : ` because of ${forcedBy.map((character) => JSON.stringify(character)).join(', ')}`;
	const fix = sms.ifReplaced === undefined ? '' : `; with Options → Replace Look-Alike Characters on it would need ${sms.ifReplaced}`;
	return {
		field: sms.field,
		path: ['message'],
		rule: `needs ${segments} SMS segments, more than Max SMS Segments allows (${limit}): it is ${encoding} (${single} characters in one SMS, ${perPart} per segment; this one is ${length})${because}${fix}`,
	};
}
