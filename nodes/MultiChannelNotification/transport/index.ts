import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeCredentialTestResult,
	JsonObject,
} from 'n8n-workflow';
import { jsonParse, NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { MAX_RATE_LIMIT_WAIT_MS, rateLimitWait } from '../helpers/retryAfter';

/** The only module that talks to the service. */

export const CREDENTIAL_TYPE = 'multiChannelNotificationApi';

export const ENDPOINTS = {
	chatMessage: '/v1/wa/message',
	sms: '/v1/sms/notification',
	combined: '/v1/combined/notification/failover',
} as const;
export type Endpoint = (typeof ENDPOINTS)[keyof typeof ENDPOINTS];

export interface ServiceResponse extends IDataObject {
	message: string;
	data: IDataObject;
}

export interface ServiceConnection {
	baseUrl: string;
	/** Kept only to scrub it from any text the service sends back. */
	apiKey: string;
	/**
	 * The credential, decrypted once per execution and handed to n8n's request helper, which
	 * would otherwise load and decrypt it again for every request.
	 */
	credential: ICredentialsDecrypted;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Checks the credential's Base URL and returns it without trailing slashes. The key travels in
 * a header, so plain http is refused unless the service runs on this machine.
 */
export function checkBaseUrl(raw: unknown): { baseUrl: string } | { problem: string } {
	const text = typeof raw === 'string' ? raw.trim().replace(/\/+$/, '') : '';
	if (text === '') return { problem: 'the credential has no Base URL' };
	if (!URL.canParse(text)) return { problem: `the credential's Base URL "${text}" is not a valid URL` };
	const url = new URL(text);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
		return {
			problem: `the credential's Base URL "${text}" must use https:// so the API key never crosses a network in clear (plain http:// is allowed only for a service on this machine: localhost, 127.x.x.x or [::1])`,
		};
	}
	if (url.search || url.hash) {
		return { problem: `the credential's Base URL "${text}" must not contain a query or fragment` };
	}
	return { baseUrl: text };
}

export async function getConnection(this: IExecuteFunctions): Promise<ServiceConnection> {
	const credentials: ICredentialDataDecryptedObject = await this.getCredentials(CREDENTIAL_TYPE);
	const checked = checkBaseUrl(credentials.baseUrl);
	if ('problem' in checked) {
		throw new NodeOperationError(this.getNode(), `Credential problem: ${checked.problem}`, {
			description: 'Nothing was sent. Fix the Multi-Channel Notification API credential and run again.',
		});
	}
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		baseUrl: checked.baseUrl,
		apiKey: String(credentials.apiKey ?? ''),
		credential: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
	};
}

function scrub(text: string, apiKey: string): string {
	return apiKey.length > 0 ? text.split(apiKey).join('***') : text;
}

function serviceMessage(body: unknown): string | undefined {
	if (body && typeof body === 'object' && !Array.isArray(body)) {
		const { message } = body as { message?: unknown };
		if (typeof message === 'string' && message.trim() !== '') return message;
	}
	return undefined;
}

/** The `message` of a body that may not be JSON at all (credential test reads raw text). */
function messageOfRawBody(raw: string): string | undefined {
	return serviceMessage(jsonParse<unknown>(raw, { fallbackValue: undefined }));
}

function shorten(text: string, max = 300): string {
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const NETWORK_PROBLEMS: Record<string, string> = {
	ECONNRESET: 'the connection was closed before an answer came',
	ECONNREFUSED: 'nothing is listening at the Base URL',
	ENOTFOUND: "the Base URL's host name was not found",
	EAI_AGAIN: "the Base URL's host name could not be looked up",
	EHOSTUNREACH: 'the host cannot be reached',
	ECONNABORTED: 'the request was aborted',
};

const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request as invalid.',
	401: 'The service rejected the API key: check the Multi-Channel Notification API credential.',
	403: 'The service refused this send. For media messages the recipient must have started the chat first.',
	404: "The endpoint was not found: check the credential's Base URL.",
	429: 'The service is rate limiting: slow down or retry later.',
};

