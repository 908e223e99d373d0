import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../helpers/engine';
import { dedupStore } from '../../../helpers/dedupStore';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

/** One item's worth of parameters per operation, each a request the sandbox accepts. */
const OPERATIONS: Array<[string, INodeParameters, string]> = [
	[
		'Send Template',
		{
			resource: 'chatMessage',
			operation: 'sendTemplate',
			from: '+6281100000000',
			to: '+6281234567890',
			templateName: 'order_update',
			bodyParameters: { parameter: [{ text: 'A-17' }] },
		},
		'/v1/wa/message',
	],
	[
		'Send Media',
		{
			resource: 'chatMessage',
			operation: 'sendMedia',
			from: '+6281100000000',
			to: '+6281234567890',
			mediaType: 'document',
			mediaUrl: 'https://cdn.example.com/invoice.pdf',
		},
		'/v1/wa/message',
	],
	['Send SMS', { resource: 'sms', operation: 'send', phoneNumber: '+6281234567890', message: 'Hi' }, '/v1/sms/notification'],
	[
		'Send with Failover',
		{
			resource: 'combined',
			operation: 'sendWithFailover',
			from: '+6281100000000',
			to: '+6281234567890',
			templateName: 'otp',
			bodyParameters: { parameter: [{ text: '734201' }] },
			phoneNumber: '+6281234567890',
			message: 'Your code is 734201',
		},
		'/v1/combined/notification/failover',
	],
];

const withOptions = (parameters: INodeParameters, options: IDataObject): INodeParameters => ({
	...parameters,
	options: { ...((parameters.options as IDataObject) ?? {}), ...options } as INodeParameters,
});

