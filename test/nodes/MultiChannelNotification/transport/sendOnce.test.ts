/**
 * sendOnce on a stub client: a 429 is returned (not thrown) with its Retry-After, since the
 * request was refused and may be sent again; a confirmed send is returned as sent; and a context
 * without n8n's cancel signal (older n8n releases do not offer one) still sends.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { sendOnce } from '../../../../nodes/MultiChannelNotification/transport';
import type { ServiceConnection } from '../../../../nodes/MultiChannelNotification/transport';
import type { Answer, Client } from '../../../../nodes/MultiChannelNotification/transport/exchange';

const node: INode = { id: 'target', name: 'Multi-Channel Notification', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} };
/** n8n's context as a release without getExecutionCancelSignal gives it. */
const context = { getNode: () => node } as unknown as IExecuteFunctions;
const connection = { baseUrl: 'https://service.example', scrub: (text: string) => text, ignoreSslIssues: false } as ServiceConnection;

const answering = (answer: Answer): Client => async () => answer;
const send = async (client: Client) =>
	await sendOnce.call(context, connection, client, '/v1/sms/notification', { message: 'hi' }, { itemIndex: 0, timeout: 1_000 });

test('a confirmed send, with no cancel signal in the context: sent', async () => {
	await expect(send(answering({ status: 200, headers: {}, text: '{"message":"success","data":{"id":"m1"}}' }))).resolves.toEqual({
		kind: 'sent',
		response: { message: 'success', data: { id: 'm1' } },
	});
});

test('HTTP 429: returned as rate limited with its Retry-After and the error, not thrown', async () => {
	const outcome = await send(answering({ status: 429, headers: { 'retry-after': '7' }, text: '{"message":"slow down"}' }));

	expect(outcome).toEqual({ kind: 'rateLimited', retryAfter: '7', error: expect.any(Error) });
	expect(outcome.kind === 'rateLimited' && outcome.error.message).toBe('The service answered HTTP 429: slow down');
});
