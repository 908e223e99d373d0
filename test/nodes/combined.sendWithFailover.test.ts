import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../helpers/engine';
import { credentialsFor, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

const failover = (fields: INodeParameters = {}): INodeParameters => ({
	resource: 'combined',
	operation: 'sendWithFailover',
	from: '+6281100000000',
	to: '={{ $json.phone }}',
	templateName: 'otp',
	bodyParameters: { parameter: [{ text: '={{ $json.code }}' }] },
	quickReplyButtons: { button: [{ index: '0', payload: 'not-me' }] },
	smsPhoneNumber: '={{ $json.phone }}',
	smsMessage: '=Your code is {{ $json.code }}',
	...fields,
});

describe('Combined Notification → Send with Failover through the engine', () => {
	test('sends { chat, sms } exactly and outputs each channel status', async () => {
		const { output, error } = await runNode({
			parameters: failover(),
			items: [{ phone: '+6281234567890', code: '734201' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		const [request] = sandbox().requests;
		expect(request.path).toBe('/v1/combined/notification/failover');
		expect(request.headers.authorization).toBe(sandbox().apiKey);
		expect(JSON.parse(request.rawBody)).toEqual({
			chat: {
				from: '+6281100000000',
				to: '+6281234567890',
				type: 'template',
				template: {
					name: 'otp',
					language: { policy: 'deterministic', code: 'id' },
					components: [
						{ type: 'body', parameters: [{ type: 'text', text: '734201' }] },
						{ type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'not-me' }] },
					],
				},
			},
			sms: { phone_number: '+6281234567890', message: 'Your code is 734201' },
		});
		expect(output).toEqual([
			{
				json: {
					message: 'success',
					data: { request_id: request.id, result: { sms: { status: 'failover' }, chat: { status: 'requested' } } },
					from: '+6281100000000',
					to: '+6281234567890',
					smsPhoneNumber: '+6281234567890',
					chatStatus: 'requested',
					smsStatus: 'failover',
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test.each<[string, INodeParameters, string]>([
		['the SMS part to a non-Indonesian number', { smsPhoneNumber: '+6591234567' }, 'Item 0: SMS Phone Number must be an Indonesian number starting with +62'],
		['an empty SMS message', { smsMessage: '={{ "" }}' }, 'Item 0: SMS Message is required'],
		['a chat part with an http header image', { headerImageUrl: 'http://x.example.com/a.png' }, 'Item 0: Header Image URL must be a valid https:// URL'],
		['a chat recipient that is not E.164', { to: '12', options: { phoneNumberFormat: 'strict' } }, 'Item 0: To must be an E.164 phone number'],
	])('%s → NodeOperationError before either part is sent', async (_name, fields, message) => {
		const { error } = await runNode({
			parameters: failover(fields),
			items: [{ phone: '+6281234567890', code: '1' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message.startsWith(message)).toBe(true);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('both parts are checked: the description lists the chat and the SMS problem', async () => {
		const { error } = await runNode({
			parameters: failover({ to: 'x', smsPhoneNumber: '+6591234567', options: { phoneNumberFormat: 'strict' } }),
			items: [{ phone: '+6281234567890', code: '1' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.description).toContain('• To must be an E.164 phone number');
		expect(error?.description).toContain('• SMS Phone Number must be an Indonesian number starting with +62');
		expect(sandbox().requests).toHaveLength(0);
	});

	test('a service failure surfaces its text; continue on fail keeps the next item', async () => {
		sandbox().injectFault({ kind: 'status', status: 502, message: 'upstream chat channel unavailable' });
		const { output } = await runNode({
			parameters: failover({ options: { concurrency: 1 } }),
			items: [
				{ phone: '+6281234567890', code: '1' },
				{ phone: '+6281234567891', code: '2' },
			],
			credentials: credentialsFor(sandbox()),
			continueOnFail: true,
		});

		expect(output?.[0]).toEqual({
			json: expect.objectContaining({
				error: 'The service answered HTTP 502: upstream chat channel unavailable',
				httpCode: '502',
			}),
			pairedItem: { item: 0 },
		});
		expect(output?.[1]).toEqual({
			json: expect.objectContaining({ chatStatus: 'requested', smsStatus: 'failover' }),
			pairedItem: { item: 1 },
		});
	});
});
