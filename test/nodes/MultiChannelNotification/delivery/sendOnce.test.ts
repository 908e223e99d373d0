/**
 * Send Once Per Key's use of n8n's deduplication store, on stub stores a test answers by hand:
 * uses of one node's store take turns (so two checks never overlap), other nodes' uses do not
 * wait for them, and a store that cannot forget keys is logged, not thrown.
 */
import type { IDataObject, IDeduplicationOutput, IExecuteFunctions, INode, INodeParameters } from 'n8n-workflow';

import type { Ready } from '../../../../nodes/MultiChannelNotification/delivery/operation';
import type { ItemOptions } from '../../../../nodes/MultiChannelNotification/delivery/options';
import { Outcomes } from '../../../../nodes/MultiChannelNotification/delivery/outcomes';
import { releaseKeys, sendOncePerKey } from '../../../../nodes/MultiChannelNotification/delivery/sendOnce';
import { runNode } from '../../../helpers/engine';
import { dedupStore } from '../../../helpers/dedupStore';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

interface Store {
	/** Store calls made so far, each answered when the test resolves it. */
	calls: Array<{ keys: string[]; answer: () => void }>;
	inFlight: number;
	mostAtOnce: number;
}

const stores: Store[] = [];
function newStore(): Store {
	const store: Store = { calls: [], inFlight: 0, mostAtOnce: 0 };
	stores.push(store);
	return store;
}

/** n8n's context for one node of one workflow, its store answered by hand through `store`. */
function contextFor(workflowId: string, nodeId: string, store: Store, extra: IDataObject = {}): IExecuteFunctions {
	const node = { id: nodeId, name: 'Notify', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
	const checkProcessedAndRecord = async (keys: string[]): Promise<IDeduplicationOutput> => {
		store.inFlight++;
		store.mostAtOnce = Math.max(store.mostAtOnce, store.inFlight);
		await new Promise<void>((resolve) => store.calls.push({ keys, answer: resolve }));
		store.inFlight--;
		return { new: keys, processed: [] };
	};
	return { getNode: () => node, getWorkflow: () => ({ id: workflowId }), helpers: { checkProcessedAndRecord }, ...extra } as unknown as IExecuteFunctions;
}

const ready = (key: string): Ready => ({ itemIndex: 0, request: {} as Ready['request'], options: { dedupeKey: key, dedupeHistorySize: 100 } as ItemOptions });
const use = async (context: IExecuteFunctions, key: string) => await sendOncePerKey(context, [ready(key)], new Outcomes(context, 1, 'throw'));
/** Lets every pending promise and store round trip run. */
const settle = async () => {
	for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('Send Once Per Key: turns on the store', () => {
	// A test that fails midway leaves checks unanswered: answer them, so the next test's turn comes.
	afterEach(async () => {
		for (let round = 0; round < 5; round++) {
			for (const store of stores) for (const call of store.calls) call.answer();
			await settle();
		}
		stores.length = 0;
	});

	test.each([
		['another node of the same workflow', 'w1', 'n2'],
		['a node with the same id in another workflow', 'w2', 'n1'],
	])("a store check of %s does not wait for this node's check that has no answer yet", async (_name, workflowId, nodeId) => {
		const slow = newStore();
		const other = newStore();
		const first = use(contextFor('w1', 'n1', slow), 'K1');
		await settle();
		expect(slow.calls).toHaveLength(1);

		const second = use(contextFor(workflowId, nodeId, other), 'K2');
		await settle();
		expect(other.calls.map((call) => call.keys)).toEqual([['K2']]);

		other.calls[0].answer();
		slow.calls[0].answer();
		await expect(Promise.all([first, second])).resolves.toHaveLength(2);
	});

	test('a check that comes while the second of two is under way waits for it: never two checks of one node at once', async () => {
		const store = newStore();
		const context = contextFor('w1', 'n1', store);
		const first = use(context, 'K1');
		const second = use(context, 'K2');
		await settle();
		expect(store.calls).toHaveLength(1);

		store.calls[0].answer();
		await first;
		await settle();
		expect(store.calls).toHaveLength(2);

		const third = use(context, 'K3');
		await settle();
		expect(store.calls).toHaveLength(2);
		expect(store.mostAtOnce).toBe(1);

		store.calls[1].answer();
		await second;
		await settle();
		expect(store.calls).toHaveLength(3);
		store.calls[2].answer();
		await third;
		expect(store.mostAtOnce).toBe(1);
	});
});

describe('Send Once Per Key: a store that fails', () => {
	test('with Continue On Fail, every keyed item fails and none is sent, not just the first', async () => {
		const parameters: INodeParameters = {
			resource: 'sms',
			operation: 'send',
			phoneNumber: '+6281234567890',
			message: '={{ "order " + $json.order }}',
			options: { dedupeKey: '={{ $json.order }}', concurrency: 1 } as INodeParameters,
		};
		dedupStore.failNext = new Error('connection to the database was lost');
		const run = await runNode({ parameters, items: [{ order: 'F1' }, { order: 'F2' }, { order: 'F3' }], credentials: credentialsFor(sandbox()), continueOnFail: true });
		expect(run.error).toBeUndefined();
		expect(sandbox().requests).toHaveLength(0);
		expect(run.output?.map((item) => String(item.json.error ?? 'no error'))).toEqual([
			expect.stringContaining('"F1"'),
			expect.stringContaining('"F2"'),
			expect.stringContaining('"F3"'),
		]);
	});

	test('keys that cannot be forgotten are logged with their count and the cause; the run goes on', async () => {
		const warn = jest.fn();
		const removeProcessed = async () => await Promise.reject(new Error('database is read-only'));
		const context = { getNode: () => ({ id: 'n9' }), getWorkflow: () => ({ id: 'w9' }), helpers: { removeProcessed }, logger: { warn } } as unknown as IExecuteFunctions;

		await expect(releaseKeys(context, ['R1', 'R2'])).resolves.toBeUndefined();
		expect(warn).toHaveBeenCalledTimes(1);
		expect(warn.mock.calls[0][0]).toMatch(/Send Once Per Key could not forget .*\(2\).*re-run skips them.*database is read-only/);
	});
});
