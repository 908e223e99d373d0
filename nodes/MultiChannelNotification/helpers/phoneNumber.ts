import { E164_PATTERN } from '../schemas/common';

export type PhoneNumberFormat = 'normalize' | 'strict';

/**
 * "Normalize" mode: strip spaces, dashes, dots and parentheses, then turn a local Indonesian
 * number (0812…) or one typed without the plus (62812…) into +62812…. Only a result that is
 * valid E.164 is used; otherwise the value is returned as typed so the error shows what the
 * user wrote — a number is never guessed.
 */
export function normalizePhoneNumber(value: unknown, format: PhoneNumberFormat): unknown {
	if (format !== 'normalize' || typeof value !== 'string') return value;
	const compact = value.replace(/[\s\-.()]/g, '');
	let candidate = compact;
	// One leading 0 is the local trunk prefix (0812… → +62812…); 00… is an international
	// prefix, not a local number, and is left alone.
	if (/^0[1-9]\d*$/.test(compact)) candidate = `+62${compact.slice(1)}`;
	else if (/^62\d+$/.test(compact)) candidate = `+${compact}`;
	// Indonesian numbers never keep the trunk 0 after +62, so a +62 0812… typo is not turned
	// into a number: it stays as typed (and fails the E.164 check) rather than being guessed.
	if (candidate.startsWith('+620')) return value;
	return E164_PATTERN.test(candidate) ? candidate : value;
}