describe('Dry Run', () => {
	test.each(OPERATIONS)('%s: nothing is sent; the output holds the exact request a real send posts', async (_name, parameters, path) => {
		sandbox().startChat('+6281234567890');
		const dry = await runNode({
			parameters: withOptions(parameters, { dryRun: true }),
			credentials: credentialsFor(sandbox()),
		});
		expect(dry.error).toBeUndefined();
		expect(sandbox().requests).toHaveLength(0);
		const [item] = dry.output ?? [];
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toMatchObject({
			dryRun: true,
			request: {
				method: 'POST',
				url: `${sandbox().url}${path}`,
				headers: { Authorization: '***', 'Content-Type': 'application/json' },
			},
		});
		expect(JSON.stringify(item.json)).not.toContain(sandbox().apiKey);

		const real = await runNode({ parameters, credentials: credentialsFor(sandbox()) });
		expect(real.error).toBeUndefined();
		expect(sandbox().requests).toHaveLength(1);
		expect((item.json.request as IDataObject).body).toEqual(JSON.parse(sandbox().requests[0].rawBody));
	});

	test('an invalid item is refused exactly as for a real send', async () => {
		const { error } = await runNode({
			parameters: { ...withOptions(OPERATIONS[2][1], { dryRun: true }), phoneNumber: '+6591234567' },
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain('+62');
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Send Once Per Key', () => {
	const bulk = (extra: IDataObject = {}): INodeParameters => ({
		resource: 'sms',
		operation: 'send',
		phoneNumber: '={{ $json.phone }}',
		message: '={{ "order " + $json.order }}',
		options: { dedupeKey: '={{ $json.order }}', concurrency: 1, ...extra } as INodeParameters,
	});
	const orders = (...ids: string[]) => ids.map((order) => ({ order, phone: '+6281234567890' }));

	test('running the same items twice sends each message once; the second run marks them skipped', async () => {
		const first = await runNode({ parameters: bulk(), items: orders('A1', 'A2'), credentials: credentialsFor(sandbox()) });
		expect(first.error).toBeUndefined();
		expect(sandbox().deliveries()).toHaveLength(2);

		const second = await runNode({ parameters: bulk(), items: orders('A1', 'A2', 'A3'), credentials: credentialsFor(sandbox()) });
		expect(second.error).toBeUndefined();
		expect(sandbox().deliveries()).toHaveLength(3);
		expect(second.output?.map((item) => item.json.skipped ?? false)).toEqual([true, true, false]);
		expect(second.output?.[0]).toEqual({
			json: expect.objectContaining({ skipped: true, reason: 'alreadySent', dedupeKey: 'A1' }),
			pairedItem: { item: 0 },
		});
	});

	test('the same key twice in one run is sent once', async () => {
		const { output } = await runNode({ parameters: bulk(), items: orders('B1', 'B1'), credentials: credentialsFor(sandbox()) });
		expect(sandbox().deliveries()).toHaveLength(1);
		expect(output?.[1].json).toMatchObject({
			skipped: true,
			reason: 'sameKeyEarlierInThisRun',
			dedupeKey: 'B1',
			message: 'Not sent: an earlier item in this run has the same key (Options → Send Once Per Key)',
		});
	});

	test('a failed send is not recorded: re-running sends only the item that failed', async () => {
		// Media goes only to users who started the chat: the second recipient has not, yet.
		const media: INodeParameters = {
			resource: 'chatMessage',
			operation: 'sendMedia',
			from: '+6281100000000',
			to: '={{ $json.phone }}',
			mediaType: 'document',
			mediaUrl: 'https://cdn.example.com/invoice.pdf',
			options: { dedupeKey: '={{ $json.order }}', concurrency: 1 } as INodeParameters,
		};
		const items = [
			{ order: 'C1', phone: '+6281234567890' },
			{ order: 'C2', phone: '+6281299999999' },
			{ order: 'C3', phone: '+6281234567890' },
		];
		sandbox().startChat('+6281234567890');
		const first = await runNode({ parameters: media, items, credentials: credentialsFor(sandbox()), continueOnFail: true });
		expect(first.output?.map((item) => (item.json.error ? 'failed' : 'sent'))).toEqual(['sent', 'failed', 'sent']);
		const before = sandbox().requests.length;

		sandbox().startChat('+6281299999999');
		const second = await runNode({ parameters: media, items, credentials: credentialsFor(sandbox()) });
		expect(second.error).toBeUndefined();
		const rerun = sandbox().requests.slice(before);
		expect(rerun.map((request) => (request.body as { to: string }).to)).toEqual(['+6281299999999']);
		expect(second.output?.map((item) => item.json.skipped ?? false)).toEqual([true, false, true]);
	});

	test('items never attempted because the run stopped are not recorded; the one that may have gone out keeps its key', async () => {
		sandbox().injectFault({ kind: 'status', status: 500, message: 'boom' });
		const first = await runNode({ parameters: bulk(), items: orders('D1', 'D2'), credentials: credentialsFor(sandbox()) });
		expect(first.error?.name).toBe('NodeApiError');
		expect(sandbox().requests).toHaveLength(1);

		const second = await runNode({ parameters: bulk(), items: orders('D1', 'D2'), credentials: credentialsFor(sandbox()) });
		expect(second.error).toBeUndefined();
		expect(sandbox().requests.slice(1).map((request) => (request.body as { message: string }).message)).toEqual(['order D2']);
		expect(second.output?.[0].json).toMatchObject({ skipped: true, reason: 'alreadySent', dedupeKey: 'D1' });
	});

	// The service recorded the message, then answered something that does not say so.
	test.each([
		['a 500', { kind: 'status', status: 500, message: 'upstream timeout', afterDelivery: true }],
		['a dropped connection', { kind: 'reset', afterDelivery: true }],
		['a 502 that is not JSON', { kind: 'nonJson', status: 502, afterDelivery: true }],
	] as const)('after %s the key is kept: the re-run skips the item and says it may have been sent', async (_name, fault) => {
		sandbox().injectFault(fault);
		const first = await runNode({ parameters: bulk(), items: orders('M1'), credentials: credentialsFor(sandbox()) });
		expect(first.error?.message).toBeDefined();
		expect(sandbox().deliveries()).toHaveLength(1);

		const second = await runNode({ parameters: bulk(), items: orders('M1'), credentials: credentialsFor(sandbox()) });
		expect(second.error).toBeUndefined();
		expect(sandbox().deliveries()).toHaveLength(1);
		expect(sandbox().requests).toHaveLength(1);
		const skipped = second.output?.[0].json ?? {};
		expect(skipped).toMatchObject({ skipped: true, reason: 'alreadySent', dedupeKey: 'M1' });
		expect(skipped.message).toMatch(/may have/);
		expect(skipped.message).toMatch(/new key/);
	});

	test('a key with spaces around it is the same key', async () => {
		await runNode({ parameters: bulk(), items: orders('K1 '), credentials: credentialsFor(sandbox()) });
		const second = await runNode({ parameters: bulk(), items: orders('K1'), credentials: credentialsFor(sandbox()) });
		expect(sandbox().deliveries()).toHaveLength(1);
		expect(second.output?.[0].json).toMatchObject({ skipped: true, dedupeKey: 'K1' });
	});

	test('20 executions at once with one key send it once', async () => {
		const runs = await Promise.all(
			Array.from({ length: 20 }, async () => await runNode({ parameters: bulk(), items: orders('W1'), credentials: credentialsFor(sandbox()) })),
		);
		expect(runs.map((run) => run.error)).toEqual(Array.from({ length: 20 }, () => undefined));
		expect(sandbox().deliveries()).toHaveLength(1);
		expect(runs.filter((run) => run.output?.[0].json.skipped === true)).toHaveLength(19);
	});

	test('20 executions at once with 20 keys, twice, send 20 messages in all', async () => {
		const wave = async () =>
			await Promise.all(
				Array.from({ length: 20 }, async (_, index) => await runNode({ parameters: bulk(), items: orders(`X${index}`), credentials: credentialsFor(sandbox()) })),
			);
		const first = await wave();
		expect(first.map((run) => run.error)).toEqual(Array.from({ length: 20 }, () => undefined));
		const second = await wave();
		expect(second.map((run) => run.output?.[0].json.skipped)).toEqual(Array.from({ length: 20 }, () => true));
		expect(sandbox().deliveries()).toHaveLength(20);
	});

	test("a store that cannot be read fails the keyed items with the store's message; nothing is sent", async () => {
		dedupStore.failNext = new Error('connection to the database was lost');
		const run = await runNode({ parameters: bulk(), items: orders('S1'), credentials: credentialsFor(sandbox()), continueOnFail: true });
		expect(run.error).toBeUndefined();
		expect(sandbox().requests).toHaveLength(0);
		const failed = run.output?.[0].json ?? {};
		expect(failed.error).toMatch(/Send Once Per Key/);
		expect(`${String(failed.error)} ${String(failed.description)}`).toContain('connection to the database was lost');
		expect(String(failed.description)).toMatch(/Nothing was sent/);
	});

	test('Send Once History Size bounds what is remembered: the oldest key is forgotten', async () => {
		for (const order of ['H1', 'H2', 'H3']) {
			await runNode({ parameters: bulk({ dedupeHistorySize: 2 }), items: orders(order), credentials: credentialsFor(sandbox()) });
		}
		expect([...dedupStore.stores.values()]).toEqual([['H2', 'H3']]);
		const again = await runNode({ parameters: bulk({ dedupeHistorySize: 2 }), items: orders('H1', 'H3'), credentials: credentialsFor(sandbox()) });
		expect(again.output?.map((item) => item.json.skipped ?? false)).toEqual([false, true]);
		expect(sandbox().deliveries()).toHaveLength(4);
	});

	test('by default 10,000 keys are remembered', async () => {
		const items = Array.from({ length: 10_001 }, (_, index) => `k${index}`);
		await runNode({ parameters: bulk({ dryRun: false }), items: orders('first'), credentials: credentialsFor(sandbox()) });
		// n8n cuts the row to the history size whenever it records: record 10,001 more through the store.
		const [name] = [...dedupStore.stores.keys()];
		dedupStore.stores.set(name, [...(dedupStore.stores.get(name) ?? []), ...items]);
		await runNode({ parameters: bulk(), items: orders('last'), credentials: credentialsFor(sandbox()) });
		const row = dedupStore.stores.get(name) ?? [];
		expect(row).toHaveLength(10_000);
		expect(row.at(-1)).toBe('last');
	});

	test('a Send Once History Size that is not a whole number of at least 1 is refused before sending', async () => {
		const run = await runNode({ parameters: bulk({ dedupeHistorySize: 0 }), items: orders('Z1'), credentials: credentialsFor(sandbox()) });
		expect(run.error?.message).toContain('Send Once History Size');
		expect(sandbox().requests).toHaveLength(0);
	});

	test("without a key n8n's deduplication store is never used, not even for an item the service refused", async () => {
		// One item goes out, one is refused (its chat not started): neither has a key to record or forget.
		sandbox().startChat('+6281234567890');
		const before = dedupStore.roundTrips;
		const run = await runNode({
			parameters: { ...OPERATIONS[1][1], to: '={{ $json.phone }}' },
			items: [{ phone: '+6281234567890' }, { phone: '+6281299999999' }],
			credentials: credentialsFor(sandbox()),
			continueOnFail: true,
		});
		expect(run.output?.map((item) => (item.json.error ? 'failed' : 'sent'))).toEqual(['sent', 'failed']);
		expect(dedupStore.roundTrips).toBe(before);
	});

	test('a dry run records nothing', async () => {
		await runNode({ parameters: bulk({ dryRun: true }), items: orders('E1'), credentials: credentialsFor(sandbox()) });
		const real = await runNode({ parameters: bulk(), items: orders('E1'), credentials: credentialsFor(sandbox()) });
		expect(real.output?.[0].json.skipped).toBeUndefined();
		expect(sandbox().deliveries()).toHaveLength(1);
	});
});
