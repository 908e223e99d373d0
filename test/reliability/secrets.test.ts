/**
 * The API key never leaks, and it never crosses a network in clear.
 *
 * 1. A hostile service echoes the key back in every place an answer can carry text (JSON
 *    message, non-JSON page — also cut exactly where the node shortens long pages —, headers,
 *    other JSON fields). The key must not appear, whole or in part, in the output items, the
 *    error, the serialised run, or anything logged.
 * 2. The credential's Base URL must be https (plain http only with the credential's Allow Plain
 *    HTTP on: see transport/plainHttp.test.ts). A plain-http address, this machine's loopback
 *    included, is refused before any connection is made: a server listening on this machine's
 *    own non-loopback address proves that not even a TCP connection is attempted. https is
 *    accepted.
 */
import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';

import type { ICredentialTestFunctions, INodeParameters } from 'n8n-workflow';

import { checkBaseUrl, testCredential } from '../../nodes/MultiChannelNotification/transport';
import type { Sandbox } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';
import { runNode } from '../helpers/engine';
import type { HostileAnswer, HostileService } from '../helpers/hostileService';
import { startHostileService } from '../helpers/hostileService';
import type { LogCapture } from '../helpers/logCapture';
import { captureLogs, findSecret } from '../helpers/logCapture';
import { recordFigures } from '../helpers/reliabilityFigures';
import { OPERATION } from '../fixtures/sends';

const API_KEY = `mcn-live-${randomBytes(20).toString('hex')}`;

const SMS: INodeParameters = {
	...OPERATION.sms,
	phoneNumber: '+6281234567890',
	message: 'Kode OTP 482913',
	options: { phoneNumberFormat: 'strict', rateLimitMaxWait: 0, timeout: 10000 },
};

let logs: LogCapture;
const figures = {
	echoScenarios: 0,
	requestsReceived: 0,
	baseUrlsRefused: 0,
	baseUrlsAccepted: 0,
	connectionsToRefusedUrls: 0,
	textsScanned: 0,
	logLinesScanned: 0,
	leaks: 0,
};
const leakReports: string[] = [];

beforeAll(() => {
	logs = captureLogs();
});

afterAll(() => {
	logs.restore();
	recordFigures('secrets', { ...figures, leakReports });
});

