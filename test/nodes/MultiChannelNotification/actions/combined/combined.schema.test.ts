/**
 * Combined notification (spec: "Combined notification request"): the chat part is exactly a
 * template message and the SMS part exactly an SMS request, checked in one parse.
 */
import { COMBINED_LABELS, combinedSendSchema } from '../../../../../nodes/MultiChannelNotification/actions/combined/combined.schema';
import { requestFixture } from '../../../../fixtures/requests';
import { verdict } from '../../../../fixtures/problems';
import { INVALID_E164, NON_INDONESIAN_NUMBERS, combinedItem, quickReply } from '../../../../fixtures/values';

const check = (candidate: unknown) => verdict(combinedSendSchema, COMBINED_LABELS, candidate);

test('the body is { chat: template message, sms: SMS request } (fixture from the spec)', () => {
	const item = combinedItem({
		from: '+6281100000000',
		to: '+6281234567890',
		templateName: 'otp',
		bodyParameters: ['734201'],
		quickReplyButtons: [{ index: '0', payload: 'not-me' }],
		phoneNumber: '+6281234567890',
		message: 'Your code is 734201',
	});
	expect(check(item)).toEqual({ data: requestFixture('combined-otp'), problems: [] });
});

describe('SMS part: the SMS rules, named as the SMS fields', () => {
	test.each(INVALID_E164)('SMS Phone Number: rejects %s', (_name, phoneNumber) => {
		expect(check(combinedItem({ phoneNumber })).problems).toEqual([
			expect.objectContaining({ field: 'SMS Phone Number', path: ['phoneNumber'] }),
		]);
	});

	test.each(NON_INDONESIAN_NUMBERS)('SMS Phone Number: rejects %s (outside +62)', (_name, phoneNumber) => {
		expect(check(combinedItem({ phoneNumber })).problems).toEqual([
			expect.objectContaining({ field: 'SMS Phone Number', rule: expect.stringMatching(/\+62/) }),
		]);
	});

	test('SMS Message: required', () => {
		expect(check(combinedItem({ message: ' ' })).problems).toEqual([
			{ field: 'SMS Message', path: ['message'], rule: 'is required and must not be empty' },
		]);
	});
});

describe('chat part: the template rules', () => {
	test('four quick replies', () => {
		const quickReplyButtons = ['0', '1', '2', '2'].map((index) => ({ index, payload: 'x' }));
		expect(check(combinedItem({ quickReplyButtons })).problems).toEqual([
			expect.objectContaining({ field: 'Quick Reply Buttons', rule: 'must have at most 3 quick reply buttons (got 4)' }),
			expect.objectContaining({ field: 'Quick Reply Buttons → Button 4 → Index', rule: expect.stringMatching(/^must be unique/) }),
		]);
	});

	test('Components (JSON) without a body component', () => {
		const { bodyParameters: _b, quickReplyButtons: _q, ...item } = combinedItem();
		expect(check({ ...item, componentsJson: [quickReply('0')] }).problems).toEqual([
			expect.objectContaining({ field: 'Components (JSON)', rule: expect.stringMatching(/^must include the body component/) }),
		]);
	});
});

test('both parts wrong: one verdict lists the chat and the SMS problem', () => {
	expect(check(combinedItem({ to: 'x', phoneNumber: '+6581234567' })).problems.map((problem) => problem.field)).toEqual([
		'To',
		'SMS Phone Number',
	]);
});
