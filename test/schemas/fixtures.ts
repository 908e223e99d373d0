/**
 * Valid requests and small builders shared by the schema tables. Every builder returns a fresh
 * object, so a case can change one field (`withField`, `withoutField`) and leave the rest valid:
 * an invalid case then breaks exactly one rule.
 */
import type { SafeParseReturnType, ZodIssue } from 'zod';

export type Json = Record<string, unknown>;
export type IssuePath = Array<string | number>;

export const FROM = '+6281100000001';
export const TO = '+6281200000002';
export const SMS_NUMBER = '+6281300000003';
export const IMAGE_LINK = 'https://cdn.example.com/header.png';
export const MEDIA_LINK = 'https://cdn.example.com/media/file.bin';

// ---------------------------------------------------------------------------------------------
// Spec: Limits → Phone number format (E.164 with leading +), for from, to and phone_number.

/** Valid E.164 numbers of any country (from/to). */
export const VALID_E164: Array<[string, string]> = [
	['Indonesian mobile', '+6281234567890'],
	['US number', '+14155552671'],
	['shortest accepted (7 digits)', '+1234567'],
	['longest E.164 (15 digits)', '+123456789012345'],
];

/** Values that break E.164 with a leading +, whatever the country. */
export const INVALID_E164: Array<[string, unknown]> = [
	['missing leading +', '6281234567890'],
	['national format with leading 0', '081234567890'],
	['spaces', '+62 812 3456 7890'],
	['dashes', '+62-812-3456-7890'],
	['letters', '+62812345abcd'],
	['too short (6 digits)', '+123456'],
	['too long (16 digits)', '+1234567890123456'],
	['leading 0 after +', '+0812345678'],
	['double +', '++6281234567890'],
	['empty', ''],
	['number, not string', 6281234567890],
	['null', null],
];

/** Spec: Limits → Allowed country code for SMS phone_number is +62 only. */
export const VALID_SMS_NUMBERS: Array<[string, string]> = [
	['Indonesian mobile', '+6281234567890'],
	['Indonesian landline', '+62215551234'],
	['shortest accepted +62 (7 digits)', '+6281234'],
];

export const NON_INDONESIAN_NUMBERS: Array<[string, string]> = [
	['US +1', '+14155552671'],
	['Singapore +65', '+6581234567'],
	['Malaysia +60', '+60123456789'],
	['+6 alone then other digits', '+6123456789'],
];

// ---------------------------------------------------------------------------------------------
// Spec: Limits → Media URL scheme https, for media links and the header image link.

export const VALID_HTTPS: Array<[string, string]> = [
	['plain https', 'https://cdn.example.com/a.png'],
	['port, query and fragment', 'https://cdn.example.com:8443/path/a.png?size=large&v=2#top'],
	['IP host', 'https://203.0.113.7/a.png'],
	['upper-case scheme', 'HTTPS://cdn.example.com/a.png'],
];

export const INVALID_HTTPS: Array<[string, unknown]> = [
	['http', 'http://cdn.example.com/a.png'],
	['ftp', 'ftp://cdn.example.com/a.png'],
	['no scheme', 'cdn.example.com/a.png'],
	['protocol-relative', '//cdn.example.com/a.png'],
	['malformed scheme (no colon)', 'https//cdn.example.com/a.png'],
	['malformed scheme (no slashes)', 'https:cdn.example.com/a.png'],
	['malformed host', 'https://[::1/a.png'],
	['https:// with no host', 'https://'],
	['https:// with only a query', 'https://?x=1'],
	['space inside', 'https://cdn.example.com/my file.png'],
	['space in host', 'https://cdn example.com/a.png'],
	['leading space', ' https://cdn.example.com/a.png'],
	['trailing space', 'https://cdn.example.com/a.png '],
	['empty', ''],
	['number, not string', 42],
];

// ---------------------------------------------------------------------------------------------
// Template components (spec: "Component object kinds").

