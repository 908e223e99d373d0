/**
 * Indonesian mobile numbers (+62 8…) whose length no number in Indonesia's numbering plan has are
 * refused before sending, on every channel: 9 to 12 digits after +62 (10 to 13 in the national
 * form 08…), as docs/service-api.md states with its source.
 */
import { SMS_LABELS, smsSendSchema } from '../../../../nodes/MultiChannelNotification/actions/sms/sms';
import { TEMPLATE_LABELS, templateSendSchema } from '../../../../nodes/MultiChannelNotification/actions/chatMessage/templateMessage.schema';
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';
import { verdict } from '../../../fixtures/problems';
import { smsItem, templateItem } from '../../../fixtures/values';

const sandbox = useSandbox();
const TOO_SHORT = 'looks too short for an Indonesian mobile number (+62 8… has 9 to 12 digits after +62, e.g. +6281234567890)';
const TOO_LONG = 'looks too long for an Indonesian mobile number (+62 8… has 9 to 12 digits after +62, e.g. +6281234567890)';

const smsRules = (phoneNumber: string) => verdict(smsSendSchema, SMS_LABELS, smsItem({ phoneNumber })).problems.map((problem) => problem.rule);
const toRules = (to: string) => verdict(templateSendSchema, TEMPLATE_LABELS, templateItem({ to })).problems.map((problem) => problem.rule);

test.each<[string, string, string[]]>([
	['8 digits after +62', '+6281234567', [TOO_SHORT]],
	['9 digits after +62, the shortest', '+62812345678', []],
	['12 digits after +62, the longest', '+62812345678901', []],
	['13 digits after +62', '+628123456789012', [TOO_LONG]],
	['the shortest E.164 (7 digits)', '+6281234', [TOO_SHORT]],
	// Only mobile numbers are judged: the plan's other numbers have lengths of their own.
	['a Jakarta landline', '+62215551234', []],
	['a short +62 number outside 8…', '+6221234', []],
])('%s: %s', (_name, number, expected) => {
	expect(smsRules(number)).toEqual(expected);
	expect(toRules(number)).toEqual(expected);
});

test('0812-3456, once sent as +628123456, is refused as too short; nothing is sent', async () => {
	const { error } = await runNode({
		parameters: { resource: 'sms', operation: 'send', phoneNumber: '0812-3456', message: 'Hi' },
		credentials: credentialsFor(sandbox()),
	});
	expect(error?.message).toBe('Item 0: Phone Number looks too short for an Indonesian mobile number…');
	expect(error?.description).toContain(`• Phone Number ${TOO_SHORT} — got "+628123456"`);
	expect(error?.description).toContain('Nothing was sent for this item.');
	expect(sandbox().requests).toHaveLength(0);
});

test('a chat recipient +62 8… is judged the same way; nothing is sent', async () => {
	const { error } = await runNode({
		parameters: { resource: 'chatMessage', operation: 'sendTemplate', from: '+628110000000', to: '0812 3456', templateName: 'otp' },
		credentials: credentialsFor(sandbox()),
	});
	expect(error?.description).toContain(`• To ${TOO_SHORT} — got "+628123456"`);
	expect(sandbox().requests).toHaveLength(0);
});