function hintFor(status: number): string {
	if (STATUS_HINTS[status]) return STATUS_HINTS[status];
	if (status >= 500) {
		return 'The service failed while handling the send. The message may or may not have been delivered: check before sending it again.';
	}
	return 'The service did not accept the request.';
}

export interface RequestOptions {
	itemIndex: number;
	/** Milliseconds to wait for an answer. */
	timeout: number;
	/** How often a 429 answer is retried; nothing else is ever resent. */
	rateLimitRetries: number;
}

interface RawResponse {
	statusCode: number;
	body: unknown;
	headers: IDataObject;
}

/**
 * POSTs one request and returns the service's `{ message, data }`, or throws NodeApiError with
 * the service's own text. Only a 429 is sent again, after the wait the service asks for: it
 * means the request was refused, not delivered. A 5xx, a timeout or a dropped connection may
 * already have delivered the message, so those are never resent.
 */
export async function sendRequest(
	this: IExecuteFunctions,
	connection: ServiceConnection,
	endpoint: Endpoint,
	body: IDataObject,
	{ itemIndex, timeout, rateLimitRetries }: RequestOptions,
): Promise<ServiceResponse> {
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: `${connection.baseUrl}${endpoint}`,
		headers: { 'Content-Type': 'application/json' },
		body,
		json: true,
		returnFullResponse: true,
		// Statuses are judged here, so the service's own text reaches the user and no helper
		// re-sends on our behalf.
		ignoreHttpStatusErrors: true,
		timeout,
	};

	let response: RawResponse;
	for (let attempt = 0; ; attempt++) {
		response = await post.call(this, connection, request, endpoint, itemIndex);
		if (response.statusCode !== 429 || attempt >= rateLimitRetries) break;
		const wait = rateLimitWait(response.headers?.['retry-after'], attempt);
		if (wait > MAX_RATE_LIMIT_WAIT_MS) break;
		await sleep(wait);
	}
	return judge.call(this, connection, response, itemIndex, rateLimitRetries);
}

async function post(
	this: IExecuteFunctions,
	connection: ServiceConnection,
	request: IHttpRequestOptions,
	endpoint: Endpoint,
	itemIndex: number,
): Promise<RawResponse> {
	try {
		return (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			{ ...request },
			{ credentialsDecrypted: connection.credential },
		)) as RawResponse;
	} catch (error) {
		// Built from scratch: the caught error holds the request config, Authorization header included.
		// n8n's helper wraps network failures in a NodeApiError that keeps the system code
		// (ECONNABORTED, ECONNRESET, …) in `httpCode` and the original text in `messages`.
		const wrapped = error as { code?: unknown; httpCode?: unknown; messages?: unknown; cause?: { code?: unknown } };
		const rawCode = wrapped.code ?? wrapped.cause?.code ?? wrapped.httpCode;
		const code = typeof rawCode === 'string' && !/^\d+$/.test(rawCode) ? rawCode : undefined;
		const original = Array.isArray(wrapped.messages) ? wrapped.messages.find((text) => typeof text === 'string') : undefined;
		const reason = scrub(
			typeof original === 'string' ? original : error instanceof Error ? error.message : String(error),
			connection.apiKey,
		);
		const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(reason);
		throw new NodeApiError(
			this.getNode(),
			{ message: reason, ...(code ? { systemCode: code } : {}) } as JsonObject,
			{
				itemIndex,
				message: timedOut
					? `The service did not answer within ${request.timeout} ms (${endpoint})`
					: `Could not reach the service: ${NETWORK_PROBLEMS[code ?? ''] ?? 'the request failed on the network'}`,
				// n8n rewrites a message that names a system code, so the code goes here.
				description: `${reason}${code && !reason.includes(code) ? ` (${code})` : ''}. The message may or may not have been delivered: check before sending it again.`,
			},
		);
	}
}

