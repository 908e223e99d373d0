/**
 * The client around n8n's request helper, on a stub of the helper: how the answer's headers are
 * read, how a body is read up to 1 MiB and when it is left unread, how a failed request becomes a
 * timeout or a network failure with its system code, and the options the helper is given. The
 * engine tests reach these through a real server; here each rule is pinned on its own.
 */
import type { INode } from 'n8n-workflow';

import type { StreamAnswer } from '../../../../nodes/MultiChannelNotification/transport/exchange';
import { helperThis, httpRequestOptions, n8nClient } from '../../../../nodes/MultiChannelNotification/transport/exchange';
import { failureOf } from '../../../helpers/wireFailure';

/** The documented cap on an answer: 1 MiB. */
const ONE_MIB = 1_048_576;
const EXCHANGE = { url: 'https://service.example/v1/sms/notification', body: { message: 'hi' }, timeout: 5_000 };

/** A body streamed in the given chunks, recording whether it was read and how it was closed. */
function streamed(chunks: Array<Uint8Array | string>) {
	const seen = { read: 0, destroyed: 0 };
	const body: StreamAnswer['body'] = {
		async *[Symbol.asyncIterator]() {
			for (const chunk of chunks) {
				seen.read++;
				yield chunk;
			}
		},
		destroy: () => {
			seen.destroyed++;
		},
	};
	return { body, seen };
}

const answering = (answer: StreamAnswer) => n8nClient(async () => answer);

describe('the answer’s headers', () => {
	test('names in lower case; a list joined with ", "; a number as its digits; anything else dropped', async () => {
		const { body } = streamed([]);
		const answer = await answering({
			statusCode: 200,
			headers: { 'Retry-After': 7, 'Set-Cookie': ['a=1', 'b=2'], 'Content-Type': 'application/json', 'X-Object': { a: 1 }, 'X-Null': null, 'X-Flag': true },
			body,
		})(EXCHANGE);

		expect(answer.headers).toEqual({ 'retry-after': '7', 'set-cookie': 'a=1, b=2', 'content-type': 'application/json' });
	});

	test('no headers at all: none', async () => {
		const { body } = streamed([]);
		const answer = await answering({ statusCode: 200, headers: undefined as never, body })(EXCHANGE);

		expect(answer.headers).toEqual({});
	});
});

describe('the body', () => {
	test('read whole, from text and byte chunks (a view into a larger buffer reads only its own bytes)', async () => {
		const backing = Buffer.from('xx"ok"}yy');
		const view = new Uint8Array(backing.buffer, backing.byteOffset + 2, 5);
		const { body, seen } = streamed(['{"message":', view]);
		const answer = await answering({ statusCode: 200, headers: {}, body })(EXCHANGE);

		expect(answer).toEqual({ status: 200, headers: {}, text: '{"message":"ok"}' });
		expect(seen.destroyed).toBe(0);
	});

	test('exactly 1 MiB streamed is read', async () => {
		const { body } = streamed([Buffer.alloc(ONE_MIB / 2, 'a'), Buffer.alloc(ONE_MIB / 2, 'b')]);
		const answer = await answering({ statusCode: 200, headers: {}, body })(EXCHANGE);

		expect(answer.text).toHaveLength(ONE_MIB);
	});

	test('one byte past 1 MiB while streaming (no Content-Length): abandoned, the rest unread, the connection closed', async () => {
		const { body, seen } = streamed([Buffer.alloc(ONE_MIB, 'a'), 'b', 'never read']);
		const failure = await failureOf(answering({ statusCode: 200, headers: {}, body })(EXCHANGE));

		expect({ kind: failure.kind, reason: failure.reason }).toEqual({ kind: 'tooLarge', reason: `the answer exceeded ${ONE_MIB} bytes` });
		expect(seen.read).toBe(2);
		expect(seen.destroyed).toBe(1);
	});

	test.each([300, 301, 307, 399])('a redirect (%i): its body is not read, its connection is closed', async (status) => {
		const { body, seen } = streamed(['<html>moved</html>']);
		const answer = await answering({ statusCode: status, headers: { location: 'https://elsewhere.example/' }, body })(EXCHANGE);

		expect(answer).toEqual({ status, headers: { location: 'https://elsewhere.example/' }, text: '' });
		expect(seen.read).toBe(0);
		expect(seen.destroyed).toBe(1);
	});

	test.each([200, 299, 400, 429, 500])('HTTP %i: the body is read and its connection left to the helper', async (status) => {
		const { body, seen } = streamed(['{}']);
		const answer = await answering({ statusCode: status, headers: {}, body })(EXCHANGE);

		expect(answer.text).toBe('{}');
		expect(seen.destroyed).toBe(0);
	});

	test('no body: an empty text', async () => {
		const answer = await answering({ statusCode: 204, headers: {}, body: undefined })(EXCHANGE);

		expect(answer).toEqual({ status: 204, headers: {}, text: '' });
	});
});

