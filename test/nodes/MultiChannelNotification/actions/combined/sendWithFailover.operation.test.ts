import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../../helpers/sandbox';
import { expectRefused } from '../../../../fixtures/problems';
import { requestFixture } from '../../../../fixtures/requests';

const sandbox = useSandbox();

const failover = (fields: INodeParameters = {}): INodeParameters => ({
	resource: 'combined',
	operation: 'sendWithFailover',
	from: '+6281100000000',
	to: '={{ $json.phone }}',
	templateName: 'otp',
	bodyParameters: { parameter: [{ text: '={{ $json.code }}' }] },
	quickReplyButtons: { button: [{ index: '0', payload: 'not-me' }] },
	phoneNumber: '={{ $json.phone }}',
	message: '=Your code is {{ $json.code }}',
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
		expect(JSON.parse(request.rawBody)).toEqual(requestFixture('combined-otp'));
		expect(output).toEqual([
			{
				json: {
					message: 'success',
					data: { request_id: request.id, result: { sms: { status: 'failover' }, chat: { status: 'requested' } } },
					from: '+6281100000000',
					to: '+6281234567890',
					phoneNumber: '+6281234567890',
					sms: { encoding: 'GSM-7', segments: 1, length: 19, forcedBy: [] },
					chatStatus: 'requested',
					smsStatus: 'failover',
				},
				pairedItem: { item: 0 },
			},
		]);
		// Without Template Content there is no preview: not even a key left undefined.
		expect(Object.keys(output?.[0].json ?? {})).not.toContain('preview');
	});

	test.each<[string, INodeParameters, string]>([
		['the SMS part to a non-Indonesian number', { phoneNumber: '+6591234567' }, 'SMS Phone Number must be an Indonesian number starting with +62'],
		['an empty SMS message', { message: '={{ "" }}' }, 'SMS Message is required'],
		['a chat part with an http header image', { headerImageUrl: 'http://x.example.com/a.png' }, 'Header Image URL must use https://, not http:// (the service only fetches https links)'],
		['a chat recipient that is not E.164', { to: '12', options: { phoneNumberFormat: 'strict' } }, 'To must be in full international form like +6281234567890'],
	])('%s → NodeOperationError before either part is sent', async (_name, fields, problem) => {
		const { error } = await runNode({
			parameters: failover(fields),
			items: [{ phone: '+6281234567890', code: '1' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.description).toContain(`• ${problem}`);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('the SMS number defaults to To, normalised the same way', async () => {
		const { phoneNumber: _unset, ...parameters } = failover({ to: '0812-3456-7890' });
		const { output, error } = await runNode({
			parameters,
			items: [{ code: '734201' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(JSON.parse(sandbox().requests[0].rawBody)).toEqual(requestFixture('combined-otp'));
		expect(output?.[0].json).toMatchObject({ to: '+6281234567890', phoneNumber: '+6281234567890' });
	});

	test('a chat recipient outside +62 with the SMS number left to default: the SMS +62 rule says so', async () => {
		const { phoneNumber: _unset, ...parameters } = failover({ to: '+6591234567' });
		const { error } = await runNode({
			parameters,
			items: [{ code: '734201' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(
			'Item 0: SMS Phone Number must be an Indonesian number starting with +62…',
		);
		expect(error?.description).toBe(
			[
				'• SMS Phone Number must be an Indonesian number starting with +62 (SMS cannot be sent to other numbers for now). It is the To number unless you set another one: put an Indonesian number starting with +62 in SMS Phone Number — got "+6591234567"',
				'Nothing was sent for this item.',
			].join('\n'),
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('three rules broken at once (chat To, placeholder count, SMS message): one error names all three', async () => {
		const { error } = await runNode({
			parameters: failover({
				to: 'not a number',
				phoneNumber: '+6281234567890',
				templateContent: 'Kode {{1}} untuk {{2}}',
				message: '={{ "" }}',
			}),
			items: [{ code: '734201' }],
			credentials: credentialsFor(sandbox()),
		});

		expectRefused(error, 'Item 0: 3 problems (To, SMS Message, Placeholder Values)', [
			'To must be in full international form like +6281234567890 (a leading +, the country code and the number: 7 to 15 digits, the E.164 format) — got "not a number"',
			'SMS Message is required and must not be empty',
			'Placeholder Values must have a value for each placeholder of Template Content ({{1}} to {{2}}), but 0 were given: fill in the inputs {{1}} to {{2}} below Template Content (Body Parameters is used only while Template Content is empty)',
		]);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('both parts are checked: the description lists the chat and the SMS problem', async () => {
		const { error } = await runNode({
			parameters: failover({ to: 'x', phoneNumber: '+6591234567', options: { phoneNumberFormat: 'strict' } }),
			items: [{ phone: '+6281234567890', code: '1' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.description).toContain('• To must be in full international form like +6281234567890');
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
