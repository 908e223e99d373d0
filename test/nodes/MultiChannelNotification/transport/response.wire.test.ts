/**
 * What the node says about each answer, pinned word for word: the hint for each HTTP status,
 * what a failure without an answer means (timeout, too large, cancelled, each network cause, an
 * untrusted certificate), whether the message may have been delivered, and the shown text of the
 * service's answer (its own message, or a note, scrubbed and shortened).
 */
import type { INode } from 'n8n-workflow';

import { deliveryOf } from '../../../../nodes/MultiChannelNotification/helpers/errors';
import type { AnswerContext } from '../../../../nodes/MultiChannelNotification/transport/response';
import { redirectTarget, responseOrThrow, serviceMessage, shownText, statusError, wireError } from '../../../../nodes/MultiChannelNotification/transport/response';
import type { Answer, WireFailureKind } from '../../../../nodes/MultiChannelNotification/transport/exchange';
import { WireFailure } from '../../../../nodes/MultiChannelNotification/transport/exchange';

const MAYBE = 'The message may or may not have been delivered: check before sending it again.';
const NOTHING_SENT = 'Nothing was sent for this item.';
const NO_CONNECTION = 'No connection was made.';

const node: INode = { id: 'target', name: 'Multi-Channel Notification', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} };
const context = (changes: Partial<AnswerContext> = {}): AnswerContext => ({
	node,
	itemIndex: 2,
	url: 'https://service.example/base/v1/sms/notification',
	endpoint: '/v1/sms/notification',
	timeout: 5000,
	scrub: (text) => text.replace(/SECRET/g, '***'),
	ignoreSslIssues: false,
	...changes,
});
const answer = (status: number, text = '', headers: Record<string, string> = {}): Answer => ({ status, headers, text });

/** The parts of an error a user or a workflow reads. */
function shown(error: Error & { description?: string | null; httpCode?: string | null; errorResponse?: unknown }) {
	return { title: error.message, description: error.description, httpCode: error.httpCode, delivery: deliveryOf(error), response: error.errorResponse };
}

function thrown(work: () => unknown): Error {
	try {
		work();
	} catch (error) {
		return error as Error;
	}
	throw new Error('nothing was thrown');
}

describe('an answer that is not a confirmed send', () => {
	test.each([
		[400, 'The service rejected the request as invalid.', 'rejected'],
		[401, 'The service rejected the API key: check the Multi-Channel Notification API credential.', 'rejected'],
		[403, 'The service refused this send. For media messages the recipient must have started the chat first.', 'rejected'],
		[404, "The endpoint was not found: check the credential's Base URL.", 'rejected'],
		[429, 'The service is rate limiting.', 'rejected'],
		[409, 'The service did not accept the request.', 'rejected'],
		[499, 'The service did not accept the request.', 'rejected'],
		[500, `The service failed while handling the send. ${MAYBE}`, 'maybe'],
		[503, `The service failed while handling the send. ${MAYBE}`, 'maybe'],
	])('HTTP %i: its hint, and the delivery is %s', (status, hint, delivery) => {
		expect(shown(statusError(context(), answer(status, '{"message":"refused SECRET"}')))).toEqual({
			title: `The service answered HTTP ${status}: refused ***`,
			description: `${hint}\nService message: refused ***`,
			httpCode: String(status),
			delivery,
			response: { message: 'refused ***', httpCode: String(status) },
		});
	});

	test('a 2xx that is not "success": not confirmed, may have been delivered', () => {
		expect(shown(statusError(context(), answer(202, '{"message":"queued"}')))).toEqual({
			title: 'The service did not confirm the send (HTTP 202): queued',
			description: `The answer was not "success", so this item is treated as failed. ${MAYBE}\nService message: queued`,
			httpCode: '202',
			delivery: 'maybe',
			response: { message: 'queued', httpCode: '202' },
		});
	});

	test('Retry-After is kept on the error, scrubbed; without one there is none', () => {
		expect(shown(statusError(context(), answer(429, '', { 'retry-after': '5 SECRET' }))).response).toEqual({
			message: 'no message in the answer',
			httpCode: '429',
			retryAfter: '5 ***',
		});
		expect(shown(statusError(context(), answer(429, ''))).response).toEqual({ message: 'no message in the answer', httpCode: '429' });
	});
});

