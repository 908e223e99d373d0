/**
 * The credential test with the two switches for self-hosted services, run the way n8n's
 * CredentialsTester runs it (n8n-core's CredentialTestContext), against the sandbox over plain
 * http and over https with a certificate from a CA this run does not trust.
 * - Allow Plain HTTP off: an http:// Base URL fails before any connection, naming the switch.
 *   On: the test reaches the service over http and judges the key as over https; a redirect is
 *   still not followed and an oversized answer still abandoned.
 * - An untrusted certificate with Ignore SSL Issues off: the message says the certificate is not
 *   trusted and names NODE_EXTRA_CA_CERTS and the switch. With it on: the test cannot skip the
 *   check (see transport/credentialTest.ts), so it says the key was NOT checked, names both
 *   ways to check it, and is never OK. With a trusted certificate the switch changes nothing.
 */
import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';
import { CredentialTestContext } from 'n8n-core';

import { MultiChannelNotificationApi } from '../../credentials/MultiChannelNotificationApi.credentials';
import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { expectTextHasNoKey, SPECIAL_KEY, useHostileService } from '../helpers/boundary';
import { redirectAnswer, streamedAnswer } from '../helpers/hostileService';
import { untrustedTls, useSandbox } from '../helpers/sandbox';

const credential = new MultiChannelNotificationApi();
const node = new MultiChannelNotification();

interface CredentialData {
	apiKey: string;
	baseUrl: string;
	allowPlainHttp?: boolean;
	ignoreSslIssues?: boolean;
}

async function testCredential(data: CredentialData): Promise<INodeCredentialTestResult> {
	const [reference] = node.description.credentials ?? [];
	const test = node.methods.credentialTest[reference.testedBy as 'multiChannelNotificationApiTest'];
	const decrypted: ICredentialsDecrypted = { id: '1', name: 'Self-hosted', type: credential.name, data: { ...data } };
	return await test.call(new CredentialTestContext() as unknown as ICredentialTestFunctions, decrypted);
}

const OK = { status: 'OK', message: 'Connection successful: the service accepted the API key' };

describe('plain http', () => {
	const sandbox = useSandbox({ plainHttp: true });
	const http = useHostileService({ insecure: true });
	const httpTarget = useHostileService({ insecure: true });

	test.each([
		['not set', undefined],
		['off', false],
	])('Allow Plain HTTP %s: Error naming the switch, no connection', async (_name, allowPlainHttp) => {
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: http.url, ...(allowPlainHttp === undefined ? {} : { allowPlainHttp }) });

		expect({ status: result.status, connections: http.connections() }).toEqual({ status: 'Error', connections: 0 });
		expect(result.message).toContain(`Nothing was sent: the Base URL "${http.url}" must use https://`);
		expect(result.message).toContain('turn on Allow Plain HTTP in the credential');
		expectTextHasNoKey(result.message, SPECIAL_KEY);
	});

	test('Allow Plain HTTP on, the right key: OK, the service saw the key and delivered nothing', async () => {
		const result = await testCredential({ apiKey: sandbox().apiKey, baseUrl: sandbox().url, allowPlainHttp: true });

		expect(result).toEqual(OK);
		expect(sandbox().requests).toHaveLength(1);
		expect(sandbox().requests[0]).toMatchObject({ path: '/v1/sms/notification', rawBody: '{}', status: 400, delivered: false });
		expect(sandbox().requests[0].headers.authorization).toBe(sandbox().apiKey);
	});

	test('Allow Plain HTTP on, a wrong key: rejected with the service text', async () => {
		const result = await testCredential({ apiKey: 'not-the-key-4410', baseUrl: sandbox().url, allowPlainHttp: true });

		expect(result).toEqual({ status: 'Error', message: 'The service rejected the API key (HTTP 401): Unauthorized: invalid API key' });
	});

	test('Allow Plain HTTP on, a redirect: Error, not followed, the target sees no connection', async () => {
		http.answer = () => redirectAnswer(308, `${httpTarget.url}/v1/sms/notification?token=abc`);
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: http.url, allowPlainHttp: true });

		expect({ status: result.status, requests: http.requests.length, targetConnections: httpTarget.connections() }).toEqual({
			status: 'Error',
			requests: 1,
			targetConnections: 0,
		});
		expect(result.message).toMatch(/redirected/);
		expect(result.message).not.toContain('token=abc');
	});

	test('Allow Plain HTTP on, an answer past 1 MiB: Error, abandoned', async () => {
		http.answer = () => streamedAnswer('{"message":"Unauthorized","detail":"BIG-HTTP-MARKER"', 8 * 1024 * 1024, '}', { status: 401 });
		const result = await testCredential({ apiKey: SPECIAL_KEY, baseUrl: http.url, allowPlainHttp: true });

		expect(result.status).toBe('Error');
		expect(result.message).toContain('larger than 1 MiB');
		expect(result.message).not.toContain('BIG-HTTP-MARKER');
	});
});

describe('a certificate this n8n does not trust', () => {
	const untrusted = useSandbox({ tls: untrustedTls() });
	const trusted = useSandbox();

	test.each([
		['not set', undefined],
		['off', false],
	])('Ignore SSL Issues %s: Error saying the certificate is not trusted, naming NODE_EXTRA_CA_CERTS and the switch', async (_name, ignoreSslIssues) => {
		const result = await testCredential({
			apiKey: untrusted().apiKey,
			baseUrl: untrusted().url,
			...(ignoreSslIssues === undefined ? {} : { ignoreSslIssues }),
		});

		expect({ status: result.status, requests: untrusted().requests.length }).toEqual({ status: 'Error', requests: 0 });
		expect(result.message).toMatch(new RegExp(`^Could not reach the service: the certificate of ${untrusted().url} is not trusted: .+ \\([A-Z_]+\\)\\. `));
		expect(result.message).toContain('NODE_EXTRA_CA_CERTS');
		expect(result.message).toContain('turn on Ignore SSL Issues (Insecure) in the credential');
	});

	test.each([
		['the right key', () => untrusted().apiKey],
		['a wrong key', () => 'not-the-key-4410'],
	])('Ignore SSL Issues on, %s: never OK, the key is said to be NOT checked, with how to check it', async (_name, key) => {
		const result = await testCredential({ apiKey: key(), baseUrl: untrusted().url, ignoreSslIssues: true });

		expect({ status: result.status, requests: untrusted().requests.length }).toEqual({ status: 'Error', requests: 0 });
		expect(result.message).toMatch(/^The API key was NOT checked: the certificate of .* is not trusted/);
		expect(result.message).toContain('Ignore SSL Issues (Insecure) is on and sends honour it (through a proxy, only on n8n releases that apply it to the tunnelled connection)');
		expect(result.message).toContain('no request helper that can skip certificate checks');
		expect(result.message).toContain('run the node once with a real send');
		expect(result.message).toContain('NODE_EXTRA_CA_CERTS');
	});

	test('Ignore SSL Issues on, a trusted certificate: the test works as ever', async () => {
		const result = await testCredential({ apiKey: trusted().apiKey, baseUrl: trusted().url, ignoreSslIssues: true });

		expect(result).toEqual(OK);
		expect(trusted().requests).toHaveLength(1);
	});
});
