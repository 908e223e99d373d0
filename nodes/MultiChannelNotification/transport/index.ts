import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	INodeCredentialTestResult,
	NodeApiError,
} from 'n8n-workflow';

import { authorize } from '../../../credentials/MultiChannelNotificationApi.credentials';
import type { AnswerContext, ServiceResponse } from './answer';
import { judge, redirectTarget, serviceMessage, statusError, wireError } from './answer';
import type { ServiceConnection } from './connection';
import { checkCredential, CREDENTIAL_TYPE } from './connection';
import type { Client, StreamAnswer } from './exchange';
import { directClient, helperThis, httpRequestOptions, MAX_ANSWER_TEXT, n8nClient, WireFailure } from './exchange';
import { makeScrubber } from './secrets';
import { nodeOf } from '../helpers/errors';

/** The only module that talks to the service. */

export type { ServiceResponse } from './answer';
export type { ServiceConnection } from './connection';
export { checkApiKey, checkBaseUrl, CREDENTIAL_TYPE, getConnection } from './connection';
export { MAX_ANSWER_BYTES, MAX_ANSWER_TEXT } from './exchange';

export const ENDPOINTS = {
	chatMessage: '/v1/wa/message',
	sms: '/v1/sms/notification',
	combined: '/v1/combined/notification/failover',
} as const;
export type Endpoint = (typeof ENDPOINTS)[keyof typeof ENDPOINTS];

/** The key exactly as the credential's `authenticate` puts it on a request. */
async function authorizationHeaders(connection: ServiceConnection): Promise<Record<string, string>> {
	const { headers } = await authorize(connection.credential.data ?? {}, { url: connection.baseUrl, headers: {} });
	return headers as Record<string, string>;
}

/**
 * The client for one execution: direct for plain http to this machine (never via a proxy),
 * otherwise n8n's own request helper with the once-decrypted credential.
 */
export async function makeClient(this: IExecuteFunctions, connection: ServiceConnection): Promise<Client> {
	if (connection.direct) return directClient(await authorizationHeaders(connection));
	const node = nodeOf(this);
	const that = helperThis(node, this.helpers) as IExecuteFunctions;
	return n8nClient(
		async (request) =>
			(await this.helpers.httpRequestWithAuthentication.call(
				that,
				CREDENTIAL_TYPE,
				httpRequestOptions(request),
				{ credentialsDecrypted: connection.credential },
			)) as StreamAnswer,
	);
}

export interface SendOptions {
	itemIndex: number;
	/** Milliseconds for the whole exchange. */
	timeout: number;
}

/** What one POST came to: sent, or refused with 429 (the only answer that may be sent again). */
export type SendOutcome =
	| { kind: 'sent'; response: ServiceResponse }
	| { kind: 'rateLimited'; retryAfter: string | undefined; error: NodeApiError };

/**
 * POSTs one request and returns the service's `{ message, data }`, or throws NodeApiError with
 * the service's own text. A 429 is returned rather than thrown: it means the request was
 * refused, not delivered, so the caller may send it again. A 5xx, a timeout, a dropped
 * connection or an oversized answer may already have delivered the message: never resent.
 */
export async function sendOnce(
	this: IExecuteFunctions,
	connection: ServiceConnection,
	client: Client,
	endpoint: Endpoint,
	body: IDataObject,
	{ itemIndex, timeout }: SendOptions,
): Promise<SendOutcome> {
	const url = `${connection.baseUrl}${endpoint}`;
	const context: AnswerContext = { node: nodeOf(this), itemIndex, url, endpoint, timeout, scrub: connection.scrub };
	let answer;
	try {
		answer = await client({ url, body, timeout, cancel: this.getExecutionCancelSignal?.() });
	} catch (error) {
		throw wireError(context, error instanceof WireFailure ? error : new WireFailure('network', String(error)));
	}
	if (answer.status === 429) {
		return { kind: 'rateLimited', retryAfter: answer.headers['retry-after'], error: statusError(context, answer) };
	}
	return { kind: 'sent', response: judge(context, answer) };
}

/**
 * Credential test. It POSTs an empty JSON object to the SMS endpoint: that can never deliver a
 * message, and the answer tells the key apart — 401/403 means the key was refused, while a
 * validation rejection (400, or any other 4xx) means it was accepted. Like a send it never
 * follows a redirect and reads at most 1 MiB.
 *
 * It uses the direct client for every Base URL, so it does not go through n8n's proxy settings:
 * the only request helper n8n's credential-test context offers is the deprecated `request`,
 * which n8n's community-package scanner refuses. Sends do use n8n's helper (and its proxy) for
 * https; when the test cannot reach the service, its message says so.
 */
export async function testCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const checked = checkCredential(credential.data ?? {});
	if ('problem' in checked) {
		return { status: 'Error', message: `Nothing was sent: ${checked.problem}` };
	}
	const { baseUrl, direct, apiKey } = checked.ok;
	const scrub = makeScrubber(apiKey);
	const url = `${baseUrl}${ENDPOINTS.sms}`;
	const client: Client = directClient({ Authorization: apiKey });
	let answer;
	try {
		answer = await client({ url, body: {}, timeout: 15000 });
	} catch (error) {
		const failure = error instanceof WireFailure ? error : new WireFailure('network', String(error));
		if (failure.kind === 'tooLarge') {
			return { status: 'Error', message: `The answer from ${url} was larger than ${MAX_ANSWER_TEXT}: this is not the notification service. Check the Base URL.` };
		}
		if (failure.kind === 'timeout') {
			return { status: 'Error', message: `No answer from ${url} within 15 s` };
		}
		const cause = scrub(failure.reason) + (failure.code && !failure.reason.includes(failure.code) ? ` (${failure.code})` : '');
		const proxyNote = direct
			? ''
			: '. If this n8n reaches the service only through a proxy (HTTPS_PROXY), this test cannot use it, but sends do';
		return { status: 'Error', message: `Could not reach the service at ${baseUrl}: ${cause}${proxyNote}` };
	}
	const { status } = answer;
	// Only the service's own `message` is shown: a page or other body text never is.
	const said = serviceMessage(answer, scrub) ?? (answer.text.trim() === '' ? 'no message in the answer' : 'an answer without a JSON message');
	if (status >= 300 && status < 400) {
		const target = scrub(redirectTarget(answer.headers.location, url));
		return {
			status: 'Error',
			message: `The service redirected the test request (HTTP ${status}) to ${target}. Redirects are never followed, so the key goes only to the Base URL: if the service has moved, use its new address as the Base URL.`,
		};
	}
	if (status === 401 || status === 403) {
		return { status: 'Error', message: `The service rejected the API key (HTTP ${status}): ${said}` };
	}
	if (status === 404 || status === 405) {
		return { status: 'Error', message: `No notification endpoint at ${url} (HTTP ${status}): check the Base URL` };
	}
	if (status >= 500) return { status: 'Error', message: `The service failed (HTTP ${status}): ${said}` };
	if (status < 200) return { status: 'Error', message: `Unexpected answer (HTTP ${status}): ${said}` };
	return { status: 'OK', message: 'Connection successful: the service accepted the API key' };
}
