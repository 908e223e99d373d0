import type { IDataObject, INode, NodeApiError } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { MAY_HAVE_BEEN_DELIVERED, NO_CONNECTION, NOTHING_SENT, serviceError, shorten } from '../helpers/errors';
import { IGNORE_SSL_ISSUES } from './connection';
import type { Answer, WireFailure } from './exchange';
import { MAX_ANSWER_TEXT } from './exchange';
import type { Scrubber } from './secrets';
import { scrubValue } from './secrets';

/** Turns a raw answer into the service's `{ message, data }` or an error naming what happened. */

export interface ServiceResponse extends IDataObject {
	message: string;
	data: IDataObject;
}

export interface AnswerContext {
	node: INode;
	itemIndex: number;
	/** The request URL, to resolve a relative redirect target. */
	url: string;
	endpoint: string;
	timeout: number;
	scrub: Scrubber;
	/** The credential's Ignore SSL Issues: a certificate failure then means n8n did not skip the check. */
	ignoreSslIssues: boolean;
}

const NETWORK_PROBLEMS: Record<string, string> = {
	ECONNRESET: 'the connection was closed before an answer came',
	ECONNREFUSED: 'nothing is listening at the Base URL',
	ENOTFOUND: "the Base URL's host name was not found",
	EAI_AGAIN: "the Base URL's host name could not be looked up",
	EHOSTUNREACH: 'the host cannot be reached',
	UND_ERR_SOCKET: 'the connection was closed before an answer came',
};

/** Failures to connect at all (no byte of the request left): nothing can have been delivered. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Node's codes for a server certificate it could not verify: self-signed, from a CA n8n does not
 * trust, expired, or made out to another host; all of them are what Ignore SSL Issues skips. The
 * TLS handshake failed, so no byte of the request left either.
 */
