/**
 * Combined notification schema (spec: "Combined notification request"): `chat` is exactly a
 * template message and `sms` exactly an SMS request; both are validated in one parse and every
 * problem is pathed under `chat.` or `sms.`.
 */
import { combinedRequestSchema } from '../../nodes/MultiChannelNotification/schemas';

import type { IssuePath, Json } from './fixtures';
import {
	INVALID_E164,
	NON_INDONESIAN_NUMBERS,
	VALID_SMS_NUMBERS,
	body,
	combinedRequest,
	expectIssueAt,
	expectValid,
	header,
	mediaMessage,
	quickReply,
	smsRequest,
	templateMessage,
	urlButton,
	withField,
	withoutField,
} from './fixtures';

function parse(candidate: unknown) {
	return combinedRequestSchema.safeParse(candidate);
}

describe('combined request: valid', () => {
	test.each<[string, Json]>([
		['minimal chat + sms', combinedRequest()],
		[
			'chat with header, body and buttons',
			combinedRequest(templateMessage([header(), body(['Budi', '42']), quickReply('0'), quickReply('1'), urlButton('2')])),
		],
		['chat to a non-Indonesian number (only the SMS part is +62-only)', combinedRequest(withField(templateMessage(), ['to'], '+14155552671'))],
		...VALID_SMS_NUMBERS.map(([name, phone]): [string, Json] => [`sms ${name}`, combinedRequest(undefined, smsRequest(phone))]),
	])('%s', (_name, candidate) => {
		const result = parse(candidate);
		expectValid(result);
		expect(result.data).toEqual(candidate);
	});
});

describe('both parts are required', () => {
	test.each<[string, IssuePath]>([
		['chat missing', ['chat']],
		['sms missing', ['sms']],
	])('rejects %s', (_name, path) => {
		expectIssueAt(parse(withoutField(combinedRequest(), path)), path);
	});

	test.each<[string, IssuePath, unknown]>([
		['chat a string', ['chat'], 'hello'],
		['sms null', ['sms'], null],
		['sms a list', ['sms'], [smsRequest()]],
	])('rejects %s', (_name, path, value) => {
		expectIssueAt(parse(withField(combinedRequest(), path, value)), path);
	});
});

describe('chat part: validated as a template message, errors under chat.', () => {
	test.each<[string, Json, IssuePath]>([
		['chat.to missing +', withField(templateMessage(), ['to'], '6281234567890'), ['chat', 'to']],
		['chat.from too short', withField(templateMessage(), ['from'], '+12345'), ['chat', 'from']],
		['chat.type not template', withField(templateMessage(), ['type'], 'image'), ['chat', 'type']],
		['chat.template.name whitespace only', withField(templateMessage(), ['template', 'name'], '  '), ['chat', 'template', 'name']],
		['chat.template.language.code empty', withField(templateMessage(), ['template', 'language', 'code'], ''), ['chat', 'template', 'language', 'code']],
		['chat.template.language.policy missing', withoutField(templateMessage(), ['template', 'language', 'policy']), ['chat', 'template', 'language', 'policy']],
		['chat body component missing', templateMessage([header()]), ['chat', 'template', 'components']],
		['chat quick reply index 3', templateMessage([body(), quickReply('3')]), ['chat', 'template', 'components', 1, 'index']],
		['chat duplicate button index', templateMessage([body(), quickReply('0'), urlButton('0')]), ['chat', 'template', 'components', 2, 'index']],
		['chat quick reply payload empty', templateMessage([body(), quickReply('0', '')]), ['chat', 'template', 'components', 1, 'parameters', 0, 'payload']],
		['chat header link http', templateMessage([header('http://cdn.example.com/a.png'), body()]), ['chat', 'template', 'components', 0, 'parameters', 0, 'image', 'link']],
		['chat url button text empty', templateMessage([body(), urlButton('0', '')]), ['chat', 'template', 'components', 1, 'parameters', 0, 'text']],
		['chat unknown key', withField(templateMessage(), ['recipient_type'], 'individual'), ['chat']],
	])('rejects %s', (_name, chat, path) => {
		expectIssueAt(parse(combinedRequest(chat)), path);
	});

	test('rejects a media message as the chat part', () => {
		expectIssueAt(parse(combinedRequest(mediaMessage('image'))), ['chat', 'type']);
	});

	test('rejects more than 3 quick replies in the chat part', () => {
		const chat = templateMessage([body(), quickReply('0'), quickReply('1'), quickReply('2'), quickReply('1')]);
		expectIssueAt(parse(combinedRequest(chat)), ['chat', 'template', 'components'], /at most 3 quick reply/);
	});
});

describe('sms part: validated as an SMS request, errors under sms.', () => {
	test.each(INVALID_E164)('rejects sms.phone_number: %s', (_name, phone) => {
		expectIssueAt(parse(combinedRequest(undefined, smsRequest(phone))), ['sms', 'phone_number']);
	});

	test.each(NON_INDONESIAN_NUMBERS)('rejects sms.phone_number outside +62: %s', (_name, phone) => {
		expectIssueAt(parse(combinedRequest(undefined, smsRequest(phone))), ['sms', 'phone_number'], /\+62/);
	});

	test.each<[string, Json, IssuePath]>([
		['sms.message empty', smsRequest(undefined, ''), ['sms', 'message']],
		['sms.message whitespace only', smsRequest(undefined, '   '), ['sms', 'message']],
		['sms.message missing', withoutField(smsRequest(), ['message']), ['sms', 'message']],
		['sms.phone_number missing', withoutField(smsRequest(), ['phone_number']), ['sms', 'phone_number']],
		['sms unknown key', withField(smsRequest(), ['to'], '+6281234567890'), ['sms']],
	])('rejects %s', (_name, sms, path) => {
		expectIssueAt(parse(combinedRequest(undefined, sms)), path);
	});
});

describe('whole request', () => {
	test('unknown top-level key is rejected', () => {
		const result = parse(withField(combinedRequest(), ['whatsapp'], {}));
		expectIssueAt(result, [], /whatsapp/);
	});

	test('both parts invalid: one parse reports both, each under its own prefix', () => {
		const result = parse(
			combinedRequest(withField(templateMessage(), ['to'], '0812345'), smsRequest('+14155552671', '')),
		);
		expect(result.success).toBe(false);
		const paths = result.success ? [] : result.error.issues.map((issue) => issue.path);
		expect(paths).toEqual(
			expect.arrayContaining([
				['chat', 'to'],
				['sms', 'phone_number'],
				['sms', 'message'],
			]),
		);
		expect(paths.every((path) => path[0] === 'chat' || path[0] === 'sms')).toBe(true);
	});

	test('a valid chat part does not hide an invalid sms part', () => {
		const result = parse(combinedRequest(undefined, smsRequest('+6581234567')));
		expect(result.success ? [] : result.error.issues.map((issue) => issue.path)).toEqual([['sms', 'phone_number']]);
	});

	test('a valid sms part does not hide an invalid chat part', () => {
		const result = parse(combinedRequest(templateMessage([])));
		expect(result.success ? [] : result.error.issues.map((issue) => issue.path)).toEqual([['chat', 'template', 'components']]);
	});
});
