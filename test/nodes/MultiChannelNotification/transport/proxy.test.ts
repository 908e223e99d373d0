/**
 * Proxies. With HTTP_PROXY and HTTPS_PROXY set (NO_PROXY unset) to a recording proxy:
 * - an https Base URL goes through n8n's request helper, which honours n8n's proxy settings: it
 *   tunnels through the proxy with CONNECT, the key stays inside TLS (the proxy never sees it),
 *   and the send succeeds.
 * The environment is restored after each test.
 */
import { expectNoKey, keyEncodings, SPECIAL_KEY, smsParameters, useHostileService } from '../../../helpers/boundary';
import { runNode } from '../../../helpers/engine';
import type { RecordingProxy } from '../../../helpers/recordingProxy';
import { startRecordingProxy, useProxyEnvironment } from '../../../helpers/recordingProxy';

const https = useHostileService();

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
