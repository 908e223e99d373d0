/**
 * No redirect is ever followed. Following one would repeat the POST (a second notification) at
 * an address the user never configured, with the API key in its Authorization header. A 3xx of
 * any kind — same origin, another server, https → http, a loop — fails the item with a
 * NodeApiError carrying the status; the error names where the service pointed (without its
 * query string, which may hold tokens), says the request was not repeated there, and points at
 * the Base URL. The first server sees exactly one request; the target sees nothing at all.
 */
import { errorText, expectNoKey, expectNotReportedSent, SPECIAL_KEY, smsParameters, useHostileService } from '../../../helpers/boundary';
import type { UsedService } from '../../../helpers/boundary';
import type { RunNodeResult } from '../../../helpers/engine';
import { runNode } from '../../../helpers/engine';
import { redirectAnswer } from '../../../helpers/hostileService';

const STATUSES = [301, 302, 303, 307, 308];
const QUERY = 'token=redirect-secret-5531';

const https = useHostileService();
// Plain http, only as a downgrade target that must see no connection.
const httpTarget = useHostileService({ insecure: true });
const httpsTarget = useHostileService();

async function send(service: UsedService, continueOnFail = false): Promise<RunNodeResult> {
	return await runNode({
		parameters: smsParameters(),
		credentials: { apiKey: SPECIAL_KEY, baseUrl: service.url },
		continueOnFail,
	});
}

/** The item failed because of the redirect, which was not followed. */
function expectRefusedRedirect(
	result: RunNodeResult,
	{ status, target, first, others }: { status: number; target: string; first: UsedService; others: UsedService[] },
): void {
	const { message, description } = errorText(result);
	// One summary first, so a failure shows everything that happened at once.
	expect({
		error: result.error?.name,
		httpCode: result.error?.httpCode,
		outputItems: result.output?.length ?? 0,
		requestsAtFirstServer: first.requests.length,
		requestsAtTarget: others.map((other) => other.requests.length),
		connectionsToTarget: others.map((other) => other.connections()),
	}).toEqual({
		error: 'NodeApiError',
		httpCode: String(status),
		outputItems: 0,
		requestsAtFirstServer: 1,
		requestsAtTarget: others.map(() => 0),
		connectionsToTarget: others.map(() => 0),
	});
	expect(message).toMatch(/redirect/i);
	expect(message).toContain(String(status));
	expect(description).toContain(target);
	expect(description).toMatch(/not (been )?(repeated|re-?sent|sent again)/i);
	expect(description).toMatch(/Base URL/);
	expect(JSON.stringify([result.output, result.error, message, description])).not.toContain(QUERY);
	expectNotReportedSent(result, false);
	expectNoKey(result, SPECIAL_KEY);
}

test.each(STATUSES)('%i to the same origin: not followed, an error naming the target', async (status) => {
	https.answer = () => redirectAnswer(status, `${https.url}/v2/sms/notification?${QUERY}`);
	const result = await send(https);
	expectRefusedRedirect(result, { status, target: `${https.url}/v2/sms/notification`, first: https, others: [httpsTarget] });
});

test.each(STATUSES)('%i to another server: not followed, the other server sees no connection', async (status) => {
	https.answer = () => redirectAnswer(status, `${httpsTarget.url}/v1/sms/notification?${QUERY}`);
	const result = await send(https);
	expectRefusedRedirect(result, { status, target: `${httpsTarget.url}/v1/sms/notification`, first: https, others: [httpsTarget] });
});

test('a redirect loop (Location is the request itself): one request, then an error', async () => {
	https.answer = () => redirectAnswer(302, `${https.url}/v1/sms/notification?${QUERY}`);
	const result = await send(https);
	expectRefusedRedirect(result, { status: 302, target: `${https.url}/v1/sms/notification`, first: https, others: [httpsTarget] });
});

test('https → http downgrade: not followed, the plain-http server sees no connection', async () => {
	https.answer = () => redirectAnswer(307, `${httpTarget.url}/v1/sms/notification?${QUERY}`);
	const result = await send(https);
	expectRefusedRedirect(result, { status: 307, target: `${httpTarget.url}/v1/sms/notification`, first: https, others: [httpTarget, httpsTarget] });
});

test('a relative Location: not followed, the error names its path', async () => {
	https.answer = () => redirectAnswer(308, `/moved/sms/notification?${QUERY}`);
	const result = await send(https);
	expectRefusedRedirect(result, { status: 308, target: '/moved/sms/notification', first: https, others: [httpsTarget] });
});

test('continue on fail: the redirected item is an error item, never a success', async () => {
	https.answer = () => redirectAnswer(302, `${httpsTarget.url}/v1/sms/notification?${QUERY}`);
	const result = await send(https, true);

	expectNotReportedSent(result, true);
	const item = result.output?.[0].json ?? {};
	expect(item.httpCode).toBe('302');
	expect(String(item.error)).toMatch(/redirect/i);
	expect(String(item.description)).toContain(`${httpsTarget.url}/v1/sms/notification`);
	expect(JSON.stringify(result.output)).not.toContain(QUERY);
	expect(https.requests).toHaveLength(1);
	expect(httpsTarget.requests).toHaveLength(0);
	expect(httpsTarget.connections()).toBe(0);
	expectNoKey(result, SPECIAL_KEY);
});
