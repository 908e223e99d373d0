/**
 * The credential's `authenticate` adds the key only to a request for its Base URL's origin
 * (scheme, host and port, the Base URL read as the node reads it). n8n offers the credential to
 * any node, the HTTP Request node included, so a user who may use the credential but not see it
 * could otherwise point a request at their own host and read the key there. n8n hands
 * `authenticate` the request as the node built it: `url` (httpRequestWithAuthentication) or
 * `uri` (requestWithAuthentication, what the HTTP Request node uses), either one possibly
 * relative to `baseURL`.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { MultiChannelNotificationApi } from '../../credentials/MultiChannelNotificationApi.credentials';

const KEY = 'origin-key-5b7e21';
const BASE_URL = 'https://notify.example.com/v1/';
const authenticate = new MultiChannelNotificationApi().authenticate;

async function authorize(request: Record<string, unknown>, credential: Record<string, unknown> = {}) {
	return await authenticate({ apiKey: KEY, baseUrl: BASE_URL, ...credential }, request as unknown as IHttpRequestOptions);
}

/** The refusal, or a failure naming what came back instead of one. */
async function refusal(request: Record<string, unknown>, credential: Record<string, unknown> = {}): Promise<Error> {
	const given = structuredClone(request);
	let result: IHttpRequestOptions | undefined;
	try {
		result = await authorize(given, credential);
	} catch (error) {
		// The request n8n handed in was not given the key either.
		expect(JSON.stringify(given)).not.toContain(KEY);
		return error as Error;
	}
	throw new Error(`not refused: got ${JSON.stringify(result)}`);
}

describe('a request for another origin: refused, the key is never added', () => {
	test.each([
		['another host', { url: 'https://attacker.example/collect' }],
		['plain http on the same host', { url: 'http://notify.example.com/v1/sms/notification' }],
		['another port on the same host', { url: 'https://notify.example.com:8443/v1/sms/notification' }],
		['a host that only starts like it', { url: 'https://notify.example.com.attacker.example/' }],
		['the Base URL host as a user name', { url: 'https://notify.example.com@attacker.example/' }],
		['the legacy uri (the HTTP Request node)', { uri: 'https://attacker.example/collect' }],
		['a url on the origin but a uri elsewhere', { url: 'https://notify.example.com/v1/sms/notification', uri: 'https://attacker.example/' }],
		['a relative url under another baseURL', { url: '/collect', baseURL: 'https://attacker.example' }],
		['a protocol-relative url beside the Base URL as baseURL', { url: '//attacker.example/collect', baseURL: 'https://notify.example.com' }],
		['no url at all', { method: 'POST' }],
		['a url that is not a URL', { url: 'not a url' }],
	])('%s', async (_name, request) => {
		const error = await refusal(request);

		expect(error.message).toContain('https://notify.example.com');
		expect(error.message).toContain('Nothing was sent');
		expect(error.message).not.toContain(KEY);
	});

	test('the message names the Base URL origin and where the request was going, and nothing of its path or query', async () => {
		const error = await refusal({ url: 'https://attacker.example/collect?token=private-773' });

		expect(error.message).toBe(
			'The Multi-Channel Notification API credential sends its API key only to its Base URL origin, https://notify.example.com; ' +
				'this request is for https://attacker.example. Nothing was sent.',
		);
	});

	test('another host through a proxy and without the certificate check: the message says the host first', async () => {
		const error = await refusal({ url: 'https://attacker.example/', proxy: 'http://attacker.example:3128', skipSslCertificateValidation: true });

		expect(error.message).toContain('this request is for https://attacker.example. Nothing was sent.');
	});

	test('a request through a proxy it names itself: refused (a proxy of its own could read or re-route the key)', async () => {
		const error = await refusal({ url: 'https://notify.example.com/v1/sms/notification', proxy: 'http://attacker.example:3128' });

		expect(error.message).toContain('proxy');
		expect(error.message).toContain('Nothing was sent');
	});

	test('a Base URL the node would refuse: refused with its problem', async () => {
		const error = await refusal({ url: 'http://notify.example.com/v1/sms/notification' }, { baseUrl: 'http://notify.example.com' });

		expect(error.message).toContain('must use https://');
		expect(error.message).toContain('Nothing was sent');
	});
});