describe('a request that fails without an answer', () => {
	const failingWith = (error: unknown) => n8nClient(async () => await Promise.reject(error));

	test.each([
		['ETIMEDOUT', 'timeout'],
		['ECONNABORTED', 'timeout'],
		['ECONNRESET', 'network'],
	])('system code %s: a %s failure carrying the code', async (code, kind) => {
		const failure = await failureOf(failingWith(Object.assign(new Error(`connect ${code}`), { code }))(EXCHANGE));

		expect({ kind: failure.kind, code: failure.code, reason: failure.reason }).toEqual({ kind, code, reason: `connect ${code}` });
	});

	test('the code is found on the cause first, then the error, then the cause’s cause, then n8n’s httpCode', async () => {
		const cause = (code: unknown, inner?: unknown) => ({ message: 'inner text', code, ...(inner === undefined ? {} : { cause: { code: inner } }) });

		expect((await failureOf(failingWith({ code: 'EAI_AGAIN', cause: cause('ECONNREFUSED') })(EXCHANGE))).code).toBe('ECONNREFUSED');
		expect((await failureOf(failingWith({ code: 'EAI_AGAIN', cause: cause(undefined) })(EXCHANGE))).code).toBe('EAI_AGAIN');
		expect((await failureOf(failingWith({ cause: cause(undefined, 'UND_ERR_SOCKET') })(EXCHANGE))).code).toBe('UND_ERR_SOCKET');
		expect((await failureOf(failingWith({ httpCode: 'ENOTFOUND' })(EXCHANGE))).code).toBe('ENOTFOUND');
	});

	test.each([
		['a number', 500],
		['lower case', 'econnreset'],
		['a single letter', 'E'],
		['text with a space', 'E CONN'],
		['text with other characters after a code', 'ECONNRESET: reset'],
		['text with other characters before a code', 'x ECONNRESET'],
	])('a code that is not a system code (%s) is not kept', async (_name, code) => {
		const failure = await failureOf(failingWith({ code, message: 'failed' })(EXCHANGE));

		expect(failure.kind).toBe('network');
		expect(failure.code).toBeUndefined();
	});

	test('the reason: n8n’s first original message, else the cause’s message, else the error’s, else the value itself', async () => {
		expect((await failureOf(failingWith(Object.assign(new Error('wrapped'), { messages: [7, 'original', 'later'], cause: { message: 'cause' } }))(EXCHANGE))).reason).toBe('original');
		expect((await failureOf(failingWith(Object.assign(new Error('wrapped'), { messages: [7], cause: { message: 'cause' } }))(EXCHANGE))).reason).toBe('cause');
		expect((await failureOf(failingWith(Object.assign(new Error('wrapped'), { cause: { message: 42 } }))(EXCHANGE))).reason).toBe('wrapped');
		expect((await failureOf(failingWith('plain text')(EXCHANGE))).reason).toBe('plain text');
	});
});

describe('what n8n’s request helper is given', () => {
	test('one POST of JSON, no redirects, the body as a stream, every status handed back, the deadline and signal', () => {
		const signal = new AbortController().signal;

		expect(httpRequestOptions({ url: EXCHANGE.url, body: EXCHANGE.body, timeout: 5_000, signal }, { ignoreSslIssues: false })).toEqual({
			method: 'POST',
			url: EXCHANGE.url,
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			body: EXCHANGE.body,
			json: true,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: 5_000,
			abortSignal: signal,
			skipSslCertificateValidation: false,
		});
		expect(httpRequestOptions({ url: EXCHANGE.url, body: {}, timeout: 1, signal }, { ignoreSslIssues: true }).skipSslCertificateValidation).toBe(true);
	});

	test('the request the client makes: the exchange’s URL, body and timeout, under a signal of its own', async () => {
		const seen: unknown[] = [];
		const cancel = new AbortController();
		await n8nClient(async (request) => {
			seen.push(request);
			return { statusCode: 200, headers: {}, body: undefined };
		})({ ...EXCHANGE, cancel: cancel.signal });

		expect(seen).toEqual([{ url: EXCHANGE.url, body: EXCHANGE.body, timeout: 5_000, signal: expect.any(AbortSignal) }]);
		expect((seen[0] as { signal: AbortSignal }).signal).not.toBe(cancel.signal);
	});

	test('its `this`: the node and the helpers, and nothing else (no cancel signal of its own)', () => {
		const node = { name: 'Multi-Channel Notification' } as INode;
		const helpers = { httpRequestWithAuthentication: () => undefined };
		const that = helperThis(node, helpers) as { getNode: () => INode; helpers: object };

		expect(Object.keys(that).sort()).toEqual(['getNode', 'helpers']);
		expect(that.getNode()).toBe(node);
		expect(that.helpers).toBe(helpers);
	});
});
