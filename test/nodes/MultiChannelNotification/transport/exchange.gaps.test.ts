/**
 * The exchange's ends that the engine tests do not reach: an execution cancelled while its
 * request is in flight, a deadline that passes with no answer, and an answer that declares more
 * than 1 MiB. Run against the two clients directly (a stub for n8n's request helper, a local
 * server for `fetch`), so each branch is hit on purpose rather than by a race.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { sendOnce } from '../../../../nodes/MultiChannelNotification/transport';
import type { ServiceConnection } from '../../../../nodes/MultiChannelNotification/transport';
import type { N8nRequest, StreamAnswer } from '../../../../nodes/MultiChannelNotification/transport/exchange';
import { fetchClient, n8nClient } from '../../../../nodes/MultiChannelNotification/transport/exchange';
import { failureOf } from '../../../helpers/wireFailure';

/** The documented cap on an answer: 1 MiB. Written out, not imported, so a changed cap fails here. */
const ONE_MIB = 1_048_576;

/** n8n's request helper that never answers; it rejects, as axios does, once its signal aborts. */
const hangingRequest: N8nRequest = ({ signal }) =>
	new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('canceled')), { once: true }));

/** A body the test can tell was never read. */
function untouchedBody(): { body: StreamAnswer['body']; read: () => boolean; destroyed: () => boolean } {
	let read = false;
	let destroyed = false;
	const body = {
		[Symbol.asyncIterator]: () => {
			read = true;
			return { next: async () => ({ done: true as const, value: undefined }) };
		},
		destroy: () => {
			destroyed = true;
		},
	};
	return { body, read: () => read, destroyed: () => destroyed };
}

// Each test cancels in the same tick as it sends, before any timer can fire, so the deadline
// never decides these at any machine speed; it is short only so that a send that never sees the
// cancel fails in a second (as a timeout) rather than at the test's own limit.
const CANCEL_DEADLINE_MS = 1_000;

describe('an execution cancelled during a send', () => {
	test('n8n’s request helper: the request is aborted and reported as cancelled, not as a timeout', async () => {
		const cancel = new AbortController();
		let seen: AbortSignal | undefined;
		const client = n8nClient((request) => {
			seen = request.signal;
			return hangingRequest(request);
		});

		const pending = client({ url: 'https://service.example/v1/sms', body: {}, timeout: CANCEL_DEADLINE_MS, cancel: cancel.signal });
		cancel.abort();
		const failure = await failureOf(pending);

		expect(seen?.aborted).toBe(true);
		expect({ kind: failure.kind, reason: failure.reason }).toEqual({ kind: 'cancelled', reason: 'the execution was cancelled' });
	});

	test('a cancel signal already aborted when the send starts aborts it at once', async () => {
		const cancel = new AbortController();
		cancel.abort();

		const failure = await failureOf(n8nClient(hangingRequest)({ url: 'https://service.example/v1/sms', body: {}, timeout: CANCEL_DEADLINE_MS, cancel: cancel.signal }));

		expect(failure.kind).toBe('cancelled');
	});

	test('one cancel signal aborts every request in flight under it', async () => {
		const cancel = new AbortController();
		const client = n8nClient(hangingRequest);
		const exchange = { url: 'https://service.example/v1/sms', body: {}, timeout: CANCEL_DEADLINE_MS, cancel: cancel.signal };

		const pending = [client(exchange), client(exchange), client(exchange)].map(failureOf);
		cancel.abort();

		expect((await Promise.all(pending)).map((failure) => failure.kind)).toEqual(['cancelled', 'cancelled', 'cancelled']);
	});

	test('through sendOnce: n8n’s cancel signal reaches the request, and the error says the execution was cancelled', async () => {
		const cancel = new AbortController();
		const node: INode = { id: 'target', name: 'Multi-Channel Notification', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} };
		const context = { getNode: () => node, getExecutionCancelSignal: () => cancel.signal } as unknown as IExecuteFunctions;
		const connection = { baseUrl: 'https://service.example', scrub: (text: string) => text, ignoreSslIssues: false } as ServiceConnection;

		const pending = sendOnce.call(context, connection, n8nClient(hangingRequest), '/v1/sms/notification', {}, { itemIndex: 0, timeout: 1_000 });
		cancel.abort();
		const error = (await pending.catch((thrown: unknown) => thrown)) as Error & { description?: string };

		expect(error.message).toBe('The execution was cancelled during the send');
		expect(error.description).toContain('The request to /v1/sms/notification was abandoned.');
	});
});

