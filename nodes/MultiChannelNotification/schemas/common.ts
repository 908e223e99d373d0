import { z } from 'zod/v4';

/**
 * Rules shared by several requests: each schema checks one editor field and carries the rule's
 * message; labels live in the label table of the schema that uses it. zod's v4 API comes from
 * the `zod/v4` subpath of the zod 3.25.x that n8n 1.123.x and 2.x ship (zod is not bundled).
 */

/**
 * E.164 (spec: Limits → Phone number format): a leading `+`, the country code (never starting
 * with 0) and the subscriber number, 15 digits at most. We require at least 7 digits, the
 * shortest numbers in international use.
 */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
// The point and an example first: n8n's toast shows only the error's first 80 characters.
const E164_RULE =
	'must be in full international form like +6281234567890 (a leading +, the country code and the number: 7 to 15 digits, the E.164 format)';

/** Spec: Limits → Allowed country code for SMS is +62 only. */
const SMS_COUNTRY_PREFIX = '+62';
/**
 * The only numbers SMS goes to, in words. Every text that states the rule (field descriptions and
 * hints, the AI tool's descriptions, the refusal) is built from this one.
 */
export const SMS_ALLOWED_NUMBER = `an Indonesian number starting with ${SMS_COUNTRY_PREFIX}`;
export const SMS_COUNTRY_RULE = `must be ${SMS_ALLOWED_NUMBER} (SMS cannot be sent to other numbers for now)`;

const REQUIRED_RULE = 'is required and must not be empty';
export const HTTPS_RULE = 'must be a full https:// link (e.g. https://example.com/photo.jpg)';

/** The https rule, phrased for the value given: what to change, not only what is wrong. */
export function httpsRuleFor(value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (/^http:\/\//i.test(text)) return 'must use https://, not http:// (the service only fetches https links)';
	if (text !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(text)) {
		return `must be a full link starting with https:// — e.g. https://${text.replace(/^\/+/, '')}`;
	}
	return HTTPS_RULE;
}

const NOT_BLANK = /\S/;
export const requiredText = z.string().refine((value) => NOT_BLANK.test(value), { error: REQUIRED_RULE });

/**
 * Indonesian mobile numbers (+62 8…) have 9 to 12 digits after +62, 10 to 13 in the national form
 * 08… (Indonesia's numbering plan as libphonenumber's metadata for ID gives it: mobile numbers
 * 8[1-35-9] followed by 7 to 10 digits; docs/service-api.md). A +62 8 number of another length
 * reaches no one on any channel, so it is refused before sending (0812-3456 was sent as
 * +628123456). Other +62 numbers (landlines, whose lengths vary) are not judged here.
 */
const INDONESIAN_MOBILE = /^\+628\d*$/;
const INDONESIAN_MOBILE_DIGITS = { min: 9, max: 12 };

function indonesianMobileLength(value: string): 'short' | 'long' | undefined {
	if (!E164_PATTERN.test(value) || !INDONESIAN_MOBILE.test(value)) return undefined;
	const digits = value.length - '+62'.length;
	if (digits < INDONESIAN_MOBILE_DIGITS.min) return 'short';
	return digits > INDONESIAN_MOBILE_DIGITS.max ? 'long' : undefined;
}

const mobileLengthRule = (value: unknown) =>
	`looks too ${typeof value === 'string' && indonesianMobileLength(value) === 'long' ? 'long' : 'short'} for an Indonesian mobile number (+62 8… has ${INDONESIAN_MOBILE_DIGITS.min} to ${INDONESIAN_MOBILE_DIGITS.max} digits after +62, e.g. +6281234567890)`;

export const e164PhoneNumber = z
	.string()
	.regex(E164_PATTERN, { error: E164_RULE })
	.refine((value) => indonesianMobileLength(value) === undefined, { error: (issue) => mobileLengthRule(issue.input) });

// The country is judged only on a well-formed number, so one mistake gives one message.
export function smsPhoneNumberWith(countryRule: string) {
	return e164PhoneNumber.refine((value) => !E164_PATTERN.test(value) || value.startsWith(SMS_COUNTRY_PREFIX), {
		error: countryRule,
	});
}

export const smsPhoneNumber = smsPhoneNumberWith(SMS_COUNTRY_RULE);

/** Spec: media links and the header image link use https. */
const HTTPS_LINK = /^https:\/\/\S+$/i;

// https is a special scheme in the URL standard: a link that parses always has a host.
function isHttpsUrl(value: string): boolean {
	return HTTPS_LINK.test(value) && URL.canParse(value);
}

export const httpsUrl = z.string().refine(isHttpsUrl, { error: (issue) => httpsRuleFor(issue.input) });

/**
 * How the fields of one request are named in the editor, keyed by the node parameter the
 * schema's input uses (so an issue's path starts with the parameter's name).
 */
export interface FieldLabel {
	label: string;
	/** Where the value sits when not at its key: ["options", "languagePolicy"], ["quickReplyButtons", "button"]. */
	at?: string[];
	/** The key inside each entry when the schema takes entries as bare values (body parameter text). */
	leaf?: string;
	/** Names the entries of a list field ("Button" 2), or `entryLabel` from the position ("{{2}}"). */
	entry?: string;
	entryLabel?: (position: number) => string;
	/** Names the keys inside one entry. */
	parts?: Record<string, string>;
	/** The parameter holding an entry, when each entry is a parameter of its own (placeholder2). */
	entryKey?: (position: number) => string;
	/** A JSON field: its inner path is shown as written ("at [1].parameters[0].text"). */
	json?: boolean;
}
export type FieldLabels = Record<string, FieldLabel>;

/** The sender and recipient of every chat message (spec: "Common request fields"). */
export const CHAT_NUMBER_LABELS = { from: { label: 'From' }, to: { label: 'To' } } satisfies FieldLabels;
