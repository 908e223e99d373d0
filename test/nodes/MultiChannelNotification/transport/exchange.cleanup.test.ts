/**
 * What an exchange leaves behind, and the deadline as a bound of its own: a request helper that
 * ignores the abort signal still ends at the deadline; a body stalled half-way is destroyed with
 * an error; once a send has its answer, nothing still listens on its signal and neither the
 * deadline nor a later cancel reaches it; n8n's cancel signal gets one listener however many
 * sends run under it. And the credential test's `fetch`: the request it makes, and a redirect's
 * body left unread with its connection closed.
 */
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { N8nRequest, StreamAnswer } from '../../../../nodes/MultiChannelNotification/transport/exchange';
import { fetchClient, n8nClient, WireFailure } from '../../../../nodes/MultiChannelNotification/transport/exchange';
import { failureOf } from '../../../helpers/wireFailure';

const EXCHANGE = { url: 'https://service.example/v1/sms/notification', body: { message: 'hi' }, timeout: 5_000 };
const ANSWER: StreamAnswer = { statusCode: 200, headers: {}, body: undefined };

/** The client around a helper that answers at once, keeping the signal each request was given. */
function answeringAtOnce() {
	const signals: AbortSignal[] = [];
	const client = n8nClient(async ({ signal }) => {
		signals.push(signal);
		return ANSWER;
	});
	return { client, signals };
}

describe('the deadline bounds the exchange on its own', () => {
	test('a request helper that ignores the abort signal still ends at the deadline, as a timeout', async () => {
		const ignoring: N8nRequest = () => new Promise(() => undefined);

		// Were the deadline not a bound of its own, this would never settle: jest's test timeout then fails it by name.
		const failure = await failureOf(n8nClient(ignoring)({ ...EXCHANGE, timeout: 50 }));

		expect(failure).toBeInstanceOf(WireFailure);
		expect({ name: (failure as WireFailure).name, kind: (failure as WireFailure).kind }).toEqual({ name: 'WireFailure', kind: 'timeout' });
	});

	test('a body stalled half-way is destroyed with an error when the deadline passes', async () => {
		const destroyedWith: unknown[] = [];
		const body: StreamAnswer['body'] = {
			[Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<string>>(() => undefined) }),
			destroy: (error?: Error) => {
				destroyedWith.push(error);
			},
		};

		const failure = await failureOf(n8nClient(async () => ({ statusCode: 200, headers: {}, body }))({ ...EXCHANGE, timeout: 50 }));

		expect(failure.kind).toBe('timeout');
		expect(destroyedWith).toEqual([expect.any(Error)]);
	});
});

describe('after the answer', () => {
	test('nothing is left listening on the request’s signal', async () => {
		const { client, signals } = answeringAtOnce();

		await client(EXCHANGE);

		expect(getEventListeners(signals[0], 'abort')).toEqual([]);
	});

	test('the deadline passing later does not abort the finished request', async () => {
		const { client, signals } = answeringAtOnce();

		await client({ ...EXCHANGE, timeout: 30 });
		await new Promise((resolve) => setTimeout(resolve, 100));

		expect(signals[0].aborted).toBe(false);
	});

	test('a cancel later does not abort the finished request', async () => {
		const { client, signals } = answeringAtOnce();
		const cancel = new AbortController();

		await client({ ...EXCHANGE, cancel: cancel.signal });
		cancel.abort();

		expect(signals[0].aborted).toBe(false);
	});
});

test('n8n’s cancel signal gets one listener, however many sends run under it', async () => {
	const { client } = answeringAtOnce();
	const cancel = new AbortController();

	for (let send = 0; send < 3; send++) await client({ ...EXCHANGE, cancel: cancel.signal });
	await Promise.all([client({ ...EXCHANGE, cancel: cancel.signal }), client({ ...EXCHANGE, cancel: cancel.signal })]);

	expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(1);
});

describe('the credential test’s fetch', () => {
	/** A local server answering with `answer`; the requests it got, and whether each connection closed. */
	async function withServer(
		answer: (response: import('node:http').ServerResponse) => void,
		run: (url: string, seen: { requests: Array<{ method?: string; headers: IncomingHttpHeaders; body: string }>; closed: Promise<void> }) => Promise<void>,
	): Promise<void> {
		const sockets = new Set<Socket>();
		let onClose = () => {};
		const closed = new Promise<void>((resolve) => (onClose = resolve));
		const requests: Array<{ method?: string; headers: IncomingHttpHeaders; body: string }> = [];
		const server = createServer((request, response) => {
			let body = '';
			request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
			request.on('end', () => {
				requests.push({ method: request.method, headers: request.headers, body });
				answer(response);
			});
		});
		server.on('connection', (socket: Socket) => {
			sockets.add(socket);
			socket.on('close', () => onClose());
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/sms/notification`, { requests, closed });
		} finally {
			sockets.forEach((socket) => socket.destroy());
			await new Promise((resolve) => server.close(resolve));
		}
	}

	test('one POST of the body as JSON, with the credential’s headers, asking for JSON', async () => {
		await withServer(
			(response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}'),
			async (url, seen) => {
				await expect(fetchClient({ 'X-API-Key': 'key-1' })({ ...EXCHANGE, url })).resolves.toEqual(
					expect.objectContaining({ status: 200, text: '{"ok":true}' }),
				);
				expect(seen.requests).toHaveLength(1);
				expect(seen.requests[0]).toEqual({
					method: 'POST',
					headers: expect.objectContaining({ 'content-type': 'application/json', accept: 'application/json', 'x-api-key': 'key-1' }),
					body: '{"message":"hi"}',
				});
			},
		);
	});

	test('a redirect: its body is not read and its connection is closed, long before the deadline', async () => {
		await withServer(
			(response) => {
				// Declares a body and sends only part of it: the connection stays open until the client closes it.
				response.writeHead(302, { Location: 'https://elsewhere.example/', 'Content-Length': '1000' });
				response.write('x'.repeat(10));
			},
			async (url, seen) => {
				// The deadline, which would close the connection too, is after jest's test timeout (30 s):
				// while the test runs, only the client's own closing can close it.
				const answers: Response[] = [];
				const realFetch = globalThis.fetch;
				const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (...args) => {
					const answer = await realFetch(...args);
					answers.push(answer);
					return answer;
				});
				try {
					await expect(fetchClient({})({ ...EXCHANGE, url, timeout: 120_000 })).resolves.toEqual(expect.objectContaining({ status: 302, text: '' }));
				} finally {
					spy.mockRestore();
				}
				// Given up (cancelled) by the client, not left pending until the runtime collects it.
				expect(answers.map((answer) => answer.bodyUsed)).toEqual([true]);
				// A connection left open never settles this: jest's test timeout then fails it by name.
				expect(await seen.closed).toBeUndefined();
			},
		);
	});
});
