/**
 * The credential test's verdict for what a real server cannot easily give on demand: a service
 * that stays silent past the test's 15 s, a dropped connection with and without a system code, a
 * certificate n8n does not trust (with Ignore SSL Issues off and on), and the statuses at the
 * edges (300, below 200). The test's `fetch` client is replaced by a stub, so each verdict is
 * compared word for word without waiting or a TLS server.
 */
import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';

import { testCredential } from '../../../../nodes/MultiChannelNotification/transport';
import type { Answer } from '../../../../nodes/MultiChannelNotification/transport/exchange';
import * as exchange from '../../../../nodes/MultiChannelNotification/transport/exchange';

const BASE_URL = 'https://service.example';
const URL = `${BASE_URL}/v1/sms/notification`;
const KEY = 'credential-key-7c2d';

/** The verdict when the test's request ends as given: an answer, or a thrown failure. */
async function verdictWhen(outcome: Answer | exchange.WireFailure, data: Record<string, unknown> = {}): Promise<INodeCredentialTestResult> {
	jest.spyOn(exchange, 'fetchClient').mockReturnValue(async () => {
		if (outcome instanceof exchange.WireFailure) throw outcome;
		return outcome;
	});
	const credential: ICredentialsDecrypted = { id: '1', name: 'Test', type: 'multiChannelNotificationApi', data: { apiKey: KEY, baseUrl: BASE_URL, ...data } };
	return await testCredential.call({} as ICredentialTestFunctions, credential);
}

afterEach(() => jest.restoreAllMocks());

const PROXY_NOTE = '. If this n8n reaches the service only through a proxy (HTTPS_PROXY or HTTP_PROXY), this test cannot use it, but sends do';
const CERTIFICATE_CAUSE = `the certificate of ${BASE_URL} is not trusted: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`;

test('no answer within the deadline', async () => {
	expect(await verdictWhen(new exchange.WireFailure('timeout', 'no complete answer before the deadline'))).toEqual({
		status: 'Error',
		message: `No answer from ${URL} within 15 s`,
	});
});

test.each<[string, exchange.WireFailure, string]>([
	['a code not in the reason is added', new exchange.WireFailure('network', 'socket hang up', 'ECONNRESET'), 'socket hang up (ECONNRESET)'],
	['no code: the reason alone', new exchange.WireFailure('network', 'socket hang up'), 'socket hang up'],
])('the connection failed, %s', async (_name, failure, cause) => {
	expect(await verdictWhen(failure)).toEqual({ status: 'Error', message: `Could not reach the service at ${BASE_URL}: ${cause}${PROXY_NOTE}` });
});

describe('a certificate n8n does not trust', () => {
	const untrusted = new exchange.WireFailure('network', 'self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT');

	test('Ignore SSL Issues off: how to make n8n trust it', async () => {
		expect(await verdictWhen(untrusted, { ignoreSslIssues: false })).toEqual({
			status: 'Error',
			message: `Could not reach the service: ${CERTIFICATE_CAUSE}. If the service uses a self-signed certificate or one from your own CA, make n8n trust that CA with NODE_EXTRA_CA_CERTS in n8n's environment (the better choice), or turn on Ignore SSL Issues (Insecure) in the credential.`,
		});
	});

	test('Ignore SSL Issues on: the key was NOT checked, and how to check it', async () => {
		expect(await verdictWhen(untrusted, { ignoreSslIssues: true })).toEqual({
			status: 'Error',
			message:
				`The API key was NOT checked: ${CERTIFICATE_CAUSE}. Ignore SSL Issues (Insecure) is on and sends honour it (through a proxy, only on n8n releases that apply it to the tunnelled connection), but n8n gives a community node's credential test no request helper that can skip certificate checks, so this test cannot reach the service. ` +
				"To check the key, run the node once with a real send (without Dry Run), or make n8n trust the service's CA with NODE_EXTRA_CA_CERTS in n8n's environment (then this test works too).",
		});
	});
});

describe('statuses at the edges', () => {
	test('HTTP 300 is a redirect', async () => {
		expect(await verdictWhen({ status: 300, headers: {}, text: '' })).toEqual({
			status: 'Error',
			message:
				'The service redirected the test request (HTTP 300) to (no Location given). Redirects are never followed, so the key goes only to the Base URL: if the service has moved, use its new address as the Base URL.',
		});
	});

	test('below 200: an unexpected answer, not an accepted key', async () => {
		expect(await verdictWhen({ status: 199, headers: {}, text: '{"message":"early"}' })).toEqual({
			status: 'Error',
			message: 'Unexpected answer (HTTP 199): early',
		});
	});
});
