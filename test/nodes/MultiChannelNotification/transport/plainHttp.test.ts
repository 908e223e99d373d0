/**
 * The credential's Allow Plain HTTP switch, on a service that speaks plain http (the sandbox and
 * a misbehaving service, both on 127.0.0.1).
 * - Off (the default, and a credential saved before the switch existed): an http:// Base URL is
 *   refused before any connection, with an error that names the switch; Dry Run too.
 * - On: sends are delivered over http with the exact body and the key; Dry Run shows the http
 *   request and sends nothing.
 * - On, the rest of the boundary holds as over https: a redirect is not followed and its target
 *   sees no connection, an answer past 1 MiB is abandoned, a service that never answers fails
 *   within the Timeout, and the key appears in nothing the node shows.
 */
import {
	boundaryHolds,
	errorText,
	expectDeliveredSms,
	expectNoKey,
	expectNotReportedSent,
	SPECIAL_KEY,
	smsParameters,
	useHostileService,
} from '../../../helpers/boundary';
import type { RunNodeResult } from '../../../helpers/engine';
import { runNode } from '../../../helpers/engine';
import { useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox({ plainHttp: true });
const http = useHostileService({ insecure: true });
const httpTarget = useHostileService({ insecure: true });

async function send(
	baseUrl: string,
	{ allowPlainHttp, dryRun = false, timeout = 10000, apiKey = SPECIAL_KEY }: { allowPlainHttp?: boolean; dryRun?: boolean; timeout?: number; apiKey?: string },
): Promise<RunNodeResult> {
	return await runNode({
		parameters: smsParameters({ timeout, ...(dryRun ? { dryRun: true } : {}) }),
		credentials: { apiKey, baseUrl, ...(allowPlainHttp === undefined ? {} : { allowPlainHttp }) },
	});
}

test('the sandbox under test speaks plain http', () => {
	expect(sandbox().url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	expect(http.url).toMatch(/^http:\/\//);
});

describe('Allow Plain HTTP off', () => {
	test.each([
		['not set (a credential saved before the switch existed)', undefined],
		['off', false],
	])('%s: an http:// Base URL is refused before any connection, naming the switch', async (_name, allowPlainHttp) => {
		const result = await send(http.url, { allowPlainHttp });

		expect({ error: result.error?.name, connections: http.connections(), requests: http.requests.length }).toEqual({
			error: 'NodeOperationError',
			connections: 0,
			requests: 0,
		});
		const { message, description } = errorText(result);
		expect(message).toContain(`the Base URL "${http.url}" must use https://`);
		expect(description).toContain('turn on Allow Plain HTTP in the credential');
		expect(description).toContain('Nothing was sent');
		expectNotReportedSent(result, false);
		expectNoKey(result, SPECIAL_KEY);
	});

	test('Dry Run is refused the same way: it shows only what would really be sent', async () => {
		const result = await send(http.url, { allowPlainHttp: false, dryRun: true });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(errorText(result).description).toContain('Allow Plain HTTP');
		expect(http.connections()).toBe(0);
	});
});

describe('Allow Plain HTTP on', () => {
	test('a send is delivered over http: the exact request, the key as Authorization, the output item', async () => {
		const result = await send(sandbox().url, { allowPlainHttp: true, apiKey: sandbox().apiKey });

		expectDeliveredSms(result, sandbox());
	});

	test('Dry Run outputs the http request and sends nothing', async () => {
		const result = await send(`${sandbox().url}/v1`, { allowPlainHttp: true, dryRun: true, apiKey: sandbox().apiKey });

		expect(result.error).toBeUndefined();
		expect(result.output?.[0].json).toMatchObject({
			dryRun: true,
			request: { method: 'POST', url: `${sandbox().url}/v1/sms/notification`, headers: { Authorization: '***' } },
		});
		expect(sandbox().requests).toHaveLength(0);
	});

	test('ftp:// and other schemes are still refused', async () => {
		const result = await send(http.url.replace(/^http:/, 'ftp:'), { allowPlainHttp: true });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(errorText(result).message).toMatch(/Base URL .* must use https:\/\//);
		expect(http.connections()).toBe(0);
	});

	boundaryHolds(http, httpTarget, async (baseUrl, timeout) => await send(baseUrl, { allowPlainHttp: true, timeout }));
});