function leaksIn(label: string, ...texts: unknown[]): string[] {
	const everything = [...texts.map((text) => (typeof text === 'string' ? text : JSON.stringify(text))), logs.text()].join('\n');
	const found = findSecret(everything, API_KEY).map((excerpt) => `${label}: …${excerpt}…`);
	figures.textsScanned += texts.length;
	figures.logLinesScanned += logs.lines.length;
	figures.leaks += found.length;
	leakReports.push(...found);
	return found;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HostileAnswer => ({
	status,
	headers: { 'content-type': 'application/json', ...headers },
	body: JSON.stringify(body),
});
const page = (status: number, body: string): HostileAnswer => ({ status, headers: { 'content-type': 'text/html' }, body });

describe('a service that echoes the API key back', () => {
	const echoes: Array<[string, (key: string) => HostileAnswer]> = [
		['in the JSON message of a 401', (key) => json(401, { message: `Unauthorized: ${key}` })],
		['in the JSON message of a 2xx', (key) => json(200, { message: `key ${key} is suspended`, data: {} })],
		['in a JSON message longer than any shortening', (key) => json(500, { message: `${'e'.repeat(500)} ${key} ${'e'.repeat(500)}` })],
		['in other JSON fields of an error', (key) => json(400, { message: 'bad request', error: key, detail: { key }, errors: [key] })],
		['as the whole non-JSON page', (key) => page(502, key)],
		['in a non-JSON page, early', (key) => page(502, `<html>bad key ${key}</html>`)],
		['in a non-JSON page, cut where a long page is shortened', (key) => page(502, `${'x'.repeat(100)}${key}${'x'.repeat(200)}`)],
		['in a non-JSON page, cut one character later', (key) => page(502, `${'x'.repeat(101)}${key}${'x'.repeat(200)}`)],
		['in a non-JSON 2xx page', (key) => page(200, `${'y'.repeat(110)}${key}`)],
		['in a Retry-After header of a 429', (key) => json(429, { message: 'slow down' }, { 'retry-after': key })],
		['in a response header of a 500', (key) => json(500, { message: 'boom' }, { 'x-debug-authorization': key })],
		['percent-encoded in a message', (key) => json(403, { message: `forbidden for ${encodeURIComponent(key)}` })],
	];

	let service: HostileService;
	let answer: (key: string) => HostileAnswer = () => json(200, { message: 'success', data: { id: 'x' } });
	beforeAll(async () => {
		service = await startHostileService({
			answer: (request) => answer(String(request.headers.authorization ?? '')),
		});
	});
	afterAll(async () => {
		figures.requestsReceived += service.requests.length;
		await service.stop();
	});
	beforeEach(() => logs.clear());

	test.each(echoes)('%s: an error, and the key appears nowhere', async (name, reply) => {
		answer = reply;
		figures.echoScenarios++;
		for (const continueOnFail of [false, true]) {
			const { output, error, run } = await runNode({
				parameters: SMS,
				credentials: { apiKey: API_KEY, baseUrl: service.url },
				continueOnFail,
			});
			if (continueOnFail) expect(output?.[0].json.error).toEqual(expect.any(String));
			else expect(error?.name).toBe('NodeApiError');
			expect(leaksIn(`${name} (continue-on-fail ${continueOnFail})`, output, error, error?.message, error?.description, run)).toEqual([]);
		}
		// The key did travel to the service, in the Authorization header, as the spec wants.
		expect(service.requests.at(-1)?.headers.authorization).toBe(API_KEY);
	});
});

/** This machine's first non-loopback IPv4 address, if it has one. */
function externalAddress(): string | undefined {
	for (const addresses of Object.values(networkInterfaces())) {
		for (const address of addresses ?? []) {
			if (address.family === 'IPv4' && !address.internal) return address.address;
		}
	}
	return undefined;
}

describe("the credential's Base URL", () => {
	test.each([
		['https://api.example.com', true],
		['https://api.example.com/', true],
		['HTTPS://API.EXAMPLE.COM', true],
		['http://127.0.0.1:8787', false],
		['http://127.8.9.10', false],
		['http://localhost:8787', false],
		['HTTP://LOCALHOST', false],
		['http://[::1]:8787', false],
		['http://example.com', false],
		['http://10.255.255.1:9', false],
		['http://192.168.1.10', false],
		['http://0.0.0.0:8787', false],
		['http://127.0.0.1.nip.io', false],
		['http://localhost.example.com', false],
		['http://127.0.0.1@example.com', false],
		['http://[::ffff:7f00:1]', false],
		['ftp://127.0.0.1', false],
		['//api.example.com', false],
		['api.example.com', false],
		['', false],
		['https://api.example.com?token=1', false],
	])('%s → accepted: %s', (url, accepted) => {
		const result = checkBaseUrl(url);
		expect('data' in result).toBe(accepted);
		if (!accepted && url !== '') expect('problems' in result && result.problems[0].field).toBe('Base URL');
	});

	describe('refused before anything is sent', () => {
		let listener: HostileService;
		let external: string | undefined;
		beforeAll(async () => {
			// Listens on every interface, so a connection to this machine's LAN address would land here.
			listener = await startHostileService({ host: '0.0.0.0' });
			external = externalAddress();
			recordFigures('secrets', { lanAddressProbed: external ?? null });
		});
		afterAll(async () => listener.stop());

		const refused = (): string[] => [
			'http://example.com',
			'http://10.255.255.1:9',
			...(external ? [`http://${external}:${listener.port}`] : []),
			// Plain http is refused even to this machine: the listener itself sees no connection.
			`http://127.0.0.1:${listener.port}`,
			`ftp://127.0.0.1:${listener.port}`,
		];

		test('in a workflow: a NodeOperationError naming the Base URL, no connection attempted', async () => {
			for (const baseUrl of refused()) {
				logs.clear();
				const before = listener.connections();
				const { output, error, run } = await runNode({ parameters: SMS, credentials: { apiKey: API_KEY, baseUrl } });
				figures.baseUrlsRefused++;
				figures.connectionsToRefusedUrls += listener.connections() - before;
				expect(listener.connections()).toBe(before);
				expect(output).toBeUndefined();
				expect(error?.name).toBe('NodeOperationError');
				expect(error?.message).toMatch(/Base URL/);
				expect(error?.message).toContain(baseUrl);
				expect(error?.description).toMatch(/Nothing was sent/);
				expect(leaksIn(`refused ${baseUrl}`, error, run)).toEqual([]);
			}
		});

		test('with continue-on-fail: no connection attempted, and every item comes out marked as failed', async () => {
			const items = [{ n: 1 }, { n: 2 }];
			for (const baseUrl of refused()) {
				logs.clear();
				const before = listener.connections();
				const { output, run } = await runNode({
					parameters: SMS,
					items,
					credentials: { apiKey: API_KEY, baseUrl },
					continueOnFail: true,
				});
				figures.connectionsToRefusedUrls += listener.connections() - before;
				expect(listener.connections()).toBe(before);
				expect(leaksIn(`refused ${baseUrl} (continue-on-fail)`, output, run)).toEqual([]);
				// Passing the input items through unchanged (no "error" key) would let the next node
				// take an unsent notification for a sent one.
				expect(output).toHaveLength(items.length);
				output?.forEach((item, index) => {
					expect(item.pairedItem).toEqual({ item: index });
					expect(String(item.json.error)).toMatch(/Base URL/);
				});
			}
		});

		test('in the credential test: refused, no connection attempted', async () => {
			for (const baseUrl of refused()) {
				const before = listener.connections();
				const result = await testCredential.call({} as ICredentialTestFunctions, {
					id: '1',
					name: 'test',
					type: 'multiChannelNotificationApi',
					data: { apiKey: API_KEY, baseUrl },
				});
				expect(result.status).toBe('Error');
				expect(result.message).toMatch(/Base URL/);
				expect(listener.connections()).toBe(before);
			}
		});

		test('https to the same listener is accepted: the node connects and sends', async () => {
			const before = listener.connections();
			const { error, output } = await runNode({
				parameters: SMS,
				credentials: { apiKey: API_KEY, baseUrl: `https://127.0.0.1:${listener.port}` },
			});
			figures.baseUrlsAccepted++;
			expect(listener.connections()).toBeGreaterThan(before);
			expect(error).toBeUndefined();
			expect(output?.[0].json.message).toBe('success');
			expect(listener.requests).toHaveLength(1);
		});
	});

	describe('https on loopback names is accepted', () => {
		let sandbox: Sandbox;
		beforeAll(async () => {
			// '::' takes IPv6 and IPv4 on every loopback address.
			sandbox = await startSandbox({ port: 0, host: '::', apiKey: API_KEY });
		});
		afterAll(async () => sandbox.stop());

		// Not https://[::1]: n8n's request helper checks the certificate against "[::1]" with the
		// brackets, which no certificate can name (ERR_TLS_CERT_ALTNAME_INVALID).
		test.each(['https://127.0.0.1', 'https://localhost'])('%s', async (host) => {
			sandbox.reset();
			const { output, error } = await runNode({
				parameters: SMS,
				credentials: { apiKey: API_KEY, baseUrl: `${host}:${sandbox.port}` },
			});
			figures.baseUrlsAccepted++;
			expect(error).toBeUndefined();
			expect(output?.[0].json.message).toBe('success');
			figures.requestsReceived += sandbox.stats().received;
			expect(sandbox.stats().delivered).toBe(1);
		});
	});
});
