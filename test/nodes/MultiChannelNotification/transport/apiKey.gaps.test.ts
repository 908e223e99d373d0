/**
 * An API key that reaches the node as something other than a string. n8n stores credential
 * fields as typed in its API or an imported credential file, so a numeric key (12345678) can
 * arrive as a number; it is sent as its digits. Any other non-string (missing, null, true, an
 * object) is an empty key: refused before anything is sent.
 */
import { MultiChannelNotificationApi } from '../../../../credentials/MultiChannelNotificationApi.credentials';
import { checkApiKey } from '../../../../nodes/MultiChannelNotification/transport';
import { runNode } from '../../../helpers/engine';
import { useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox({ apiKey: '20260101' });

const sms = { resource: 'sms', operation: 'send', phoneNumber: '+6281234567890', message: 'Your code is 1234' };

describe('the key check', () => {
	test('a number: its digits', () => {
		expect(checkApiKey(20260101)).toEqual({ data: '20260101' });
	});

	test.each([
		['missing', undefined],
		['null', null],
		['true', true],
		['an object', { key: 'abc' }],
		['a list', ['abc']],
	])('%s: an empty key', (_name, key) => {
		expect(checkApiKey(key)).toEqual({ problems: [{ field: 'API Key', path: ['apiKey'], rule: 'is empty' }] });
	});
});

describe('the credential’s Authorization header', () => {
	const authenticate = new MultiChannelNotificationApi().authenticate;

	test.each([
		['a number', 20260101, '20260101'],
		['a string with spaces around it', '  20260101 ', '20260101'],
		['missing', undefined, ''],
	])('%s', async (_name, apiKey, header) => {
		const request = await authenticate({ apiKey, baseUrl: 'https://notify.example.com' } as never, {
			url: 'https://notify.example.com/v1/sms/notification',
			headers: { Accept: 'application/json' },
		});

		expect(request.headers).toEqual({ Accept: 'application/json', Authorization: header });
	});
});

describe('through n8n’s engine', () => {
	test('a numeric key: the SMS is sent with the digits as the Authorization header', async () => {
		const { output, error } = await runNode({
			parameters: sms,
			credentials: { apiKey: 20260101 as unknown as string, baseUrl: sandbox().url },
		});

		expect(error).toBeUndefined();
		expect(output?.[0].json.message).toBe('success');
		expect(sandbox().requests.map((request) => request.headers.authorization)).toEqual(['20260101']);
	});

	test('a key that is not a string or number: a credential problem, nothing sent', async () => {
		const { error } = await runNode({
			parameters: sms,
			credentials: { apiKey: true as unknown as string, baseUrl: sandbox().url },
		});

		expect(error?.message).toBe('Credential problem: the API key is empty');
		expect(sandbox().requests).toHaveLength(0);
	});
});
