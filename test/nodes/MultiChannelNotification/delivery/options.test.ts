import type { INodeParameters } from 'n8n-workflow';

import { retryAfterMs } from '../../../../nodes/MultiChannelNotification/delivery/scheduler';
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

const bulkSms = (options: INodeParameters): INodeParameters => ({
	resource: 'sms',
	operation: 'send',
	phoneNumber: '={{ $json.phone }}',
	message: '={{ "message " + $json.n }}',
	options,
});

const items = (count: number) =>
	Array.from({ length: count }, (_, n) => ({ n, phone: `+62812${String(n).padStart(8, '0')}` }));

describe('Concurrency and batches', () => {
	test.each([1, 5, 20])('concurrency %i: in flight at most that many; output in input order, paired', async (concurrency) => {
		// No answer until `concurrency` requests are open at once (or the last one arrived): a node
		// that never opens that many hangs here and fails on the test's time limit.
		sandbox().holdAnswers({ inFlight: concurrency, received: 30 });
		const { output, error } = await runNode({
			parameters: bulkSms({ concurrency }),
			items: items(30),
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(sandbox().stats().maxInFlight).toBe(concurrency);
		expect(output?.map((item) => item.pairedItem)).toEqual(items(30).map((_, item) => ({ item })));
		expect(output?.map((item) => item.json.phoneNumber)).toEqual(items(30).map((item) => item.phone));
		// Each output item carries the answer to its own request.
		for (const item of output ?? []) {
			const request = sandbox().requests.find((candidate) => candidate.id === (item.json.data as { id: string }).id);
			expect((request?.body as { phone_number: string }).phone_number).toBe(item.json.phoneNumber);
		}
		expect(sandbox().stats().duplicateBodies).toBe(0);
	});

	test('batch interval: batches of Concurrency items with the pause between them', async () => {
		const { error } = await runNode({
			parameters: bulkSms({ concurrency: 2, batchInterval: 300 }),
			items: items(6),
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		const arrivals = sandbox().requests.map((request) => request.receivedAt);
		expect(arrivals).toHaveLength(6);
		expect(sandbox().stats().maxInFlight).toBeLessThanOrEqual(2);
		// Batch k starts no earlier than the pause after batch k-1 (sleep never wakes early).
		expect(arrivals[2] - arrivals[1]).toBeGreaterThanOrEqual(299);
		expect(arrivals[4] - arrivals[3]).toBeGreaterThanOrEqual(299);
	});
});

describe('HTTP 429 handling', () => {
	test('Retry-After in seconds: waits, sends the same request again, succeeds', async () => {
		sandbox().injectFault({ kind: 'status', status: 429, message: 'slow down', retryAfter: '1' });
		const { output, error } = await runNode({
			parameters: bulkSms({ concurrency: 1 }),
			items: items(1),
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		const [first, second] = sandbox().requests;
		expect(sandbox().requests).toHaveLength(2);
		expect(first.status).toBe(429);
		expect(second.status).toBe(200);
		expect(second.rawBody).toBe(first.rawBody);
		expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(999);
		expect(output?.[0].json.message).toBe('success');
		expect(sandbox().deliveries()).toHaveLength(1);
	});

	test('Retry-After as an HTTP date is honoured too', async () => {
		// The date is 2 s after the refused request arrived, rounded down to the second by its
		// format: more than 1 s after that request, however long the run took to send it.
		sandbox().injectFault({ kind: 'status', status: 429, retryAfterDateInMs: 2000 });
		const { error } = await runNode({ parameters: bulkSms({}), items: items(1), credentials: credentialsFor(sandbox()) });

		expect(error).toBeUndefined();
		const [first, second] = sandbox().requests;
		expect(sandbox().requests).toHaveLength(2);
		const date = Math.floor((first.receivedAt + 2000) / 1000) * 1000;
		// The retry waits for the date (one millisecond of slack: the node's timer and the sandbox's
		// clock each round to whole milliseconds).
		expect(second.receivedAt).toBeGreaterThanOrEqual(date - 1);
		expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1000);
	});

	test('without Retry-After: backs off 1 s, 2 s …; gives up past Rate Limit Max Wait with a clear error', async () => {
		sandbox().injectFault({ kind: 'status', status: 429, message: 'rate limited', times: 3 });
		const { error } = await runNode({
			parameters: bulkSms({ rateLimitMaxWait: 4 }),
			items: items(1),
			credentials: credentialsFor(sandbox()),
		});

		// Waits 1 s, then 2 s (3 s in all); a third wait of 4 s would pass the 4 s budget.
		expect(sandbox().requests).toHaveLength(3);
		const gaps = [1, 2].map((i) => sandbox().requests[i].receivedAt - sandbox().requests[i - 1].receivedAt);
		expect(gaps[0]).toBeGreaterThanOrEqual(999);
		expect(gaps[1]).toBeGreaterThanOrEqual(1999);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('429');
		expect(error?.message).toBe('The service answered HTTP 429: rate limited');
		expect(error?.description).toContain('past Options → Rate Limit Max Wait (Seconds) (4). Nothing was delivered for this item.');
		expect(sandbox().deliveries()).toHaveLength(0);
	});

	test('giving up says how long the item waited in all, in seconds, after the service\'s own description of its 429', async () => {
		sandbox().injectFault({ kind: 'status', status: 429, message: 'rate limited', times: 2 });
		const { error } = await runNode({ parameters: bulkSms({ rateLimitMaxWait: 1 }), items: items(1), credentials: credentialsFor(sandbox()) });
		const ended = Date.now();

		// Waited 1 s, resent, refused again: the next backoff (2 s) would pass the 1 s budget.
		expect(sandbox().requests).toHaveLength(2);
		expect(error?.description).toMatch(/^The service is rate limiting\./);
		const [, waited, asked] = /The item waited (\d+) s in all and the service asked for (\d+) s more/.exec(error?.description ?? '') ?? [];
		expect(Number(asked)).toBe(2);
		// At least the 1 s backoff the node slept; at most the time from the first request to the run's end.
		expect(Number(waited)).toBeGreaterThanOrEqual(1);
		expect(Number(waited)).toBeLessThanOrEqual(Math.ceil((ended - sandbox().requests[0].receivedAt) / 1000));
	});

	test('a Retry-After longer than Rate Limit Max Wait is not waited for', async () => {
		sandbox().injectFault({ kind: 'status', status: 429, message: 'quota', retryAfter: '3600' });
		const { error } = await runNode({ parameters: bulkSms({}), items: items(1), credentials: credentialsFor(sandbox()) });

		expect(sandbox().requests).toHaveLength(1);
		expect(error?.description).toContain('the service asked for 3600 s more');
	});

	test('Rate Limit Max Wait 0: a 429 is never resent', async () => {
		sandbox().injectFault({ kind: 'status', status: 429, message: 'quota', retryAfter: '1' });
		const { error } = await runNode({
			parameters: bulkSms({ rateLimitMaxWait: 0 }),
			items: items(1),
			credentials: credentialsFor(sandbox()),
		});

		expect(sandbox().requests).toHaveLength(1);
		expect(error?.httpCode).toBe('429');
	});

	test('retryAfterMs reads seconds and dates; anything else leaves the wait to the scheduler', () => {
		const now = Date.parse('2026-11-21T10:00:00Z');
		expect(retryAfterMs('2', now)).toBe(2000);
		expect(retryAfterMs('0.5', now)).toBe(500);
		expect(retryAfterMs('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000);
		expect(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
		expect(retryAfterMs(undefined, now)).toBeUndefined();
		expect(retryAfterMs('soon', now)).toBeUndefined();
	});
});

/**
 * Only the unanswered request needs the Timeout option, and it must outlast the https handshake
 * and the request reaching the sandbox on a loaded machine (the request is asserted to have
 * arrived); the other faults answer at once and keep the default, so a slow machine never turns
 * their answer into a timeout.
 */
const NO_ANSWER_TIMEOUT_MS = 3000;

describe('Nothing but a 429 is ever resent', () => {
	test.each([
		['a 500', { kind: 'status' as const, status: 500, message: 'boom' }, 'The service answered HTTP 500: boom'],
		['a 503 after delivering', { kind: 'status' as const, status: 503, afterDelivery: true }, 'The service answered HTTP 503'],
		['a reset connection', { kind: 'reset' as const }, 'Could not reach the service'],
		['no answer', { kind: 'timeout' as const }, `The service did not answer within ${NO_ANSWER_TIMEOUT_MS} ms`],
		['a non-JSON answer', { kind: 'nonJson' as const, status: 502 }, 'The service answered HTTP 502: a non-JSON answer'],
	])('%s: one request, a NodeApiError, no retry', async (_name, fault, message) => {
		sandbox().injectFault(fault);
		const { error } = await runNode({
			parameters: bulkSms(fault.kind === 'timeout' ? { timeout: NO_ANSWER_TIMEOUT_MS } : {}),
			items: items(1),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.message).toMatch(new RegExp(`^${message}`));
		expect(error?.name).toBe('NodeApiError');
		expect(error?.description).toContain('may or may not have been delivered');
		expect(sandbox().requests).toHaveLength(1);
	});

	test('a non-JSON answer: the title stays short, the body is in the description', async () => {
		sandbox().injectFault({ kind: 'nonJson', status: 502 });
		const { error } = await runNode({ parameters: bulkSms({}), items: items(1), credentials: credentialsFor(sandbox()) });

		expect(error?.message).toBe('The service answered HTTP 502: a non-JSON answer');
		expect(error?.description).toContain('Service answer (not JSON): <html>');
	});

	/** A document to each item's number, one after another; the service refuses one whose chat has not started. */
	const documentOneByOne: INodeParameters = {
		resource: 'chatMessage',
		operation: 'sendMedia',
		from: '+6281100000000',
		to: '={{ $json.to }}',
		mediaType: 'document',
		mediaUrl: 'https://cdn.example.com/invoice.pdf',
		options: { concurrency: 1 },
	};

	test('a failure after one item was sent names that one item', async () => {
		sandbox().startChat('+6281234567890');
		const { error } = await runNode({
			parameters: documentOneByOne,
			items: [{ to: '+6281234567890' }, { to: '+6289999999999' }],
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.description).toContain('Items already sent in this run: 0. Do not send them again');
	});

	test('a failure mid-run stops sending and names the items already sent', async () => {
		// The service refuses media to a number that has not started the chat: item 2 here.
		sandbox().startChat('+6281234567890');
		const { error } = await runNode({
			parameters: documentOneByOne,
			items: [
				{ to: '+6281234567890' },
				{ to: '+6281234567890' },
				{ to: '+6289999999999' },
				{ to: '+6281234567890' },
				{ to: '+6281234567890' },
			],
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('403');
		expect(error?.description).toContain('Items already sent in this run: 0–1. Do not send them again');
		expect(sandbox().requests).toHaveLength(3);
		expect(sandbox().deliveries()).toHaveLength(2);
	});
});