const CERTIFICATE_FAILURES = new Set([
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'CERT_UNTRUSTED',
	'CERT_REJECTED',
	'CERT_SIGNATURE_FAILURE',
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'INVALID_CA',
	'HOSTNAME_MISMATCH',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export function isCertificateFailure(failure: WireFailure): boolean {
	return failure.kind === 'network' && CERTIFICATE_FAILURES.has(failure.code ?? '');
}

/** What to do about a certificate n8n does not trust; the better fix first. */
export const CERTIFICATE_HINT = `If the service uses a self-signed certificate or one from your own CA, make n8n trust that CA with NODE_EXTRA_CA_CERTS in n8n's environment (the better choice), or turn on ${IGNORE_SSL_ISSUES} in the credential.`;

/**
 * The same failure with the switch already on: n8n's request helper checked the certificate
 * anyway, which some n8n releases do when they send through a proxy (the switch then reaches the
 * connection to the proxy, not the one to the service).
 */
const CERTIFICATE_CHECKED_ANYWAY = `${IGNORE_SSL_ISSUES} is on in the credential, yet n8n checked the certificate: some n8n releases do when they reach the service through a proxy (HTTP_PROXY or HTTPS_PROXY in n8n's environment). Make n8n trust the service's CA with NODE_EXTRA_CA_CERTS, or, if the service needs no proxy, add its host to NO_PROXY.`;

const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request as invalid.',
	401: 'The service rejected the API key: check the Multi-Channel Notification API credential.',
	403: 'The service refused this send. For media messages the recipient must have started the chat first.',
	404: "The endpoint was not found: check the credential's Base URL.",
	429: 'The service is rate limiting.',
};

function hintFor(status: number): string {
	if (STATUS_HINTS[status]) return STATUS_HINTS[status];
	if (status >= 500) return `The service failed while handling the send. ${MAY_HAVE_BEEN_DELIVERED}`;
	return 'The service did not accept the request.';
}

function messageOf(body: unknown): string | undefined {
	if (body && typeof body === 'object' && !Array.isArray(body)) {
		const { message } = body as { message?: unknown };
		if (typeof message === 'string' && message.trim() !== '') return message;
	}
	return undefined;
}

/** The redirect target as it may be shown: no user info, query or fragment. */
export function redirectTarget(location: string | undefined, from: string): string {
	if (!location) return '(no Location given)';
	if (!URL.canParse(location, from)) return '(an unreadable Location)';
	const target = new URL(location, from);
	return `${target.protocol}//${target.host}${target.pathname}`;
}

/** The service's own `message`, scrubbed, if the answer is JSON and has one. */
export function serviceMessage(answer: Answer, scrub: Scrubber): string | undefined {
	const text = messageOf(jsonParse<unknown>(answer.text, { fallbackValue: null }));
	return text === undefined ? undefined : shorten(scrub(text), 500);
}

/**
 * What a service's answer contributes to an error: its own `message` (scrubbed) as the headline,
 * or for any other body a short note as the headline and the body (scrubbed, shortened) as detail.
 */
export function shownText(answer: Answer, scrub: Scrubber): { headline: string; detail: string } {
	const text = serviceMessage(answer, scrub);
	if (text !== undefined) return { headline: text, detail: `Service message: ${text}` };
	const raw = answer.text.trim();
	if (raw === '') return { headline: 'no message in the answer', detail: 'The answer had no body.' };
	// Scrub first, then shorten: shortening could cut the key and leave part of it behind.
	return {
		headline: 'a non-JSON answer',
		detail: `Service answer (not JSON): ${shorten(scrub(raw).replace(/\s+/g, ' '), 200)}`,
	};
}

function redirectError(context: AnswerContext, answer: Answer, subject: string): NodeApiError {
	const target = context.scrub(redirectTarget(answer.headers.location, context.url));
	return serviceError(context.node, {
		itemIndex: context.itemIndex,
		httpCode: answer.status,
		title: `The service redirected the request (HTTP ${answer.status})`,
		description: `The service answered HTTP ${answer.status} with a redirect to ${target}. The request was not repeated there: this node never follows redirects, so the API key goes only to the credential's Base URL. ${subject} If the service has moved, put its new address in the credential's Base URL.`,
		cause: `redirect (HTTP ${answer.status}) to ${target}`,
		delivery: 'maybe',
	});
}

/** Whole up to this size as JSON; larger, only the fields the spec documents, each up to MAX_FIELD_JSON. */
const MAX_DATA_JSON = 16_384;
const MAX_FIELD_JSON = 4_096;
const DOCUMENTED_FIELDS = ['id', 'request_id', 'full_content', 'result'];

/**
 * The answer's data as the output item carries it. An answer may be up to 1 MiB, and each item's
 * output is kept by n8n: a service that answers far more than its spec documents would make
 * every item that large.
 */
function bounded(data: IDataObject): IDataObject {
	if (JSON.stringify(data).length <= MAX_DATA_JSON) return data;
	const kept: IDataObject = {};
	for (const field of DOCUMENTED_FIELDS) {
		const value = data[field];
		if (value !== undefined && JSON.stringify(value).length <= MAX_FIELD_JSON) kept[field] = value;
	}
	return kept;
}

/** A 2xx `success` answer as `{ message, data }`, scrubbed and bounded; otherwise throws the error for it. */
export function responseOrThrow(context: AnswerContext, answer: Answer): ServiceResponse {
	const { status } = answer;
	if (status >= 300 && status < 400) {
		throw redirectError(context, answer, 'This item is not reported as sent.');
	}
	const body = jsonParse<unknown>(answer.text, { fallbackValue: null });
	const ok = status >= 200 && status < 300;
	if (ok && messageOf(body) === 'success') {
		const { data } = scrubValue(body, context.scrub) as IDataObject;
		return { message: 'success', data: data && typeof data === 'object' && !Array.isArray(data) ? bounded(data as IDataObject) : {} };
	}
	throw statusError(context, answer);
}

/** The error for an answer that is not a confirmed send (a 429 included). */
export function statusError(context: AnswerContext, answer: Answer): NodeApiError {
	const { status } = answer;
	const ok = status >= 200 && status < 300;
	const shown = shownText(answer, context.scrub);
	const rawRetryAfter = answer.headers['retry-after'];
	const retryAfter = rawRetryAfter === undefined ? undefined : context.scrub(rawRetryAfter);
	return serviceError(context.node, {
		itemIndex: context.itemIndex,
		httpCode: status,
		title: ok
			? `The service did not confirm the send (HTTP ${status}): ${shown.headline}`
			: `The service answered HTTP ${status}: ${shown.headline}`,
		description: `${ok ? `The answer was not "success", so this item is treated as failed. ${MAY_HAVE_BEEN_DELIVERED}` : hintFor(status)}\n${shown.detail}`,
		cause: shown.headline,
		delivery: status >= 400 && status < 500 ? 'rejected' : 'maybe',
		...(retryAfter === undefined ? {} : { extra: { retryAfter } }),
	});
}

/** The error for a request that got no usable answer. */
export function wireError(context: AnswerContext, failure: WireFailure): NodeApiError {
	const { endpoint, timeout } = context;
	const reason = context.scrub(failure.reason);
	const code = failure.code && !reason.includes(failure.code) ? ` (${failure.code})` : '';
	const untrusted = isCertificateFailure(failure);
	const unreached = failure.kind === 'network' && (untrusted || CONNECT_FAILURES.has(failure.code ?? ''));
	const [title, what] = {
		timeout: [
			`The service did not answer within ${timeout} ms`,
			`No complete answer from ${endpoint} within the Timeout (${timeout} ms, connect, headers and body together).`,
		],
		tooLarge: [
			`The service's answer exceeded ${MAX_ANSWER_TEXT}`,
			`The answer from ${endpoint} was larger than ${MAX_ANSWER_TEXT}, the most this node reads; it was discarded unread. A real answer is a few hundred bytes: check the credential's Base URL.`,
		],
		cancelled: ['The execution was cancelled during the send', `The request to ${endpoint} was abandoned.`],
		network: untrusted
			? ['Could not reach the service: its certificate is not trusted', `${reason}${code}. ${context.ignoreSslIssues ? CERTIFICATE_CHECKED_ANYWAY : CERTIFICATE_HINT}`]
			: [
					`Could not reach the service: ${NETWORK_PROBLEMS[failure.code ?? ''] ?? 'the request failed on the network'}`,
					`${reason}${code}.`,
				],
	}[failure.kind];
	const outcome = untrusted ? NOTHING_SENT : unreached ? `${NO_CONNECTION} ${NOTHING_SENT}` : MAY_HAVE_BEEN_DELIVERED;
	return serviceError(context.node, {
		itemIndex: context.itemIndex,
		title,
		description: `${what} ${outcome}`,
		cause: reason,
		delivery: unreached ? 'unreached' : 'maybe',
		...(failure.code ? { extra: { systemCode: failure.code } } : {}),
	});
}
