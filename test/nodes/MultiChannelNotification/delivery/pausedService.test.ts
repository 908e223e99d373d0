/**
 * Through n8n's engine: a 429 to one execution pauses every send to the service (the shared pace
 * of delivery/pace.ts), and another execution sharing the pace keeps to its own Rate Limit Max
 * Wait. The scheduler's timing is asserted on a virtual clock
 * (scheduler.sharedPause.test.ts); here, the error the user sees and that nothing was sent. A
 * second credential to the same Base URL has a pace of its own; an n8n without the execution's
 * cancel signal still sends.
 */
import { ExecuteContext } from 'n8n-core';
import type { INode } from 'n8n-workflow';

import { toolResultForError } from '../../../../nodes/MultiChannelNotification/delivery/toolResult';
import { pausedError } from '../../../../nodes/MultiChannelNotification/helpers/errors';
import { runNode } from '../../../helpers/engine';
import { testCredentialId } from '../../../helpers/isolation';
import { pauseTaken } from '../../../helpers/pauseTaken';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';
import { withoutContextCall } from '../../../helpers/withoutContextCall';

const sandbox = useSandbox();

const sms = (phone: string, options: Record<string, number> = {}) => ({
	resource: 'sms',
	operation: 'send',
	phoneNumber: phone,
	message: 'paused',
	options,
});


test("execution B (Rate Limit Max Wait 1 s) while A's 429 pauses the service for an hour: B fails at once, naming the option, and sends nothing; A, stopped, was sent once", async () => {
	const credentials = credentialsFor(sandbox());
	// An hour, not seconds: B must start inside the pause however slow this machine is.
	sandbox().injectFault({ kind: 'status', status: 429, message: 'too many requests', retryAfter: '3600' });
	const stop = new AbortController();
	const a = runNode({ parameters: sms('+6281300000001', { rateLimitMaxWait: 7200 }), credentials, stop: stop.signal });
	await pauseTaken(credentials.baseUrl);
	const b = await runNode({ parameters: sms('+6281300000002', { rateLimitMaxWait: 1 }), credentials });

	expect(b.output).toBeUndefined();
	// The service's refusal (of another request), as an item refused on its own 429 is reported.
	expect(b.error?.name).toBe('NodeApiError');
	expect(b.error?.message).toBe("Item 0: not sent: the service's rate limit pauses every send");
	expect(b.error?.description).toMatch(/HTTP 429.*The item waited 0 s in all and the service asked for \d+ s more, past Options → Rate Limit Max Wait \(Seconds\) \(1\)\. Nothing was delivered for this item\.$/s);
	const phones = sandbox().requests.map((request) => (request.body as { phone_number: string }).phone_number);
	expect(phones).toEqual(['+6281300000001']);

	stop.abort();
	expect((await a).run.status).toBe('canceled');
	expect(sandbox().stats().received).toBe(1);
});

/** Stopped after each test, passed or not: an execution waiting out an hour never outlives its test. */
let stopAfterTest = new AbortController();
afterEach(() => {
	stopAfterTest.abort();
	stopAfterTest = new AbortController();
});

test("another credential to the same Base URL is another service: A's 429 pausing its credential's sends does not hold B's", async () => {
	const credentials = credentialsFor(sandbox());
	sandbox().injectFault({ kind: 'status', status: 429, message: 'too many requests', retryAfter: '3600' });
	const stop = stopAfterTest;
	const a = runNode({ parameters: sms('+6281300000004', { rateLimitMaxWait: 7200 }), credentials, stop: stop.signal });
	// Were the pace not A's credential's own, it would never pause: the test then fails on its time limit.
	await pauseTaken(credentials.baseUrl, stop.signal);
	// The same credential type, name and Base URL; only the credential's id differs.
	const b = await runNode({ parameters: sms('+6281300000005', { rateLimitMaxWait: 1 }), credentials, credentialId: `${testCredentialId()} (another)` });

	expect(b.error).toBeUndefined();
	expect(b.output?.map((item) => item.json.message)).toEqual(['success']);
	const phones = sandbox().requests.map((request) => (request.body as { phone_number: string }).phone_number);
	expect(phones).toEqual(['+6281300000004', '+6281300000005']);

	stop.abort();
	expect((await a).run.status).toBe('canceled');
});

test('Stop while the item waits out a 1-hour Retry-After: the execution ends cancelled, the item not sent again, no timer of the node left running', async () => {
	const credentials = credentialsFor(sandbox());
	sandbox().injectFault({ kind: 'status', status: 429, message: 'too many requests', retryAfter: '3600' });
	const stop = new AbortController();
	const run = runNode({ parameters: sms('+6281300000003', { rateLimitMaxWait: 7200 }), credentials, stop: stop.signal });
	await pauseTaken(credentials.baseUrl);
	stop.abort();
	// Before, the node noticed Stop only when the hour was over: this await outlived the test's timeout.
	const { run: execution } = await run;

	expect(execution.status).toBe('canceled');
	expect(sandbox().stats().received).toBe(1);
	// The test environment fails a test that leaves a timer running 2 s after it ends (test/environment.js).
});

test('on an n8n whose context offers no cancel signal (older releases), items are still sent', async () => {
	const { output, error } = await withoutContextCall('getExecutionCancelSignal', async () => {
		expect('getExecutionCancelSignal' in ExecuteContext.prototype).toBe(false);
		return await runNode({ parameters: sms('={{ $json.phone }}'), items: [{ phone: '+6281300000006' }, { phone: '+6281300000007' }], credentials: credentialsFor(sandbox()) });
	});

	expect(error).toBeUndefined();
	expect(output?.map((item) => item.json.message)).toEqual(['success', 'success']);
	expect(sandbox().deliveries()).toHaveLength(2);
});

test("as an AI agent's tool result, the held item is one the service refused, not a failure of the workflow's setup", () => {
	const node = { name: 'Send SMS', parameters: {} } as INode;
	const result = toolResultForError(pausedError(node, 0), {});

	expect(result).toMatchObject({ sent: false, outcome: 'rejected' });
	expect(result.message).not.toMatch(/setup/);
});
