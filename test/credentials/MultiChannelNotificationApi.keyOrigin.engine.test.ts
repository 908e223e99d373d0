/**
 * The key's destination through n8n's engine: another node using the credential, as n8n's HTTP
 * Request node does (Authentication: Predefined Credential Type, so n8n runs the credential's
 * `authenticate` on whatever URL the user typed). The stand-in node below builds the request the
 * way HTTP Request 4.x does (`uri`, redirects followed, credentials sent on a cross-origin
 * redirect) and also tries n8n's newer helper (`url`). The service is one https server on
 * 127.0.0.1, the user's own host a second one on another port: another origin. A request that
 * asks to skip the certificate check (the HTTP Request node's Ignore SSL Issues) may skip it
 * only when the credential's own Ignore SSL Issues (Insecure) is on: otherwise anyone on the
 * network path could pose as the Base URL's origin and read the key: such a request is refused.
 */
import { SPECIAL_KEY, useHostileService } from '../helpers/boundary';
import { CREDENTIAL, runCourier as run } from '../helpers/keyCourier';
import { redirectAnswer } from '../helpers/hostileService';
import { untrustedTls } from '../helpers/sandbox';

const service = useHostileService();
const elsewhere = useHostileService();
const untrusted = useHostileService({ tls: untrustedTls() });

async function send(url: string, helper: 'legacy' | 'http', { baseUrl = service.url, ignoreSsl = false, ignoreSslIssues = false } = {}) {
	return await run({
		parameters: { url, helper, ignoreSsl },
		items: [{}],
		credentials: { [CREDENTIAL.name]: { type: CREDENTIAL, data: { apiKey: SPECIAL_KEY, baseUrl, ignoreSslIssues } } },
	});
}

describe.each(['legacy', 'http'] as const)('through n8n’s %s request helper', (helper) => {
	test('a request for another origin never reaches it; the error names the Base URL origin', async () => {
		const { error, output } = await send(`${elsewhere.url}/collect`, helper);

		expect(output).toBeUndefined();
		expect(error?.message).toContain(`its Base URL origin, ${service.url}`);
		expect(error?.message).toContain('Nothing was sent');
		expect(elsewhere.connections()).toBe(0);
		expect(service.requests).toHaveLength(0);
	});

	test('a request for the Base URL origin carries the key', async () => {
		const { error, output } = await send(`${service.url}/v1/anything`, helper);

		expect(error).toBeUndefined();
		expect(output?.[0].json.statusCode).toBe(200);
		expect(service.requests.map((request) => request.headers.authorization)).toEqual([SPECIAL_KEY]);
	});

	test('a redirect from the Base URL origin to another origin is not followed: the key stays put', async () => {
		service.answer = () => redirectAnswer(302, `${elsewhere.url}/collect`);
		const { output } = await send(`${service.url}/v1/moved`, helper);

		expect(output?.[0].json.statusCode).toBe(302);
		expect(service.requests).toHaveLength(1);
		expect(elsewhere.requests).toHaveLength(0);
		expect(elsewhere.received()).not.toContain(SPECIAL_KEY);
	});
});

describe.each(['legacy', 'http'] as const)('a Base URL whose certificate n8n does not trust, through n8n’s %s request helper', (helper) => {
	test('the request skips the check but the credential’s Ignore SSL Issues is off: refused before connecting', async () => {
		const { error, output } = await send(`${untrusted.url}/v1/anything`, helper, { baseUrl: untrusted.url, ignoreSsl: true });

		expect(output).toBeUndefined();
		expect(error?.message).toContain('unless its own Ignore SSL Issues (Insecure) is on (it is off)');
		expect(error?.message).toContain('Nothing was sent');
		expect(untrusted.connections()).toBe(0);
	});

	test('the credential’s Ignore SSL Issues on: the request may skip the check, the key arrives', async () => {
		const { error, output } = await send(`${untrusted.url}/v1/anything`, helper, { baseUrl: untrusted.url, ignoreSsl: true, ignoreSslIssues: true });

		expect(error).toBeUndefined();
		expect(output?.[0].json.statusCode).toBe(200);
		expect(untrusted.requests.map((request) => request.headers.authorization)).toEqual([SPECIAL_KEY]);
	});
});