describe('a request for the Base URL origin: the key is added, redirects are not followed', () => {
	test.each([
		['a path under /v1', BASE_URL, { url: 'https://notify.example.com/v1/sms/notification' }],
		['a Base URL without /v1 or slash', 'https://notify.example.com', { url: 'https://notify.example.com/v1/sms/notification' }],
		['a Base URL with a trailing slash', 'https://notify.example.com/', { url: 'https://notify.example.com/v1/chat/template' }],
		['port 443 written in the Base URL', 'https://notify.example.com:443/v1', { url: 'https://notify.example.com/v1/sms/notification' }],
		['port 443 written in the request', BASE_URL, { url: 'https://notify.example.com:443/v1/sms/notification' }],
		['a host in capitals', BASE_URL, { url: 'https://NOTIFY.Example.com/v1/sms/notification' }],
		['a relative url with the Base URL as baseURL', BASE_URL, { url: '/v1/sms/notification', baseURL: 'https://notify.example.com' }],
		['the legacy uri (the HTTP Request node)', BASE_URL, { uri: 'https://notify.example.com/v1/sms/notification', followRedirect: true, followAllRedirects: true }],
	])('%s', async (_name, baseUrl, request) => {
		const result = (await authorize({ method: 'POST', headers: { Accept: 'application/json' }, ...request }, { baseUrl })) as IHttpRequestOptions &
			Record<string, unknown>;

		expect(result.headers).toEqual({ Accept: 'application/json', Authorization: KEY });
		expect(result).toMatchObject({ disableFollowRedirect: true, followRedirect: false, followAllRedirects: false });
	});

	test('plain http to its own origin with Allow Plain HTTP on', async () => {
		const result = await authorize({ url: 'http://notify:8080/v1/sms/notification' }, { baseUrl: 'http://notify:8080', allowPlainHttp: true });

		expect(result.headers).toEqual({ Authorization: KEY });
	});
});

describe('certificate checks: skipped only when the credential’s Ignore SSL Issues (Insecure) is on', () => {
	const url = 'https://notify.example.com/v1/sms/notification';

	test.each([
		['n8n’s request helper', { url, skipSslCertificateValidation: true }],
		['the older helper (the HTTP Request node’s Ignore SSL Issues)', { uri: url, rejectUnauthorized: false }],
	])('%s asks to skip them, the switch is off: refused, naming the switch', async (_name, request) => {
		const error = await refusal(request);

		expect(error.message).toContain('unless its own Ignore SSL Issues (Insecure) is on (it is off)');
		expect(error.message).toContain('turn on Ignore SSL Issues (Insecure) in the credential. Nothing was sent.');
	});

	test('the request asks to skip them, the switch is on: skipped as asked', async () => {
		const result = await authorize({ url, skipSslCertificateValidation: true }, { ignoreSslIssues: true });

		expect(result).toMatchObject({ skipSslCertificateValidation: true, headers: { Authorization: KEY } });
	});

	test('the request asks for them (as the node’s own sends do with the switch off): the key is added', async () => {
		const result = await authorize({ url, skipSslCertificateValidation: false, rejectUnauthorized: true });

		expect(result).toMatchObject({ skipSslCertificateValidation: false, headers: { Authorization: KEY } });
	});
});

describe('the request read as n8n’s HTTP client reads it', () => {
	test.each([
		['an absolute url on the origin beside a baseURL elsewhere (the client ignores baseURL for it)', { url: 'https://notify.example.com/v1/sms/notification', baseURL: 'https://attacker.example' }],
		['a relative url, the Base URL with a trailing slash as baseURL', { url: 'v1/sms/notification', baseURL: 'https://notify.example.com/' }],
		['a baseURL written without the slashes after https:', { url: 'sms/notification', baseURL: 'https:notify.example.com/v1/' }],
		['an empty baseURL and a url without the slashes after https:', { url: 'https:notify.example.com/v1/sms/notification', baseURL: '' }],
		['a null url beside the legacy uri', { url: null, uri: 'https://notify.example.com/v1/sms/notification' }],
	])('%s: the key is added', async (_name, request) => {
		const result = await authorize(request);

		expect(result.headers).toEqual({ Authorization: KEY });
	});

	test.each([
		['null', null],
		['empty', ''],
		['false', false],
	])('a proxy set to %s is no proxy: the key is added', async (_name, proxy) => {
		const result = await authorize({ url: 'https://notify.example.com/v1/sms/notification', proxy });

		expect(result.headers).toEqual({ Authorization: KEY });
	});

	test('a URL with no origin of its own (mailto:): the message names its scheme', async () => {
		const error = await refusal({ url: 'mailto:someone@attacker.example' });

		expect(error.message).toBe(
			'The Multi-Channel Notification API credential sends its API key only to its Base URL origin, https://notify.example.com; ' +
				'this request is for a mailto: address. Nothing was sent.',
		);
	});

	test('a baseURL of a scheme and no host beside a url with its own: refused, naming the scheme the joined address has', async () => {
		const error = await refusal({ url: 'https:notify.example.com/v1/sms/notification', baseURL: 'foo://' });

		expect(error.message).toContain('this request is for a foo: address. Nothing was sent.');
	});
});

describe('the credential changed between requests: each request is checked against the credential it comes with', () => {
	test('another Base URL: its own origin is the one allowed', async () => {
		await authorize({ url: 'https://notify.example.com/v1/sms/notification' });
		const result = await authorize({ url: 'https://other-notify.example.com/v1/sms/notification' }, { baseUrl: 'https://other-notify.example.com' });

		expect(result.headers).toEqual({ Authorization: KEY });
	});

	test('Allow Plain HTTP turned off, then on again, on the same Base URL: refused, then added', async () => {
		const credential = { baseUrl: 'http://notify:8080' };
		const request = { url: 'http://notify:8080/v1/sms/notification' };
		await authorize(request, { ...credential, allowPlainHttp: true });

		expect((await refusal(request, credential)).message).toContain('must use https://');
		expect((await authorize(request, { ...credential, allowPlainHttp: true })).headers).toEqual({ Authorization: KEY });
	});
});
