/**
 * The credential test against a misbehaving service, run the way n8n's CredentialsTester runs it
 * (n8n-core's CredentialTestContext). Every answer gets its own correct verdict: a refused key
 * (401 JSON, 401 page, 403) is told apart from a redirect (never followed, never 'OK'), a wrong
 * Base URL (404), a failing service (5xx) and nothing listening; a 400 means the key was
 * accepted. A key that cannot be sent fails before any connection. The message carries at most
 * the service's own `message`, scrubbed of the key — never other body text — and a 64 MiB
 * answer neither hangs the test nor blows up memory.
 */
import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';
import { CredentialTestContext } from 'n8n-core';

import { MultiChannelNotificationApi } from '../../credentials/MultiChannelNotificationApi.credentials';
import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { expectTextHasNoKey, SPECIAL_KEY, useHostileService, withPeakRss } from '../helpers/boundary';
import type { HostileAnswer } from '../helpers/hostileService';
import { closedPort, redirectAnswer, streamedAnswer } from '../helpers/hostileService';

const credential = new MultiChannelNotificationApi();
const node = new MultiChannelNotification();

async function testCredential(data: { apiKey: string; baseUrl: string }): Promise<INodeCredentialTestResult> {
	const [reference] = node.description.credentials ?? [];
	const test = node.methods.credentialTest[reference.testedBy as 'multiChannelNotificationApiTest'];
	const decrypted: ICredentialsDecrypted = { id: '1', name: 'Boundary', type: credential.name, data };
	return await test.call(new CredentialTestContext() as unknown as ICredentialTestFunctions, decrypted);
}

const https = useHostileService();
const target = useHostileService();

const json = (status: number, body: unknown): HostileAnswer => ({
	status,
	headers: { 'content-type': 'application/json' },
	body: JSON.stringify(body),
});
const page = (status: number, body: string): HostileAnswer => ({ status, headers: { 'content-type': 'text/html' }, body });

test('400 (the empty request refused as invalid): OK, the key was accepted', async () => {
	https.answer = () => json(400, { message: 'phone_number is required' });
	const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url });

	expect(result.status).toBe('OK');
	expect(https.requests).toHaveLength(1);
	expect(https.requests[0]).toMatchObject({ method: 'POST', url: '/v1/sms/notification', body: '{}' });
	expect(https.requests[0].headers.authorization).toBe(SPECIAL_KEY);
});

test('401 JSON: Error, the key was rejected, with the service message', async () => {
	https.answer = () => json(401, { message: 'Unauthorized: unknown key' });
	const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url });

	expect(result.status).toBe('Error');
	expect(result.message).toMatch(/rejected the API key/);
	expect(result.message).toContain('Unauthorized: unknown key');
});

describe('a refused key', () => {
	const refusals: Array<[string, HostileAnswer]> = [
		['401 JSON', json(401, { message: 'Unauthorized: unknown key' })],
		['401 non-JSON', page(401, '<html><body>401 Authorization Required</body></html>')],
		['403', json(403, { message: 'Forbidden' })],
	];

	test.each(refusals)('%s: Error, "rejected the API key"', async (_name, answer) => {
		https.answer = () => answer;
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the API key/);
		expect(result.message).not.toMatch(/<html|Authorization Required/);
		expect(https.requests).toHaveLength(1);
	});

	test('401 JSON, 401 non-JSON and 403 each get their own message', async () => {
		const messages: string[] = [];
		for (const [, answer] of refusals) {
			https.answer = () => answer;
			messages.push((await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url })).message);
		}
		expect(new Set(messages).size).toBe(3);
	});
});

describe('other answers', () => {
	test.each([301, 302, 303, 307, 308])('%i: Error naming the redirect (not its query), never OK; the target sees nothing', async (status) => {
		https.answer = () => redirectAnswer(status, `${target.url}/v1/sms/notification?token=abc`);
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url });

		expect({ status: result.status, requests: https.requests.length, targetRequests: target.requests.length, targetConnections: target.connections() }).toEqual({
			status: 'Error',
			requests: 1,
			targetRequests: 0,
			targetConnections: 0,
		});
		expect(result.message).toMatch(/redirect/i);
		expect(result.message).not.toContain('token=abc');
		expect(result.message).not.toMatch(/rejected the API key/);
	});

	test('404: Error pointing at the endpoint or the Base URL', async () => {
		https.answer = () => page(404, 'Not Found');
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/endpoint|Base URL/);
		expect(result.message).not.toMatch(/rejected the API key/);
	});

	test.each([500, 502, 503])('%i: Error, the service failed', async (status) => {
		https.answer = () => json(status, { message: 'internal failure' });
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/service failed/i);
		expect(result.message).not.toMatch(/rejected the API key/);
	});

	test('nothing listening: Error naming the cause', async () => {
		const port = await closedPort();
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: `https://127.0.0.1:${port}` });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/ECONNREFUSED|nothing (is )?listening/i);
		expectTextHasNoKey(result.message, SPECIAL_KEY);
	});

	test('a 64 MiB answer: a verdict without hanging, RSS bounded, none of the body in the message', async () => {
		https.answer = () =>
			streamedAnswer('{"message":"Unauthorized","detail":"BIG-CREDENTIAL-MARKER"', 64 * 1024 * 1024, '}', { status: 401 });
		const { result, peakGrowthMb } = await withPeakRss(async () => await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url }));
		console.log(`[service boundary] credential test, 64 MiB answer: peak RSS growth ${peakGrowthMb} MB`);

		expect(result.status).toBe('Error');
		expect(result.message.length).toBeLessThan(1000);
		expect(result.message).not.toContain('BIG-CREDENTIAL-MARKER');
		expect(peakGrowthMb).toBeLessThan(150);
		expect(https.requests).toHaveLength(1);
	});
});

describe('what the message may contain', () => {
	test('a 401 page holding the key and other text: neither appears', async () => {
		https.answer = () =>
			page(401, `<html><body><h1>Denied</h1><p>internal-trace-5521 for key ${SPECIAL_KEY} (${encodeURIComponent(SPECIAL_KEY)})</p></body></html>`);
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the API key/);
		expect(result.message).not.toMatch(/internal-trace-5521|Denied|<h1>/);
		expectTextHasNoKey(result.message, SPECIAL_KEY);
	});

	test("a 401 JSON whose message holds the key: the service's message, scrubbed, and nothing else of the body", async () => {
		https.answer = () => json(401, { message: `key ${SPECIAL_KEY} is revoked`, trace: 'internal-trace-7781', key: SPECIAL_KEY });
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: https.url });

		expect(result.status).toBe('Error');
		expect(result.message).toContain('key *** is revoked');
		expect(result.message).not.toContain('internal-trace-7781');
		expectTextHasNoKey(result.message, SPECIAL_KEY);
	});
});

describe('a key that cannot be sent', () => {
	test.each([
		['an inner space', 'good-key-part more-key-part'],
		['a line break', 'good-key-part\r\nX-Injected: yes'],
		['a NUL', 'good-key-part\u0000more-key-part'],
		['a tab', 'good-key-part\tmore-key-part'],
		['a non-ASCII character', 'ké'],
	])('%s: Error saying nothing was sent, no connection', async (_name, apiKey) => {
		const result = await testCredential({ apiKey, baseUrl: https.url });

		expect({ status: result.status, connections: https.connections(), requests: https.requests.length }).toEqual({
			status: 'Error',
			connections: 0,
			requests: 0,
		});
		expect(result.message).toMatch(/nothing was sent/i);
		expectTextHasNoKey(result.message, apiKey);
	});
});
