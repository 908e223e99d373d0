import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import type { ServiceConnection } from './connection';
import { CREDENTIAL_TYPE } from './connection';
import type { Endpoint } from './endpoints';
import type { Client, StreamAnswer } from './exchange';
import { helperThis, httpRequestOptions, n8nClient, WireFailure } from './exchange';
import type { AnswerContext, ServiceResponse } from './response';
import { responseOrThrow, statusError, wireError } from './response';

/** The only module that talks to the service. */

export type { ServiceResponse } from './response';
export type { ServiceConnection } from './connection';
export { checkApiKey, checkBaseUrl, getConnection } from './connection';
export { testCredential } from './credentialTest';

export { ENDPOINTS } from './endpoints';
export type { Endpoint } from './endpoints';

/** The client for one execution: n8n's own request helper with the once-decrypted credential. */
export function makeClient(this: IExecuteFunctions, connection: ServiceConnection): Client {
	const node = this.getNode();
	const that = helperThis(node, this.helpers) as IExecuteFunctions;
	return n8nClient(
		async (request) =>
			(await this.helpers.httpRequestWithAuthentication.call(
				that,
				CREDENTIAL_TYPE,
				httpRequestOptions(request, connection),
				{ credentialsDecrypted: connection.credential },
			)) as StreamAnswer,
	);
}

/** What one POST came to: sent, or refused with 429 (the only answer that may be sent again). */
type SendOutcome =
	| { kind: 'sent'; response: ServiceResponse }
	| { kind: 'rateLimited'; retryAfter: string | undefined; error: NodeApiError };

/**
 * POSTs one request (`timeout`: ms for the whole exchange) and returns the service's answer, or
 * throws NodeApiError with the service's own text. A 429 is returned rather than thrown: the
 * request was refused, not delivered, so the caller may send it again. A 5xx, a timeout, a
 * dropped connection or an oversized answer may already have delivered the message: never resent.
 */
export async function sendOnce(
	this: IExecuteFunctions,
	connection: ServiceConnection,
	client: Client,
	endpoint: Endpoint,
	body: IDataObject,
	{ itemIndex, timeout }: { itemIndex: number; timeout: number },
): Promise<SendOutcome> {
	const url = `${connection.baseUrl}${endpoint}`;
	const context: AnswerContext = { node: this.getNode(), itemIndex, url, endpoint, timeout, scrub: connection.scrub, ignoreSslIssues: connection.ignoreSslIssues };
	let answer;
	try {
		answer = await client({ url, body, timeout, cancel: this.getExecutionCancelSignal?.() });
	} catch (error) {
		throw wireError(context, error instanceof WireFailure ? error : new WireFailure('network', String(error)));
	}
	if (answer.status === 429) {
		return { kind: 'rateLimited', retryAfter: answer.headers['retry-after'], error: statusError(context, answer) };
	}
	return { kind: 'sent', response: responseOrThrow(context, answer) };
}
