/**
 * The transport path and the Base URL rules.
 * - An https Base URL is sent through n8n's request helper and delivers (so this suite does not
 *   just fail everything).
 * - A Base URL ending in /v1 or /v1/ still sends to /v1/sms/notification, never /v1/v1/….
 * - Refused before any connection: user:password in the URL (the password never appears in the
 *   error), any query or fragment (even an empty trailing ? or #), whitespace inside.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	errorText,
	expectNoKey,
	expectNotReportedSent,
	SMS_TEXT,
	SPECIAL_KEY,
	smsParameters,
	useHostileService,
} from '../../../helpers/boundary';
import { runNode } from '../../../helpers/engine';
import type { RunNodeResult } from '../../../helpers/engine';

const https = useHostileService();

const PASSWORD = 's3cret-Pa55word-77';

async function send(baseUrl: string, items?: IDataObject[], options?: INodeParameters): Promise<RunNodeResult> {
	return await runNode({
		parameters: smsParameters(options),
		items,
		credentials: { apiKey: SPECIAL_KEY, baseUrl },
	});
}

test('a send is delivered: the exact request, the output item with the service answer', async () => {
	https.answer = () => ({
		status: 200,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ message: 'success', data: { id: 'sms-1', request_id: 7, full_content: SMS_TEXT } }),
	});
	const result = await send(https.url);

	expect(result.error).toBeUndefined();
	expect(result.output).toEqual([
		{
			json: expect.objectContaining({ message: 'success', data: { id: 'sms-1', request_id: 7, full_content: SMS_TEXT } }),
			pairedItem: { item: 0 },
		},
	]);
	expect(https.requests).toHaveLength(1);
	const [request] = https.requests;
	expect(request).toMatchObject({ method: 'POST', url: '/v1/sms/notification' });
	expect(request.headers.authorization).toBe(SPECIAL_KEY);
	expect(request.headers['content-type']).toMatch(/^application\/json/);
	expect(JSON.parse(request.body)).toEqual({ phone_number: '+6281234567890', message: SMS_TEXT });
	expectNoKey(result, SPECIAL_KEY);
});

test.each(['/v1', '/v1/'])('a Base URL ending in %s sends to /v1/sms/notification', async (suffix) => {
	const result = await send(`${https.url}${suffix}`);

	expect(result.error).toBeUndefined();
	expect(https.requests.map((request) => request.url)).toEqual(['/v1/sms/notification']);
});

const refused: Array<[string, (url: string) => string]> = [
	['a trailing ?', (url) => `${url}?`],
	['a trailing #', (url) => `${url}#`],
	['a trailing /?', (url) => `${url}/?`],
	['a query', (url) => `${url}/?tenant=a`],
	['a fragment', (url) => `${url}#section`],
	['a space inside', (url) => `${url}/my service`],
	['a tab inside', (url) => `${url}/my\tservice`],
	['a line break inside', (url) => `${url}/my\nservice`],
	['user:password in it', (url) => url.replace('://', `://mcn-user:${PASSWORD}@`)],
];

test.each(refused)('%s: refused, no connection, no secret shown', async (_name, make) => {
	const baseUrl = make(https.url);
	const result = await send(baseUrl);

	expect({ error: result.error?.name, connections: https.connections(), requests: https.requests.length }).toEqual({
		error: 'NodeOperationError',
		connections: 0,
		requests: 0,
	});
	expect(errorText(result).message).toMatch(/Base URL/);
	expectNotReportedSent(result, false);
	expectNoKey(result, PASSWORD);
	expectNoKey(result, SPECIAL_KEY);
});
