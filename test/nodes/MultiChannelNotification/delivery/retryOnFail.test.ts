import { createServer } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

/**
 * n8n's node setting Retry On Fail runs the whole node again on the same items (n8n waits 1 s
 * between tries). Without the node's memory of earlier tries, every delivered item would be sent
 * again. Three SMS items, all in flight at once (Concurrency 3), the sandbox's first answer faulty.
 */
const items = [0, 1, 2].map((index) => ({ phone: `+62812345678${index}0`, text: `Message ${index}` }));

function parameters(options: Record<string, unknown> = {}): INodeParameters {
	return {
		resource: 'sms',
		operation: 'send',
		phoneNumber: '={{ $json.phone }}',
		message: '={{ $json.text }}',
		options: { concurrency: 3, ...options },
	} as INodeParameters;
}

describe('Retry On Fail', () => {
	test('a 429 past Rate Limit Max Wait: the next try sends only the refused item; the others are not sent again', async () => {
		sandbox().injectFault({ kind: 'status', status: 429, retryAfter: '1' });
		const result = await runNode({
			parameters: parameters({ rateLimitMaxWait: 0 }),
			items,
			credentials: credentialsFor(sandbox()),
			retryOnFail: { maxTries: 2 },
		});
		expect(result.error).toBeUndefined();
		const stats = sandbox().stats();
		expect(stats.received).toBe(4); // 3 in the first try, the refused one in the second
		expect(stats.delivered).toBe(3);
		expect(stats.duplicateBodies).toBe(0);
		const ids = (result.output ?? []).map((item) => (item.json.data as { id: string }).id);
		expect(new Set(ids).size).toBe(3);
		expect(ids.sort()).toEqual(sandbox().deliveries().map((request) => request.id).sort());
		expect((result.output ?? []).map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	test('a 500 after delivery: no try sends anything again, and the error says why', async () => {
		sandbox().injectFault({ kind: 'status', status: 500, afterDelivery: true });
		const result = await runNode({
			parameters: parameters(),
			items,
			credentials: credentialsFor(sandbox()),
			retryOnFail: { maxTries: 3 },
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.description).toContain('may or may not have been delivered');
		expect(result.error?.description).toContain('Retry On Fail did not send this item again');
		const stats = sandbox().stats();
		expect(stats.received).toBe(3);
		expect(stats.delivered).toBe(3);
		expect(stats.duplicateBodies).toBe(0);
	});

	test("the error of an item not sent again keeps the HTTP code of the earlier try's answer", async () => {
		sandbox().injectFault({ kind: 'status', status: 503, afterDelivery: true });
		const result = await runNode({
			parameters: parameters({ concurrency: 1 }),
			items: items.slice(0, 1),
			credentials: credentialsFor(sandbox()),
			retryOnFail: { maxTries: 2 },
		});
		expect(result.error?.description).toContain('Retry On Fail did not send this item again');
		expect(result.error?.httpCode).toBe('503');
		expect(sandbox().stats().received).toBe(1);
	});

	test('a message that changed between tries is a new message: sent again after a 500', async () => {
		// n8n waits 1 s between tries, so $now differs from one try to the next.
		sandbox().injectFault({ kind: 'status', status: 500, afterDelivery: true });
		const result = await runNode({
			parameters: { ...parameters({ concurrency: 1 }), message: '={{ "at " + $now.toMillis() }}' },
			items: items.slice(0, 1),
			credentials: credentialsFor(sandbox()),
			retryOnFail: { maxTries: 2 },
		});
		expect(result.error).toBeUndefined();
		const bodies = sandbox().deliveries().map((request) => (request.body as { message: string }).message);
		expect(bodies).toHaveLength(2);
		expect(new Set(bodies).size).toBe(2);
	});

	test('with Continue On Fail (n8n retries while the first output item is an error): nothing is sent twice', async () => {
		sandbox().injectFault({ kind: 'status', status: 500, afterDelivery: true });
		const result = await runNode({
			parameters: parameters({ concurrency: 1 }),
			items,
			credentials: credentialsFor(sandbox()),
			retryOnFail: { maxTries: 2 },
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		const output = result.output ?? [];
		expect(output).toHaveLength(3);
		expect(output[0].json.description).toContain('Retry On Fail did not send this item again');
		expect(output[1].json.message).toBe('success');
		expect(output[2].json.message).toBe('success');
		const stats = sandbox().stats();
		expect(stats.received).toBe(3);
		expect(stats.duplicateBodies).toBe(0);
	});

	test('no connection at all is not a possible delivery: the error says nothing was sent', async () => {
		// A port that was free a moment ago: nothing listens there.
		const closed = await new Promise<number>((resolve) => {
			const server = createServer().listen(0, '127.0.0.1', () => {
				const { port } = server.address() as { port: number };
				server.close(() => resolve(port));
			});
		});
		const result = await runNode({
			parameters: parameters(),
			items: items.slice(0, 1),
			credentials: { ...credentialsFor(sandbox()), baseUrl: `https://127.0.0.1:${closed}` },
		});
		expect(result.error?.message).toContain('Could not reach the service');
		expect(result.error?.description).toContain('Nothing was sent for this item.');
		expect(result.error?.description).not.toContain('may or may not have been delivered');
	});
});