describe('the text shown of an answer', () => {
	const scrub = context().scrub;

	test('its own message, scrubbed, cut to 500 characters', () => {
		expect(shownText(answer(400, '{"message":"bad SECRET"}'), scrub)).toEqual({ headline: 'bad ***', detail: 'Service message: bad ***' });
		expect(serviceMessage(answer(400, JSON.stringify({ message: 'x'.repeat(600) })), scrub)).toBe(`${'x'.repeat(499)}…`);
	});

	test.each([
		['no body', '', { headline: 'no message in the answer', detail: 'The answer had no body.' }],
		['only spaces', '  \n ', { headline: 'no message in the answer', detail: 'The answer had no body.' }],
		['a page', '<h1>Bad\n\n  Gateway SECRET</h1>', { headline: 'a non-JSON answer', detail: 'Service answer (not JSON): <h1>Bad Gateway ***</h1>' }],
		['JSON whose message is blank', '{"message":"  "}', { headline: 'a non-JSON answer', detail: 'Service answer (not JSON): {"message":" "}' }],
		['JSON whose message is not text', '{"message":42}', { headline: 'a non-JSON answer', detail: 'Service answer (not JSON): {"message":42}' }],
		['a JSON list', '[{"message":"x"}]', { headline: 'a non-JSON answer', detail: 'Service answer (not JSON): [{"message":"x"}]' }],
	])('%s: a note instead', (_name, text, expected) => {
		expect(shownText(answer(502, text), scrub)).toEqual(expected);
	});

	test('a long page: cut to 200 characters after scrubbing', () => {
		expect(shownText(answer(502, `SECRET${'y'.repeat(300)}`), scrub).detail).toBe(`Service answer (not JSON): ***${'y'.repeat(196)}…`);
	});
});

describe('a confirmed send', () => {
	test('"success" in a 2xx: message and data, scrubbed; nothing else of the answer', () => {
		expect(responseOrThrow(context(), answer(200, '{"message":"success","data":{"id":"m1","echo":"SECRET"},"extra":"SECRET"}'))).toEqual({
			message: 'success',
			data: { id: 'm1', echo: '***' },
		});
	});

	test('data up to 16 KiB as JSON is kept whole', () => {
		const data = { id: 'm1', full_content: 'x'.repeat(16_384 - 29) };
		expect(JSON.stringify(data)).toHaveLength(16_384);
		expect(responseOrThrow(context(), answer(200, JSON.stringify({ message: 'success', data }))).data).toEqual(data);
	});

	test('larger data keeps only the fields the service documents, each up to 4 KiB as JSON', () => {
		const data = { id: 'm1', request_id: 7, result: { sms: { status: 'failover' } }, full_content: 'y'.repeat(5000), blob: 'z'.repeat(20_000) };
		expect(responseOrThrow(context(), answer(200, JSON.stringify({ message: 'success', data }))).data).toEqual({
			id: 'm1',
			request_id: 7,
			result: { sms: { status: 'failover' } },
		});
	});

	test.each([
		['missing', '{"message":"success"}'],
		['a list', '{"message":"success","data":[1]}'],
		['text', '{"message":"success","data":"x"}'],
		['null', '{"message":"success","data":null}'],
	])('data %s: an empty object', (_name, text) => {
		expect(responseOrThrow(context(), answer(201, text)).data).toEqual({});
	});

	test.each([199, 300, 400, 500])('"success" with HTTP %i is not a confirmed send', (status) => {
		expect(() => responseOrThrow(context(), answer(status, '{"message":"success"}'))).toThrow();
	});

	test('2xx bounds: 200 and 299 confirm', () => {
		expect(responseOrThrow(context(), answer(299, '{"message":"success"}')).message).toBe('success');
	});

	test('a redirect: the error names the target without its query, and the item is not reported as sent', () => {
		const error = thrown(() => responseOrThrow(context(), answer(302, '', { location: 'https://SECRET@elsewhere.example/moved?key=SECRET#top' })));

		expect(shown(error as never)).toEqual({
			title: 'The service redirected the request (HTTP 302)',
			description:
				"The service answered HTTP 302 with a redirect to https://elsewhere.example/moved. The request was not repeated there: this node never follows redirects, so the API key goes only to the credential's Base URL. This item is not reported as sent. If the service has moved, put its new address in the credential's Base URL.",
			httpCode: '302',
			delivery: 'maybe',
			response: { message: 'redirect (HTTP 302) to https://elsewhere.example/moved', httpCode: '302' },
		});
	});
});

