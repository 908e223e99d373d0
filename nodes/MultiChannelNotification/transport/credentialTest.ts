import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';

import { checkCredential, credentialProblem, IGNORE_SSL_ISSUES } from './connection';
import { ENDPOINTS } from './endpoints';
import type { Client } from './exchange';
import { fetchClient, MAX_ANSWER_TEXT, WireFailure } from './exchange';
import { CERTIFICATE_HINT, isCertificateFailure, redirectTarget, serviceMessage } from './response';
import { makeScrubber } from './secrets';

/**
 * Credential test: POSTs an empty JSON object to the SMS endpoint, which can never deliver a
 * message; 401/403 means the key was refused, a validation rejection (400, any other 4xx) that it
 * was accepted. Like a send it checks the Base URL (plain http only with Allow Plain HTTP on),
 * never follows a redirect and reads at most 1 MiB. It uses `fetch`, not n8n's helper and proxy
 * settings: the credential-test context offers only the deprecated `request`, which n8n's lint
 * rules and package scanner refuse. When it cannot reach the service, it says so.
 *
 * The limit: `fetch` always checks the service's certificate, and a community node has no
 * compliant way to make it skip that (no `node:https` or undici agent, no environment switch).
 * A declarative `test` on the credential would use n8n's helper, which can, but n8n then runs it
 * instead of this function: no Base URL checks, no scrubbing, no "400 means accepted". So with
 * Ignore SSL Issues on and a certificate n8n does not trust, this test says the key was NOT
 * checked (never OK) and how to check it; sends do honour the switch.
 */
export async function testCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const checked = checkCredential(credential.data ?? {});
	if ('problems' in checked) {
		return { status: 'Error', message: `Nothing was sent: ${credentialProblem(checked.problems)}` };
	}
	const { baseUrl, apiKey, ignoreSslIssues } = checked.data;
	const scrub = makeScrubber(apiKey);
	const url = `${baseUrl}${ENDPOINTS.sms}`;
	const client: Client = fetchClient({ Authorization: apiKey });
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
		if (isCertificateFailure(failure)) return certificateVerdict(baseUrl, cause, ignoreSslIssues);
		const proxyNote =
			'. If this n8n reaches the service only through a proxy (HTTPS_PROXY or HTTP_PROXY), this test cannot use it, but sends do';
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

/** A certificate n8n does not trust: what to do, and with the switch on, that the key was not checked. */
function certificateVerdict(baseUrl: string, cause: string, ignoreSslIssues: boolean): INodeCredentialTestResult {
	const untrusted = `the certificate of ${baseUrl} is not trusted: ${cause}`;
	if (!ignoreSslIssues) {
		return { status: 'Error', message: `Could not reach the service: ${untrusted}. ${CERTIFICATE_HINT}` };
	}
	return {
		status: 'Error',
		message:
			`The API key was NOT checked: ${untrusted}. ${IGNORE_SSL_ISSUES} is on and sends honour it (through a proxy, only on n8n releases that apply it to the tunnelled connection), but n8n gives a community node's credential test no request helper that can skip certificate checks, so this test cannot reach the service. ` +
			"To check the key, run the node once with a real send (without Dry Run), or make n8n trust the service's CA with NODE_EXTRA_CA_CERTS in n8n's environment (then this test works too).",
	};
}
