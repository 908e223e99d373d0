import type { INodeParameters } from 'n8n-workflow';

import { normalizePhoneNumber } from '../../../../nodes/MultiChannelNotification/helpers/phoneNumber';
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox({ startedChats: ['+6281234567890'] });

describe('normalizePhoneNumber', () => {
	test.each([
		['+6281234567890', '+6281234567890', 'already E.164'],
		['0812-3456-7890', '+6281234567890', 'local Indonesian with dashes'],
		['0812 3456 7890', '+6281234567890', 'local Indonesian with spaces'],
		['(0812) 3456.7890', '+6281234567890', 'brackets and dots'],
		['6281234567890', '+6281234567890', 'country code without +'],
		['62 812-3456-7890', '+6281234567890', 'country code without +, spaced'],
		['+62 812 3456 7890', '+6281234567890', 'E.164 typed with spaces'],
		['+1 (415) 555-2671', '+14155552671', 'another country, formatted'],
	])('%s → %s (%s)', (typed, expected) => {
		expect(normalizePhoneNumber(typed, 'normalize')).toBe(expected);
	});

	test.each([
		['812345', 'too short and no country: never guessed'],
		['14155552671', 'digits without + that are not Indonesian: never guessed'],
		['0', 'a lone zero'],
		['+62 812 abc', 'letters'],
		['', 'empty'],
		['00 62 812 3456 7890', 'international 00 prefix: not guessed'],
		['0062812345678', 'international 00 prefix, compact'],
		['+62 0812 3456 7890', 'trunk 0 kept after +62'],
		['62 0812 3456 7890', 'trunk 0 kept after 62'],
	])('%s stays as typed (%s)', (typed) => {
		expect(normalizePhoneNumber(typed, 'normalize')).toBe(typed);
	});

	test('strict mode and non-text values are left alone', () => {
		expect(normalizePhoneNumber('0812-3456-7890', 'strict')).toBe('0812-3456-7890');
		expect(normalizePhoneNumber(6281234567890, 'normalize')).toBe(6281234567890);
	});
});

describe('Phone number format option through the engine', () => {
	const credentials = () => credentialsFor(sandbox());

	test('SMS: a local number is sent as +62… and the output shows the number used', async () => {
		const { output, error } = await runNode({
			parameters: { resource: 'sms', operation: 'send', phoneNumber: '={{ $json.phone }}', message: 'Hi' },
			items: [{ phone: '0812-3456-7890' }, { phone: '62 812 3456 7891' }],
			credentials: credentials(),
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests.map((request) => (request.body as { phone_number: string }).phone_number)).toEqual([
			'+6281234567890',
			'+6281234567891',
		]);
		expect(output?.map((item) => item.json.phoneNumber)).toEqual(['+6281234567890', '+6281234567891']);
	});

	test('template: From and To are normalised too', async () => {
		const { output } = await runNode({
			parameters: {
				resource: 'chatMessage',
				operation: 'sendTemplate',
				from: '0811 0000 000',
				to: '(0812) 3456-7890',
				templateName: 'hello',
			},
			credentials: credentials(),
		});

		expect(sandbox().requests[0].body).toMatchObject({ from: '+628110000000', to: '+6281234567890' });
		expect(output?.[0].json).toMatchObject({ from: '+628110000000', to: '+6281234567890' });
	});

	test('media: To is normalised, so the started chat is found', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'chatMessage',
				operation: 'sendMedia',
				from: '+628110000000',
				to: '0812.3456.7890',
				mediaType: 'audio',
				mediaUrl: 'https://cdn.example.com/a.ogg',
			},
			credentials: credentials(),
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests[0].body).toMatchObject({ to: '+6281234567890' });
	});

	test('failover: chat To and SMS Phone Number both normalised', async () => {
		const { output } = await runNode({
			parameters: {
				resource: 'combined',
				operation: 'sendWithFailover',
				from: '+628110000000',
				to: '0812 3456 7890',
				templateName: 'otp',
				phoneNumber: '6281234567890',
				message: 'code 1',
			},
			credentials: credentials(),
		});

		expect(sandbox().requests[0].body).toMatchObject({
			chat: { to: '+6281234567890' },
			sms: { phone_number: '+6281234567890' },
		});
		expect(output?.[0].json).toMatchObject({ to: '+6281234567890', phoneNumber: '+6281234567890' });
	});

	test('what normalising cannot fix is an error showing the value as typed', async () => {
		const { error } = await runNode({
			parameters: { resource: 'sms', operation: 'send', phoneNumber: '812-345', message: 'Hi' },
			credentials: credentials(),
		});

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.description).toMatch(/^• Phone Number must be in full international form like \+6281234567890.* — got "812-345"$/m);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('strict mode sends nothing for a local number', async () => {
		const parameters: INodeParameters = {
			resource: 'sms',
			operation: 'send',
			phoneNumber: '0812-3456-7890',
			message: 'Hi',
			options: { phoneNumberFormat: 'strict' },
		};
		const { error } = await runNode({ parameters, credentials: credentials() });

		expect(error?.description).toMatch(/^• Phone Number must be in full international form like \+6281234567890.* — got "0812-3456-7890"$/m);
		expect(sandbox().requests).toHaveLength(0);
	});
});
