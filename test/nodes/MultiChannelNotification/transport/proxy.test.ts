/**
 * Proxies. With HTTP_PROXY and HTTPS_PROXY set (NO_PROXY unset) to a recording proxy:
 * - an https Base URL goes through n8n's request helper, which honours n8n's proxy settings: it
 *   tunnels through the proxy with CONNECT, the key stays inside TLS (the proxy never sees it),
 *   and the send succeeds.
 * - a service reached through the proxy whose certificate comes from a CA this run does not
 *   trust: with Ignore SSL Issues off the send is refused, nothing delivered, and the error names
 *   the fixes. With it on, the n8n these tests run on (2.8.x) still checks the certificate: its
 *   request helper hands the switch to the connection to the proxy, not to the tunnelled one to
 *   the service. The send is refused before anything is delivered, and the error says that the
 *   switch is on yet the certificate was checked, and what to do instead.
 * The environment is restored after each test.
 */
import { errorText, expectNoKey, expectNotReportedSent, keyEncodings, SPECIAL_KEY, smsParameters, useHostileService } from '../../../helpers/boundary';
import { runNode } from '../../../helpers/engine';
import { untrustedTls, useSandbox } from '../../../helpers/sandbox';
import type { RecordingProxy } from '../../../../sandbox/proxy';
import { startRecordingProxy } from '../../../../sandbox/proxy';
import { useProxyEnvironment } from '../../../helpers/proxyEnvironment';

const https = useHostileService();
const untrusted = useSandbox({ tls: untrustedTls() });

let proxy: RecordingProxy;
let restoreEnvironment: (() => void) | undefined;

beforeEach(async () => {
	proxy = await startRecordingProxy();
	restoreEnvironment = useProxyEnvironment(proxy.url);
});

afterEach(async () => {
	restoreEnvironment?.();
	restoreEnvironment = undefined;
	await proxy.stop();
});

test("an https Base URL is tunnelled through n8n's proxy (CONNECT); the proxy never sees the key", async () => {
	const result = await runNode({ parameters: smsParameters(), credentials: { apiKey: SPECIAL_KEY, baseUrl: https.url } });

	expect({
		connects: proxy.connects.map((connect) => connect.target),
		forwarded: proxy.forwarded,
		serviceRequests: https.requests.length,
	}).toEqual({
		connects: [`127.0.0.1:${https.port}`],
		forwarded: [],
		serviceRequests: 1,
	});
	expect(result.error).toBeUndefined();
	expect(result.output?.[0].json.message).toBe('success');
	expect(https.requests[0].headers.authorization).toBe(SPECIAL_KEY);
	// Everything the proxy received, CONNECT headers and tunnelled bytes: TLS only.
	const seen = proxy.received();
	expect(seen.length).toBeGreaterThan(0);
	for (const [form, encoded] of Object.entries(keyEncodings(SPECIAL_KEY))) {
		expect({ form, found: seen.includes(encoded) }).toEqual({ form, found: false });
	}
	expect(seen).not.toContain('sms/notification');
	expectNoKey(result, SPECIAL_KEY);
});

describe('a service with a certificate this run does not trust, behind the proxy', () => {
	const send = async (ignoreSslIssues: boolean) =>
		await runNode({ parameters: smsParameters(), credentials: { apiKey: untrusted().apiKey, baseUrl: untrusted().url, ignoreSslIssues } });

	test('Ignore SSL Issues off: refused as untrusted, nothing delivered, the fixes named', async () => {
		const result = await send(false);

		expect({ error: result.error?.name, requests: untrusted().requests.length }).toEqual({ error: 'NodeApiError', requests: 0 });
		const { message, description } = errorText(result);
		expect(message).toBe('Could not reach the service: its certificate is not trusted');
		expect(description).toContain('turn on Ignore SSL Issues (Insecure) in the credential');
		expect(proxy.connects.map((connect) => connect.target)).toEqual([new URL(untrusted().url).host]);
	});

	test("Ignore SSL Issues on: n8n 2.8's helper still checks through the proxy; refused, nothing delivered, the error says why", async () => {
		const result = await send(true);

		expect({ error: result.error?.name, requests: untrusted().requests.length }).toEqual({ error: 'NodeApiError', requests: 0 });
		const { message, description } = errorText(result);
		expect(message).toBe('Could not reach the service: its certificate is not trusted');
		expect(description).toContain('Ignore SSL Issues (Insecure) is on in the credential, yet n8n checked the certificate');
		expect(description).toContain('HTTPS_PROXY');
		expect(description).toContain('NODE_EXTRA_CA_CERTS');
		expect(description).toContain('NO_PROXY');
		expect(description).not.toContain('turn on Ignore SSL Issues');
		expect(description).toContain('Nothing was sent for this item.');
		expect({ connects: proxy.connects.map((connect) => connect.target), forwarded: proxy.forwarded }).toEqual({
			connects: [new URL(untrusted().url).host],
			forwarded: [],
		});
		expect(proxy.received()).not.toContain(untrusted().apiKey);
		expectNotReportedSent(result, false);
		expectNoKey(result, untrusted().apiKey);
	});
});