describe('a redirect’s target as shown', () => {
	test.each([
		['none', undefined, '(no Location given)'],
		['empty', '', '(no Location given)'],
		['unreadable', 'https://[bad', '(an unreadable Location)'],
		['relative', '/other/path?q=1#f', 'https://service.example/other/path'],
		['with user info', 'http://user:pass@host.example:8080/x', 'http://host.example:8080/x'],
	])('%s', (_name, location, expected) => {
		expect(redirectTarget(location, 'https://service.example/base/v1/sms/notification')).toBe(expected);
	});
});

describe('no usable answer', () => {
	const failure = (kind: WireFailureKind, reason: string, code?: string) => new WireFailure(kind, reason, code);

	test.each([
		[
			'timeout',
			failure('timeout', 'no complete answer before the deadline'),
			'The service did not answer within 5000 ms',
			`No complete answer from /v1/sms/notification within the Timeout (5000 ms, connect, headers and body together). ${MAYBE}`,
			'maybe',
		],
		[
			'too large',
			failure('tooLarge', 'the answer exceeded 1048576 bytes'),
			"The service's answer exceeded 1 MiB",
			`The answer from /v1/sms/notification was larger than 1 MiB, the most this node reads; it was discarded unread. A real answer is a few hundred bytes: check the credential's Base URL. ${MAYBE}`,
			'maybe',
		],
		[
			'cancelled',
			failure('cancelled', 'the execution was cancelled'),
			'The execution was cancelled during the send',
			`The request to /v1/sms/notification was abandoned. ${MAYBE}`,
			'maybe',
		],
	])('%s', (_name, wire, title, description, delivery) => {
		expect(shown(wireError(context(), wire))).toMatchObject({ title, description, delivery, httpCode: null });
	});

	test.each([
		['ECONNRESET', 'the connection was closed before an answer came', 'maybe', MAYBE],
		['UND_ERR_SOCKET', 'the connection was closed before an answer came', 'maybe', MAYBE],
		['ECONNREFUSED', 'nothing is listening at the Base URL', 'unreached', `${NO_CONNECTION} ${NOTHING_SENT}`],
		['ENOTFOUND', "the Base URL's host name was not found", 'unreached', `${NO_CONNECTION} ${NOTHING_SENT}`],
		['EAI_AGAIN', "the Base URL's host name could not be looked up", 'unreached', `${NO_CONNECTION} ${NOTHING_SENT}`],
		['EHOSTUNREACH', 'the host cannot be reached', 'unreached', `${NO_CONNECTION} ${NOTHING_SENT}`],
		['ENETUNREACH', 'the request failed on the network', 'unreached', `${NO_CONNECTION} ${NOTHING_SENT}`],
		['EPIPE', 'the request failed on the network', 'maybe', MAYBE],
	])('network, %s: "%s", delivery %s', (code, problem, delivery, outcome) => {
		expect(shown(wireError(context(), failure('network', 'socket trouble SECRET', code)))).toEqual({
			title: `Could not reach the service: ${problem}`,
			description: `socket trouble *** (${code}). ${outcome}`,
			httpCode: null,
			delivery,
			response: { message: 'socket trouble ***', systemCode: code },
		});
	});

	test('a code already in the reason is not repeated; no code, no systemCode', () => {
		expect(wireError(context(), failure('network', 'connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED')).description).toBe(
			`connect ECONNREFUSED 127.0.0.1:1. ${NO_CONNECTION} ${NOTHING_SENT}`,
		);
		expect(shown(wireError(context(), failure('network', 'odd failure')))).toEqual({
			title: 'Could not reach the service: the request failed on the network',
			description: `odd failure. ${MAYBE}`,
			httpCode: null,
			delivery: 'maybe',
			response: { message: 'odd failure' },
		});
	});

	test.each(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED', 'CERT_REJECTED', 'CERT_SIGNATURE_FAILURE', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'INVALID_CA', 'HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_INVALID'])(
		'an untrusted certificate (%s): nothing sent, with the fix; with Ignore SSL Issues on, why it was checked anyway',
		(code) => {
			const off = shown(wireError(context(), failure('network', 'certificate trouble', code)));
			expect(off).toEqual({
				title: 'Could not reach the service: its certificate is not trusted',
				description: `certificate trouble (${code}). If the service uses a self-signed certificate or one from your own CA, make n8n trust that CA with NODE_EXTRA_CA_CERTS in n8n's environment (the better choice), or turn on Ignore SSL Issues (Insecure) in the credential. ${NOTHING_SENT}`,
				httpCode: null,
				delivery: 'unreached',
				response: { message: 'certificate trouble', systemCode: code },
			});

			const on = shown(wireError(context({ ignoreSslIssues: true }), failure('network', 'certificate trouble', code)));
			expect(on.description).toBe(
				`certificate trouble (${code}). Ignore SSL Issues (Insecure) is on in the credential, yet n8n checked the certificate: some n8n releases do when they reach the service through a proxy (HTTP_PROXY or HTTPS_PROXY in n8n's environment). Make n8n trust the service's CA with NODE_EXTRA_CA_CERTS, or, if the service needs no proxy, add its host to NO_PROXY. ${NOTHING_SENT}`,
			);
		},
	);

	test('a certificate code on a failure that is not a network one is not a certificate failure', () => {
		expect(shown(wireError(context(), failure('timeout', 'slow', 'CERT_HAS_EXPIRED'))).title).toBe('The service did not answer within 5000 ms');
	});
});

