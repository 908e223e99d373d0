/**
 * SMS notification schema (spec: "SMS notification request", Limits → Allowed country code and
 * Phone number format).
 */
import { smsRequestSchema } from '../../nodes/MultiChannelNotification/schemas';

import {
	INVALID_E164,
	NON_INDONESIAN_NUMBERS,
	VALID_SMS_NUMBERS,
	expectIssueAt,
	expectValid,
	smsRequest,
	withField,
	withoutField,
} from './fixtures';

function parse(candidate: unknown) {
	return smsRequestSchema.safeParse(candidate);
}

describe('SMS request: valid', () => {
	test.each(VALID_SMS_NUMBERS)('phone_number: %s', (_name, phoneNumber) => {
		const candidate = smsRequest(phoneNumber);
		const result = parse(candidate);
		expectValid(result);
		expect(result.data).toEqual(candidate);
	});

	test.each<[string, string]>([
		['one word', 'Hi'],
		['multi-line text', 'Your code is 1234.\nDo not share it.'],
		['text with emoji and symbols', 'Paid Rp 50.000 ✅ — thanks!'],
	])('message: %s', (_name, message) => {
		expectValid(parse(smsRequest(undefined, message)));
	});
});

describe('phone_number: E.164 with leading +', () => {
	test.each(INVALID_E164)('rejects %s', (_name, value) => {
		expectIssueAt(parse(smsRequest(value)), ['phone_number']);
	});

	test('is required', () => {
		expectIssueAt(parse(withoutField(smsRequest(), ['phone_number'])), ['phone_number']);
	});
});

describe('phone_number: only +62 (Indonesia)', () => {
	test.each(NON_INDONESIAN_NUMBERS)('rejects %s', (_name, value) => {
		expectIssueAt(parse(smsRequest(value)), ['phone_number'], /\+62/);
	});
});

describe('message: required, non-empty text', () => {
	test.each<[string, unknown]>([
		['empty', ''],
		['whitespace only', '  \n '],
		['number, not string', 1234],
		['null', null],
	])('rejects %s', (_name, message) => {
		expectIssueAt(parse(smsRequest(undefined, message)), ['message']);
	});

	test('rejects missing', () => {
		expectIssueAt(parse(withoutField(smsRequest(), ['message'])), ['message']);
	});
});

describe('unknown keys are rejected', () => {
	test.each(['to', 'text', 'sender'])('rejects key %p', (key) => {
		const result = parse(withField(smsRequest(), [key], 'x'));
		expectIssueAt(result, [], new RegExp(key));
		expect(result.success ? [] : result.error.issues.map((issue) => issue.code)).toEqual(['unrecognized_keys']);
	});
});

test('both fields wrong: both reported', () => {
	const result = parse(smsRequest('+14155552671', ''));
	expectIssueAt(result, ['phone_number']);
	expectIssueAt(result, ['message']);
});
