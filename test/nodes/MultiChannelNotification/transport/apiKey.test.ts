/**
 * The API key at the service boundary.
 * - The service echoes the key (raw, percent-encoded, JSON-escaped, HTML-escaped) in a success
 *   body, in an unrelated header, and in JSON and non-JSON error bodies: no form of it reaches
 *   the output or the error; it is replaced by `***`. A key under 8 characters is masked only
 *   where it stands alone, so it does not mangle words; of a key of 16+ characters any 12
 *   consecutive characters are masked, so a service that cuts the key off cannot leak its start.
 * - A key that cannot be sent as a header value as typed (inner space, line break, NUL, tab,
 *   non-ASCII) fails as a credential problem before any connection; surrounding spaces are
 *   trimmed and the key is sent.
 * The key used has URL-, HTML- and JSON-special characters, so each encoding differs.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	errorText,
	expectNoKey,
	expectNotReportedSent,
	keyEncodings,
	SPECIAL_KEY,
	smsParameters,
	useHostileService,
} from '../../../helpers/boundary';
import type { UsedService } from '../../../helpers/boundary';
import { runNode } from '../../../helpers/engine';
import type { RunNodeResult } from '../../../helpers/engine';
import type { HostileAnswer } from '../../../helpers/hostileService';

const https = useHostileService();

/** raw, encodeURIComponent, JSON-escaped and HTML-escaped forms of the key. */
const ECHOES = Object.entries(keyEncodings(SPECIAL_KEY)).filter(([form]) => form !== 'HTML-escaped (&#x27;)');

async function send(service: UsedService, { apiKey = SPECIAL_KEY, continueOnFail = false } = {}): Promise<RunNodeResult> {
	return await runNode({
		parameters: smsParameters(),
		credentials: { apiKey, baseUrl: service.url },
		continueOnFail,
	});
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HostileAnswer => ({
	status,
	headers: { 'content-type': 'application/json', ...headers },
	body: JSON.stringify(body),
});

describe('the service echoes the key in a success answer', () => {
	test.each(ECHOES)('%s, in the body and a header: sent, with the echo masked as ***', async (_form, echo) => {
		https.answer = () => json(200, { message: 'success', data: { id: 'x', echo } }, { 'x-echo': echo });
		const result = await send(https);

		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(1);
		const item = result.output?.[0].json ?? {};
		expect(item.message).toBe('success');
		expect((item.data as IDataObject).id).toBe('x');
		expect(String((item.data as IDataObject).echo)).toContain('***');
		expectNoKey(result, SPECIAL_KEY);
		expect(https.requests).toHaveLength(1);
		expect(https.requests[0].headers.authorization).toBe(SPECIAL_KEY);
	});
});

describe('the service echoes the key in an error answer', () => {
	const bodies: Array<[string, (echo: string) => HostileAnswer, boolean]> = [
		['a JSON 401', (echo) => json(401, { message: `invalid key ${echo} for this account`, key: echo }, { 'x-echo': echo }), true],
		['a non-JSON 502 page', (echo) => ({ status: 502, headers: { 'content-type': 'text/html', 'x-echo': echo }, body: `<html><body>bad key ${echo} here</body></html>` }), false],
	];
	const cases = bodies.flatMap(([kind, answer, isJson]) =>
		ECHOES.map(([form, echo]) => [`${kind}, ${form}`, answer, echo, isJson] as const),
	);

	test.each(cases)('%s: an error without the key, in both error modes', async (_name, answer, echo, isJson) => {
		https.answer = () => answer(echo);
		for (const continueOnFail of [false, true]) {
			const result = await send(https, { continueOnFail });
			expectNotReportedSent(result, continueOnFail);
			if (!continueOnFail) expect(result.error?.name).toBe('NodeApiError');
			// The service's own message is shown, with the key replaced.
			if (isJson) expect(errorText(result).message).toContain('invalid key *** for this account');
			expectNoKey(result, SPECIAL_KEY);
		}
		expect(https.requests).toHaveLength(2);
	});

	test('a JSON 401 with the raw key only in its message: raw key masked', async () => {
		https.answer = () => json(401, { message: `invalid key ${SPECIAL_KEY} for this account` });
		const result = await send(https);

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('invalid key *** for this account');
		expectNoKey(result, SPECIAL_KEY);
		expect(https.requests).toHaveLength(1);
	});

	test('a key under 8 characters is masked where it stands alone, not inside a word', async () => {
		https.answer = () => json(401, { message: 'abcdef is unknown; key abc refused' });
		const result = await send(https, { apiKey: 'abc' });

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('abcdef is unknown; key *** refused');
		expectNoKey(result, 'abc');
		expect(https.requests[0].headers.authorization).toBe('abc');
	});

	test('a key cut off by the service (its first 14 characters, then …) is masked', async () => {
		const cut = `${SPECIAL_KEY.slice(0, 14)}…`;
		https.answer = () => json(500, { message: `upstream refused key ${cut} (truncated)` });
		const result = await send(https);

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('***');
		expect(result.error?.message).not.toContain(SPECIAL_KEY.slice(0, 12));
		expectNoKey(result, SPECIAL_KEY);
	});
});

describe('a key that cannot be sent as typed', () => {
	const BAD_KEYS: Array<[string, string]> = [
		['an inner space', 'good-key-part more-key-part'],
		['a line break', 'good-key-part\r\nX-Injected: yes'],
		['a NUL', 'good-key-part\u0000more-key-part'],
		['a tab', 'good-key-part\tmore-key-part'],
		['a non-ASCII character', 'ké'],
	];

	test.each(BAD_KEYS)('%s: a credential problem, nothing sent, no connection', async (_name, apiKey) => {
		const result = await send(https, { apiKey });
		const { message, description } = errorText(result);

		expect({ error: result.error?.name, connections: https.connections(), requests: https.requests.length }).toEqual({
			error: 'NodeOperationError',
			connections: 0,
			requests: 0,
		});
		expect(message).toMatch(/^Credential problem/);
		expect(`${message} ${description}`).toMatch(/nothing was sent/i);
		expectNotReportedSent(result, false);
		expectNoKey(result, apiKey);
	});

	test('with continue on fail every item is an error item, no connection', async () => {
		const result = await runNode({
			parameters: smsParameters(),
			items: [{ n: 0 }, { n: 1 }],
			credentials: { apiKey: 'good-key-part more-key-part', baseUrl: https.url },
			continueOnFail: true,
		});

		expectNotReportedSent(result, true, 2);
		result.output?.forEach((item) => expect(String(item.json.error)).toMatch(/^Credential problem/));
		expect(https.connections()).toBe(0);
		expect(https.requests).toHaveLength(0);
	});

	test('leading and trailing spaces are trimmed and the key is sent', async () => {
		const result = await send(https, { apiKey: '  trimmed-key-0123456789  ' });

		expect(result.error).toBeUndefined();
		expect(result.output?.[0].json.message).toBe('success');
		expect(https.requests).toHaveLength(1);
		// Node's parser strips header whitespace anyway; the bytes on the wire show what was sent.
		expect(https.received()).toMatch(/\r\nauthorization: trimmed-key-0123456789\r\n/i);
	});
});