function judge(
	this: IExecuteFunctions,
	connection: ServiceConnection,
	{ statusCode, body: responseBody, headers }: RawResponse,
	itemIndex: number,
	rateLimitRetries: number,
): ServiceResponse {
	const text = serviceMessage(responseBody);
	const ok = statusCode >= 200 && statusCode < 300;
	if (ok && text === 'success' && responseBody && typeof responseBody === 'object') {
		const { data } = responseBody as { data?: unknown };
		return {
			...(responseBody as IDataObject),
			message: 'success',
			data: data && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : {},
		};
	}

	// Scrub first, then shorten: shortening could cut the key and leave part of it behind.
	const shown =
		text !== undefined
			? scrub(text, connection.apiKey)
			: typeof responseBody === 'string' && responseBody.trim() !== ''
				? `unexpected non-JSON answer: ${shorten(scrub(responseBody.trim(), connection.apiKey), 120)}`
				: 'no message in the answer';
	const rawRetryAfter = headers?.['retry-after'];
	const retryAfter = typeof rawRetryAfter === 'string' ? scrub(rawRetryAfter, connection.apiKey) : undefined;
	let description = ok
		? 'The answer was not "success", so this item is treated as failed. The message may or may not have been delivered: check before sending it again.'
		: hintFor(statusCode);
	if (statusCode === 429) {
		const wait = rateLimitWait(rawRetryAfter, rateLimitRetries);
		description +=
			wait > MAX_RATE_LIMIT_WAIT_MS
				? ` The service asked to wait ${Math.ceil(wait / 1000)} s, longer than the ${MAX_RATE_LIMIT_WAIT_MS / 1000} s this node waits.`
				: ` Gave up after ${rateLimitRetries} ${rateLimitRetries === 1 ? 'retry' : 'retries'} (option Rate Limit Retries). Nothing was delivered for this item.`;
	}
	throw new NodeApiError(
		this.getNode(),
		{
			message: shown,
			httpCode: String(statusCode),
			...(retryAfter !== undefined ? { retryAfter } : {}),
		} as JsonObject,
		{
			itemIndex,
			httpCode: String(statusCode),
			message: ok
				? `The service did not confirm the send (HTTP ${statusCode}): ${shown}`
				: `The service answered HTTP ${statusCode}: ${shown}`,
			description,
		},
	);
}

/**
 * Credential test. It POSTs an empty JSON object to the SMS endpoint: that can never deliver a
 * message, and the answer tells the key apart — 401/403 means the key was refused, while a
 * validation rejection (or any other 4xx) means the key was accepted.
 */
export async function testCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const checked = checkBaseUrl(data.baseUrl);
	if ('problem' in checked) return { status: 'Error', message: `Invalid Base URL: ${checked.problem}` };
	const apiKey = String(data.apiKey ?? '');
	if (apiKey === '') return { status: 'Error', message: 'The API key is empty' };

	let status: number;
	let text: string | undefined;
	try {
		// The credential-test context offers no authenticated request helper, so the header the
		// credential's `authenticate` block would add is set here the same way: the key as is.
		const response = await fetch(`${checked.baseUrl}${ENDPOINTS.sms}`, {
			method: 'POST',
			headers: { Authorization: apiKey, 'Content-Type': 'application/json', Accept: 'application/json' },
			body: '{}',
			signal: AbortSignal.timeout(15000),
		});
		status = response.status;
		text = messageOfRawBody(await response.text());
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return { status: 'Error', message: `Could not reach the service at ${checked.baseUrl}: ${scrub(reason, apiKey)}` };
	}
	const said = text ? `: ${scrub(text, apiKey)}` : '';
	if (status === 401 || status === 403) {
		return { status: 'Error', message: `The service rejected the API key (HTTP ${status}${said})` };
	}
	if (status === 404) {
		return { status: 'Error', message: `No notification service at ${checked.baseUrl} (HTTP 404): check the Base URL` };
	}
	if (status >= 500) {
		return { status: 'Error', message: `The service failed (HTTP ${status}${said})` };
	}
	return { status: 'OK', message: 'Connection successful: the service accepted the API key' };
}
