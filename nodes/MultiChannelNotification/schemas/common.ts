import { z } from 'zod';

/**
 * E.164 (spec: Limits → Phone number format): a leading `+`, the country code (never starting
 * with 0) and the subscriber number, 15 digits at most. We require at least 7 digits, the
 * shortest numbers in international use.
 */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
export const E164_RULE =
	'must be an E.164 phone number: a leading + then the country code and number, 7 to 15 digits, no spaces (e.g. +6281234567890)';

/** Spec: Limits → Allowed country code for SMS is +62 only. */
export const SMS_COUNTRY_PREFIX = '+62';
export const SMS_COUNTRY_RULE =
	'must be an Indonesian number starting with +62 (SMS can only be sent to Indonesian numbers for now)';

export const HTTPS_RULE = 'must be a valid https:// URL';

export const requiredText = z
	.string()
	.refine((value) => value.trim().length > 0, { message: 'is required and must not be empty' });

export const e164PhoneNumber = z.string().regex(E164_PATTERN, { message: E164_RULE });

// The country is judged only on a well-formed number, so one mistake gives one message.
export const smsPhoneNumber = e164PhoneNumber.refine(
	(value) => !E164_PATTERN.test(value) || value.startsWith(SMS_COUNTRY_PREFIX),
	{ message: SMS_COUNTRY_RULE },
);

/** Spec: media links and the header image link use https. */
export function isHttpsUrl(value: string): boolean {
	if (!/^https:\/\/\S+$/i.test(value) || !URL.canParse(value)) return false;
	const url = new URL(value);
	return url.protocol === 'https:' && url.hostname.length > 0;
}

export const httpsUrl = z.string().refine(isHttpsUrl, { message: HTTPS_RULE });