export function body(texts: unknown[] = ['Budi']): Json {
	return { type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) };
}

export function header(link: unknown = IMAGE_LINK): Json {
	return { type: 'header', parameters: [{ type: 'image', image: { link } }] };
}

export function quickReply(index: unknown, payload: unknown = 'YES'): Json {
	return { type: 'button', sub_type: 'quick_reply', index, parameters: [{ type: 'payload', payload }] };
}

export function urlButton(index: unknown = '0', text: unknown = 'order/42'): Json {
	return { type: 'button', sub_type: 'url', index, parameters: [{ type: 'text', text }] };
}

export function templateMessage(components: unknown[] = [body()]): Json {
	return {
		from: FROM,
		to: TO,
		type: 'template',
		template: {
			name: 'order_confirmation',
			language: { policy: 'deterministic', code: 'id' },
			components,
		},
	};
}

// ---------------------------------------------------------------------------------------------
// Media, SMS and combined requests.

export const MEDIA_KINDS = ['image', 'video', 'audio', 'document'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export function mediaMessage(kind: MediaKind, link: unknown = MEDIA_LINK): Json {
	return { from: FROM, to: TO, recipient_type: 'individual', type: kind, [kind]: { link } };
}

export function smsRequest(phoneNumber: unknown = SMS_NUMBER, message: unknown = 'Your code is 1234'): Json {
	return { phone_number: phoneNumber, message };
}

export function combinedRequest(
	chat: Json = templateMessage(),
	sms: Json = smsRequest(),
): Json {
	return { chat, sms };
}

// ---------------------------------------------------------------------------------------------
// Editing one field of a valid request.

function parentOf(target: Json, path: IssuePath): Record<string | number, unknown> {
	let current: unknown = target;
	for (const key of path.slice(0, -1)) {
		if (typeof current !== 'object' || current === null) {
			throw new Error(`fixture path ${JSON.stringify(path)} does not exist`);
		}
		current = (current as Record<string | number, unknown>)[key];
	}
	if (typeof current !== 'object' || current === null) {
		throw new Error(`fixture path ${JSON.stringify(path)} does not exist`);
	}
	return current as Record<string | number, unknown>;
}

/** A copy of `source` with the value at `path` replaced (or added). */
export function withField(source: Json, path: IssuePath, value: unknown): Json {
	const copy = structuredClone(source);
	parentOf(copy, path)[path[path.length - 1]] = value;
	return copy;
}

/** A copy of `source` without the key at `path`. */
export function withoutField(source: Json, path: IssuePath): Json {
	const copy = structuredClone(source);
	delete parentOf(copy, path)[path[path.length - 1]];
	return copy;
}

// ---------------------------------------------------------------------------------------------
// Assertions on a safeParse result.

export function issuesOf(result: SafeParseReturnType<unknown, unknown>): ZodIssue[] {
	return result.success ? [] : result.error.issues;
}

/**
 * The parse failed with an issue at exactly `path` (and, when given, a message matching
 * `message`). Fails when the rule is gone or reports somewhere else.
 */
export function expectIssueAt(
	result: SafeParseReturnType<unknown, unknown>,
	path: IssuePath,
	message?: RegExp,
): void {
	expect(result.success).toBe(false);
	const issues = issuesOf(result);
	// On failure the diff lists every path that was reported instead.
	expect(issues.map((issue) => issue.path)).toContainEqual(path);
	const atPath = issues.filter((issue) => JSON.stringify(issue.path) === JSON.stringify(path));
	if (message !== undefined) {
		expect(atPath.map((issue) => issue.message)).toEqual(
			expect.arrayContaining([expect.stringMatching(message)]),
		);
	}
}

/** The parse succeeded; on failure the issues are shown in the diff. */
export function expectValid(result: SafeParseReturnType<unknown, unknown>): void {
	expect(issuesOf(result)).toEqual([]);
	expect(result.success).toBe(true);
}
