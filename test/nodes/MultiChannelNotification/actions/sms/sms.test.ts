/**
 * SMS request (spec: "SMS notification request", Limits → phone number format and +62 only).
 * Input: the SMS fields of an item; output: the body the service takes.
 */
import { SMS_LABELS, smsSendSchema } from '../../../../../nodes/MultiChannelNotification/actions/sms/sms';
import { verdict } from '../../../../fixtures/problems';
import { INVALID_E164, NON_INDONESIAN_NUMBERS, VALID_SMS_NUMBERS, smsItem } from '../../../../fixtures/values';

const check = (candidate: unknown) => verdict(smsSendSchema, SMS_LABELS, candidate);

describe('SMS request: valid', () => {
	test.each(VALID_SMS_NUMBERS)('phone number: %s', (_name, phoneNumber) => {
		expect(check(smsItem({ phoneNumber }))).toEqual({
			data: { phone_number: phoneNumber, message: 'Your code is 1234' },
			problems: [],
		});
	});

	test.each([
		['one character', 'x'],
		['unicode and emoji', 'Kode Anda: 1234 ✅'],
		['multi-line', 'Line one\nLine two'],
		['leading and trailing spaces kept', '  spaced  '],
	])('message: %s', (_name, message) => {
		expect(check(smsItem({ message })).data).toEqual({ phone_number: '+6281300000003', message });
	});
});

describe('Phone Number: E.164 with a leading +', () => {
	test.each(INVALID_E164)('rejects %s', (_name, phoneNumber) => {
		expect(check(smsItem({ phoneNumber })).problems).toEqual([
			expect.objectContaining({ field: 'Phone Number', path: ['phoneNumber'], rule: expect.stringMatching(/E\.164|required|must be text/) }),
		]);
	});
});

describe('Phone Number: only +62 (Indonesia)', () => {
	test.each(NON_INDONESIAN_NUMBERS)('rejects %s, showing the value', (_name, phoneNumber) => {
		expect(check(smsItem({ phoneNumber })).problems).toEqual([
			{
				field: 'Phone Number',
				path: ['phoneNumber'],
				rule: 'must be an Indonesian number starting with +62 (SMS cannot be sent to other numbers for now)',
				value: JSON.stringify(phoneNumber),
			},
		]);
	});
});

describe('Message: required, not blank', () => {
	test.each<[string, unknown]>([
		['empty', ''],
		['spaces only', '   '],
		['tabs and newlines only', '\t\n'],
		['missing', undefined],
	])('rejects %s', (_name, message) => {
		expect(check(smsItem({ message })).problems).toEqual([
			{ field: 'Message', path: ['message'], rule: expect.stringMatching(/^is required/) },
		]);
	});

	test('rejects a number that was not turned into text', () => {
		expect(check(smsItem({ message: 42 })).problems).toEqual([
			{ field: 'Message', path: ['message'], rule: 'must be text (got a number)', value: '42' },
		]);
	});
});

test('both fields wrong: both reported in one verdict', () => {
	expect(check({ phoneNumber: '+6581234567', message: '' }).problems.map((problem) => problem.field)).toEqual([
		'Phone Number',
		'Message',
	]);
});