describe('a deadline turned into a timeout error', () => {
	test('n8n’s request helper: no answer before the deadline is a timeout, and the request is aborted', async () => {
		let seen: AbortSignal | undefined;
		const client = n8nClient((request) => {
			seen = request.signal;
			return hangingRequest(request);
		});

		const failure = await failureOf(client({ url: 'https://service.example/v1/sms', body: {}, timeout: 50 }));

		expect(seen?.aborted).toBe(true);
		expect({ kind: failure.kind, reason: failure.reason }).toEqual({ kind: 'timeout', reason: 'no complete answer before the deadline' });
	});

	test('the credential test’s fetch: a service that never answers is a timeout, not a network failure', async () => {
		const sockets = new Set<Socket>();
		const server = createServer(() => undefined);
		server.on('connection', (socket) => sockets.add(socket));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = server.address() as AddressInfo;

			const failure = await failureOf(fetchClient({})({ url: `http://127.0.0.1:${port}/v1/sms`, body: {}, timeout: 100 }));

			expect({ kind: failure.kind, reason: failure.reason }).toEqual({ kind: 'timeout', reason: 'no complete answer before the deadline' });
		} finally {
			sockets.forEach((socket) => socket.destroy());
			await new Promise((resolve) => server.close(resolve));
		}
	});
});

describe('a Content-Length over 1 MiB is refused before reading', () => {
	test.each([
		['one byte over', ONE_MIB + 1],
		['far over', 50 * ONE_MIB],
	])('n8n’s request helper, %s: refused as too large, the body never read and its connection closed', async (_name, length) => {
		const answer = untouchedBody();
		const client = n8nClient(async () => ({ statusCode: 200, headers: { 'content-length': String(length) }, body: answer.body }));

		const failure = await failureOf(client({ url: 'https://service.example/v1/sms', body: {}, timeout: 60_000 }));

		expect({ kind: failure.kind, reason: failure.reason }).toEqual({ kind: 'tooLarge', reason: `the answer declared ${length} bytes` });
		expect(answer.read()).toBe(false);
		expect(answer.destroyed()).toBe(true);
	});

	test('exactly 1 MiB declared is read', async () => {
		const answer = untouchedBody();
		const client = n8nClient(async () => ({ statusCode: 200, headers: { 'content-length': String(ONE_MIB) }, body: answer.body }));

		await expect(client({ url: 'https://service.example/v1/sms', body: {}, timeout: 60_000 })).resolves.toEqual({
			status: 200,
			headers: { 'content-length': String(ONE_MIB) },
			text: '',
		});
		expect(answer.read()).toBe(true);
	});

	test('the credential test’s fetch: refused from the header, before the body arrives', async () => {
		const sockets = new Set<Socket>();
		// Declares 2 MiB and sends only the headers: a client that waited for the body would time out.
		const server = createServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(2 * ONE_MIB) });
			response.flushHeaders();
		});
		server.on('connection', (socket) => sockets.add(socket));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = server.address() as AddressInfo;

			const failure = await failureOf(fetchClient({})({ url: `http://127.0.0.1:${port}/v1/sms`, body: {}, timeout: 25_000 }));

			expect({ kind: failure.kind, reason: failure.reason }).toEqual({ kind: 'tooLarge', reason: `the answer declared ${2 * ONE_MIB} bytes` });
		} finally {
			sockets.forEach((socket) => socket.destroy());
			await new Promise((resolve) => server.close(resolve));
		}
	});
});