describe('the edges of each status range', () => {
	test.each([
		[300, 'The service redirected the request (HTTP 300)'],
		[399, 'The service redirected the request (HTTP 399)'],
		[400, 'The service answered HTTP 400: refused'],
	])('responseOrThrow, HTTP %i: %s', (status, title) => {
		expect(thrown(() => responseOrThrow(context(), answer(status, '{"message":"refused"}'))).message).toBe(title);
	});

	test.each([
		[199, 'The service answered HTTP 199: early'],
		[200, 'The service did not confirm the send (HTTP 200): early'],
		[299, 'The service did not confirm the send (HTTP 299): early'],
	])('statusError, HTTP %i: %s', (status, title) => {
		expect(statusError(context(), answer(status, '{"message":"early"}')).message).toBe(title);
	});
});

describe('a system code on a failure that is not a network one', () => {
	test.each([
		['a certificate code', 'CERT_HAS_EXPIRED'],
		['a connect failure code', 'ECONNREFUSED'],
	])('%s on a timeout: still a timeout that may have delivered', (_name, code) => {
		expect(shown(wireError(context(), new WireFailure('timeout', 'slow', code)))).toEqual({
			title: 'The service did not answer within 5000 ms',
			description: `No complete answer from /v1/sms/notification within the Timeout (5000 ms, connect, headers and body together). ${MAYBE}`,
			httpCode: null,
			delivery: 'maybe',
			response: { message: 'slow', systemCode: code },
		});
	});
});
