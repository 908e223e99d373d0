import type { IExecuteFunctions, INode, INodeParameters } from 'n8n-workflow';

import type { ItemOptions } from '../../../../../nodes/MultiChannelNotification/delivery/options';
import { prepare } from '../../../../../nodes/MultiChannelNotification/actions/sms/send.operation';
import { problemsOf } from '../../../../../nodes/MultiChannelNotification/helpers/errors';
import { NODE_TYPE, runNode } from '../../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../../helpers/sandbox';
import { expectRefused } from '../../../../fixtures/problems';
import { requestFixture } from '../../../../fixtures/requests';

const sandbox = useSandbox();

const sms = (fields: INodeParameters, options: INodeParameters = {}): INodeParameters => ({
	resource: 'sms',
	operation: 'send',
	phoneNumber: '+6281234567890',
	message: 'Your code is 123456',
	options,
	...fields,
});

describe('SMS → Send through the engine', () => {
	test('sends the exact body with the raw API key and outputs the service answer', async () => {
		const { output, error } = await runNode({
			parameters: sms({}),
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		const [request] = sandbox().requests;
		expect(sandbox().requests).toHaveLength(1);
		expect(request.path).toBe('/v1/sms/notification');
		expect(request.method).toBe('POST');
		expect(request.headers.authorization).toBe('test-key-9f2c41d7');
		expect(request.headers['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(request.rawBody)).toEqual(requestFixture('sms'));
		expect(output).toEqual([
			{
				json: {
					message: 'success',
					data: {
						id: request.id,
						request_id: expect.any(Number),
						full_content: 'Your code is 123456',
					},
					phoneNumber: '+6281234567890',
					sms: { encoding: 'GSM-7', segments: 1, length: 19, forcedBy: [] },
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('expressions read each input item', async () => {
		const { output, error } = await runNode({
			parameters: sms({ phoneNumber: '={{ $json.phone }}', message: '=Hi {{ $json.name }}, order {{ $json.order }} shipped' }),
			items: [
				{ phone: '+6281111111111', name: 'Budi', order: 17 },
				{ phone: '+6282222222222', name: 'Sari', order: 18 },
			],
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests.map((request) => request.body)).toEqual([
			{ phone_number: '+6281111111111', message: 'Hi Budi, order 17 shipped' },
			{ phone_number: '+6282222222222', message: 'Hi Sari, order 18 shipped' },
		]);
		expect(output?.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test.each([
		['a number outside Indonesia', { phoneNumber: '+6591234567' }, 'Phone Number', '+62'],
		['a number without the leading +', { phoneNumber: '6281234567890' }, 'Phone Number', 'E.164'],
		['letters in the number', { phoneNumber: '+62812ABC4567' }, 'Phone Number', 'E.164'],
		['a message that evaluates to nothing', { message: '={{ "" }}' }, 'Message', 'required'],
		['a whitespace-only message', { message: '   ' }, 'Message', 'required'],
	])('%s → NodeOperationError naming the field, nothing sent', async (_name, fields, label, rule) => {
		const { output, error } = await runNode({
			parameters: sms(fields, { phoneNumberFormat: 'strict' }),
			credentials: credentialsFor(sandbox()),
		});

		expect(output).toBeUndefined();
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toMatch(new RegExp(`^Item 0: ${label} `));
		expect(error?.description).toContain(rule);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('the error shows the offending value', async () => {
		const { error } = await runNode({
			parameters: sms({ phoneNumber: '+6591234567' }),
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.description).toBe(
			'• Phone Number must be an Indonesian number starting with +62 (SMS cannot be sent to other numbers for now) — got "+6591234567"\nNothing was sent for this item.',
		);
	});

	test('both fields wrong at once (SMS has two): one error names both, with values', async () => {
		const { error } = await runNode({
			parameters: sms({ phoneNumber: '+62 812', message: '={{ " " }}' }, { phoneNumberFormat: 'strict' }),
			credentials: credentialsFor(sandbox()),
		});

		expectRefused(error, 'Item 0: 2 problems (Phone Number, Message)', [
			'Phone Number must be in full international form like +6281234567890 (a leading +, the country code and the number: 7 to 15 digits, the E.164 format) — got "+62 812"',
			'Message is required and must not be empty',
		]);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('three rules broken at once (both fields and an option): one error names all three', async () => {
		const { error } = await runNode({
			parameters: sms({ phoneNumber: '+6591234567', message: '={{ "" }}' }, { timeout: '={{ 0 }}' }),
			credentials: credentialsFor(sandbox()),
		});

		expectRefused(error, 'Item 0: 3 problems (Timeout (Milliseconds), Phone Number, Message)', [
			'Timeout (Milliseconds) must be a number of milliseconds from 1 to 3600000 (an hour) — got 0',
			'Phone Number must be an Indonesian number starting with +62 (SMS cannot be sent to other numbers for now) — got "+6591234567"',
			'Message is required and must not be empty',
		]);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('one invalid item stops the run before any item is sent', async () => {
		const { error } = await runNode({
			parameters: sms({ phoneNumber: '={{ $json.phone }}' }),
			items: [{ phone: '+6281111111111' }, { phone: '+6281222222222' }, { phone: '+1 555 0100' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toMatch(/^Item 2: Phone Number/);
		expect(error?.context?.itemIndex).toBe(2);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('a rejected key → NodeApiError with the service text and HTTP status, key not shown', async () => {
		const { error } = await runNode({
			parameters: sms({}),
			credentials: { ...credentialsFor(sandbox()), apiKey: 'wrong-key-5d1e' },
		});

		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('401');
		expect(error?.message).toBe('The service answered HTTP 401: Unauthorized: invalid API key');
		expect(JSON.stringify(error)).not.toContain('wrong-key-5d1e');
		expect(sandbox().deliveries()).toHaveLength(0);
	});

	test('a 2xx answer whose message is not "success" is an error', async () => {
		sandbox().injectFault({ kind: 'errorMessage', message: 'insufficient balance' });
		const { error } = await runNode({ parameters: sms({}), credentials: credentialsFor(sandbox()) });

		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The service did not confirm the send (HTTP 200): insufficient balance');
	});

	test('continue on fail: every item comes out, in order, paired; only valid items are sent', async () => {
		sandbox().injectFault({ kind: 'status', status: 500, message: 'SMS gateway down' });
		const { output, error } = await runNode({
			parameters: sms({ phoneNumber: '={{ $json.phone }}', message: '={{ $json.text }}' }, { concurrency: 1 }),
			items: [
				{ phone: '+6281000000001', text: 'first' },
				{ phone: '+6281000000002', text: 'second' },
				{ phone: '+6491000000003', text: 'bad country' },
				{ phone: '+6281000000004', text: '' },
				{ phone: '+6281000000005', text: 'fifth' },
			],
			credentials: credentialsFor(sandbox()),
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(output).toHaveLength(5);
		expect(output?.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		// The first request met the injected 500; the second and fifth went through.
		expect(output?.[0].json).toMatchObject({
			error: 'The service answered HTTP 500: SMS gateway down',
			httpCode: '500',
		});
		expect(output?.[1].json).toMatchObject({ message: 'success', phoneNumber: '+6281000000002' });
		expect(output?.[2].json.error).toMatch(/^Item 2: Phone Number must be an Indonesian number starting with \+62/);
		expect(output?.[3].json.error).toBe('Item 3: Message is required and must not be empty');
		expect(output?.[4].json).toMatchObject({ message: 'success', phoneNumber: '+6281000000005' });
		expect(sandbox().requests.map((request) => (request.body as { message: string }).message)).toEqual([
			'first',
			'second',
			'fifth',
		]);
	});
});

describe('SMS → Send: prepare on its own (the Options handed in)', () => {
	const node: INode = { id: 'n', name: 'Multi-Channel Notification', type: NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
	const context = (parameters: Record<string, unknown>) =>
		({ getNode: () => node, getNodeParameter: (name: string, _item: number, fallback?: unknown) => parameters[name] ?? fallback }) as unknown as IExecuteFunctions;
	const options: ItemOptions = {
		timeout: 30_000,
		dryRun: false,
		dedupeKey: '',
		dedupeHistorySize: 10_000,
		phoneNumberFormat: 'normalize',
		replaceLookAlikes: false,
		languagePolicy: undefined,
		pacing: { batchInterval: 0, maxWaitMs: 120_000 },
	};
	const twoSegments = 'x'.repeat(161);

	test('the request carries its SMS count once: in the output (`sms`), and the segments for the run summary', () => {
		const request = prepare.call(context({ phoneNumber: '+6281234567890', message: twoSegments }), 0, options);

		expect(request.extras.sms).toEqual({ encoding: 'GSM-7', segments: 2, length: 161, forcedBy: [] });
		expect(request.smsSegments).toBe(2);
		expect(Object.keys(request).sort()).toEqual(['body', 'endpoint', 'extras', 'smsSegments']);
	});

	test('an SMS over Max SMS Segments is refused by the operation itself, naming Message', () => {
		const read = () => prepare.call(context({ phoneNumber: '+6281234567890', message: twoSegments }), 0, { ...options, maxSmsSegments: 1 });

		expect(read).toThrow(expect.objectContaining({ name: 'NodeOperationError' }));
		expect(problemsOf(catchError(read))).toEqual([
			{
				field: 'Message',
				path: ['message'],
				rule: 'needs 2 SMS segments, more than Max SMS Segments allows (1): it is GSM-7 (160 characters in one SMS, 153 per segment; this one is 161)',
			},
		]);
	});
});

function catchError(act: () => unknown): unknown {
	try {
		act();
	} catch (error) {
		return error;
	}
	return undefined;
}
