/**
 * The credential test's verdict for each kind of answer, word for word, against a plain-http
 * server on 127.0.0.1 (the credential's Allow Plain HTTP on): the key refused (401, 403, with or
 * without the service's message), no endpoint (404, 405), a failing service, a redirect with and
 * without a Location, an answer over 1 MiB, nothing listening, an unusable credential, and the
 * statuses at each edge of "accepted".
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';

import { testCredential } from '../../../../nodes/MultiChannelNotification/transport';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let handler: Handler = (_request, response) => response.end();
let baseUrl = '';
const seen: Array<{ method?: string; url?: string; authorization?: string; body: string }> = [];
const sockets = new Set<Socket>();
const server = createServer((request, response) => {
	let body = '';
	request.on('data', (chunk: Buffer) => (body += chunk.toString()));
	request.on('end', () => {
		seen.push({ method: request.method, url: request.url, authorization: request.headers.authorization, body });
		handler(request, response);
	});
});
server.on('connection', (socket) => sockets.add(socket));

beforeAll(async () => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
	seen.length = 0;
});
afterAll(async () => {
	sockets.forEach((socket) => socket.destroy());
	await new Promise((resolve) => server.close(resolve));
});

const KEY = 'credential-key-4b9e1f27';

async function verdict(data: Record<string, unknown> = {}): Promise<INodeCredentialTestResult> {
	const credential: ICredentialsDecrypted = { id: '1', name: 'Test', type: 'multiChannelNotificationApi', data: { apiKey: KEY, baseUrl, allowPlainHttp: true, ...data } };
	return await testCredential.call({} as ICredentialTestFunctions, credential);
}

const answering = (status: number, body = '', headers: Record<string, string> = {}): Handler => (_request, response) => {
	response.writeHead(status, headers);
	response.end(body);
};
const json = (status: number, body: unknown) => answering(status, JSON.stringify(body), { 'Content-Type': 'application/json' });

test('one POST of an empty JSON object to the SMS endpoint, with the key as the Authorization header', async () => {
	handler = json(400, { message: 'phone_number is required' });

	expect(await verdict()).toEqual({ status: 'OK', message: 'Connection successful: the service accepted the API key' });
	expect(seen).toEqual([{ method: 'POST', url: '/v1/sms/notification', authorization: KEY, body: '{}' }]);
});

test.each([200, 299, 400, 402, 422, 429, 499])('HTTP %i: the key was accepted', async (status) => {
	handler = json(status, { message: 'whatever' });

	expect((await verdict()).status).toBe('OK');
});

test.each([
	[401, json(401, { message: 'unknown key SECRET' }), 'The service rejected the API key (HTTP 401): unknown key SECRET'],
	[403, json(403, { message: 'forbidden' }), 'The service rejected the API key (HTTP 403): forbidden'],
	[401, answering(401, '<h1>no</h1>'), 'The service rejected the API key (HTTP 401): an answer without a JSON message'],
	[401, answering(401, ' '), 'The service rejected the API key (HTTP 401): no message in the answer'],
	[500, json(500, { message: 'boom' }), 'The service failed (HTTP 500): boom'],
	[503, answering(503, ''), 'The service failed (HTTP 503): no message in the answer'],
])('HTTP %i: %s', async (_status, answer, message) => {
	handler = answer;

	expect(await verdict()).toEqual({ status: 'Error', message });
});

test('the key in the service’s message is masked', async () => {
	handler = json(401, { message: `unknown key ${KEY}` });

	expect(await verdict()).toEqual({ status: 'Error', message: 'The service rejected the API key (HTTP 401): unknown key ***' });
});

test.each([404, 405])('HTTP %i: no endpoint at the Base URL', async (status) => {
	handler = json(status, { message: 'not here' });

	expect(await verdict()).toEqual({ status: 'Error', message: `No notification endpoint at ${baseUrl}/v1/sms/notification (HTTP ${status}): check the Base URL` });
});

test.each([
	['a Location', { location: '/moved/here?key=1' }, '/moved/here'],
	['no Location', {}, null],
])('a redirect with %s: never followed, never OK', async (_name, headers, path) => {
	handler = answering(308, '', headers);
	const target = path === null ? '(no Location given)' : `${baseUrl}${path}`;

	expect(await verdict()).toEqual({
		status: 'Error',
		message: `The service redirected the test request (HTTP 308) to ${target}. Redirects are never followed, so the key goes only to the Base URL: if the service has moved, use its new address as the Base URL.`,
	});
	expect(seen).toHaveLength(1);
});

test('an answer over 1 MiB: not the notification service', async () => {
	handler = answering(200, 'x'.repeat(1_048_577));

	expect(await verdict()).toEqual({
		status: 'Error',
		message: `The answer from ${baseUrl}/v1/sms/notification was larger than 1 MiB: this is not the notification service. Check the Base URL.`,
	});
});

test('nothing listening: the cause and its code, and that this test cannot use a proxy', async () => {
	const closed = createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	const port = (closed.address() as AddressInfo).port;
	await new Promise((resolve) => closed.close(resolve));

	const result = await verdict({ baseUrl: `http://127.0.0.1:${port}` });

	expect(result.status).toBe('Error');
	expect(result.message).toMatch(new RegExp(`^Could not reach the service at http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED.*\\. If this n8n reaches the service only through a proxy \\(HTTPS_PROXY or HTTP_PROXY\\), this test cannot use it, but sends do$`));
	expect(result.message.match(/ECONNREFUSED/g)).toHaveLength(1);
});

test.each([
	['an empty Base URL', { baseUrl: '' }, 'Nothing was sent: the Base URL is empty'],
	['plain http without the switch', { allowPlainHttp: false }, 'Nothing was sent: the Base URL'],
	['an empty key', { apiKey: ' ' }, 'Nothing was sent: the API key is empty'],
])('%s: refused before anything is sent', async (_name, data, start) => {
	const result = await verdict(data);

	expect(result.status).toBe('Error');
	expect(result.message.startsWith(start)).toBe(true);
	expect(seen).toEqual([]);
});
