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
	if (/^0\d+$/.test(compact)) candidate = `+62${compact.slice(1)}`;
	else if (/^62\d+$/.test(compact)) candidate = `+${compact}`;
	return E164_PATTERN.test(candidate) ? candidate : value;
}
