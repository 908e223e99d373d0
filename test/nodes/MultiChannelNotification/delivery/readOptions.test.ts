import { ExecuteContext } from 'n8n-core';
import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { readOptions } from '../../../../nodes/MultiChannelNotification/delivery/options';
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

/**
 * The Options collection is read once per item, as one object that the operation's `prepare`, the
 * send and the pacing all take: no second read, no cache. A value the node cannot use is refused
 * like any other field, listed with the item's other problems, and nothing is sent.
 */

const sandbox = useSandbox();

/** Counts the reads of the Options collection (or of one option inside it) by the node, per item. */
function countOptionReads(): { perItem: () => number[]; restore: () => void } {
	let owner: object = ExecuteContext.prototype;
	// Each context's getNodeParameter is its own arrow function calling this method of the class.
	while (!Object.prototype.hasOwnProperty.call(owner, '_getNodeParameter')) owner = Object.getPrototypeOf(owner) as object;
	const spy = jest.spyOn(owner as { _getNodeParameter: (name: string, itemIndex: number) => unknown }, '_getNodeParameter');
	return {
		perItem: () => {
			const counts: number[] = [];
			for (const [name, itemIndex] of spy.mock.calls as Array<[string, number]>) {
				if (name === 'options' || name.startsWith('options.')) counts[itemIndex] = (counts[itemIndex] ?? 0) + 1;
			}
			return counts;
		},
		restore: () => spy.mockRestore(),
	};
}

const items = [{ phone: '+6281111111111' }, { phone: '+6282222222222' }, { phone: '+6283333333333' }];

const failover: INodeParameters = {
	resource: 'combined',
	operation: 'sendWithFailover',
	from: '+6281100000000',
	to: '={{ $json.phone }}',
	templateName: 'order_update',
	languageCode: 'id',
	bodyParameters: { parameter: [{ text: 'A1' }] },
	message: 'Pesanan A1',
};

describe('Options: read once per item', () => {
	test.each([
		['SMS → Send', { resource: 'sms', operation: 'send', phoneNumber: '={{ $json.phone }}', message: 'Halo' }],
		['Combined → Send with Failover', failover],
	])('%s: the Options collection is read once for each item, pacing included', async (_name, parameters) => {
		const reads = countOptionReads();
		try {
			const { error } = await runNode({
				parameters: { ...parameters, options: { concurrency: 2, timeout: 5000, phoneNumberFormat: 'strict' } },
				items,
				credentials: credentialsFor(sandbox()),
			});
			expect(error).toBeUndefined();
			expect(sandbox().requests).toHaveLength(3);
			expect(reads.perItem()).toEqual([1, 1, 1]);
		} finally {
			reads.restore();
		}
	});
});

describe('Options: a value the node cannot use is refused, never clamped', () => {
	test.each([
		['Concurrency', { concurrency: 500 }, 'Concurrency must be a whole number of requests from 1 to 100 — got 500'],
		['Batch Interval (Milliseconds)', { batchInterval: -5 }, 'Batch Interval (Milliseconds) must be a number of milliseconds from 0 to 3600000 — got -5'],
		['Rate Limit Max Wait (Seconds)', { rateLimitMaxWait: 90000 }, 'Rate Limit Max Wait (Seconds) must be a number of seconds from 0 to 86400 — got 90000'],
	])('%s out of range: refused naming the option, the value and the range; nothing sent', async (label, options, problem) => {
		const { error } = await runNode({
			parameters: { resource: 'sms', operation: 'send', phoneNumber: '+6281234567890', message: 'Halo', options },
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message.startsWith(`Item 0: ${label} must be`)).toBe(true);
		expect(error?.description?.split('\n')).toEqual([`• ${problem}`, 'Nothing was sent for this item.']);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('a refused option and a refused field are listed together in one error', async () => {
		const { error } = await runNode({
			parameters: { resource: 'sms', operation: 'send', phoneNumber: '+6591234567', message: 'Halo', options: { concurrency: 500 } },
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.description?.split('\n')).toEqual([
			'• Concurrency must be a whole number of requests from 1 to 100 — got 500',
			expect.stringMatching(/^• Phone Number must be an Indonesian number/),
			'Nothing was sent for this item.',
		]);
		expect(sandbox().requests).toHaveLength(0);
	});
});

/** A context whose Options collection (and nothing else) is `options`, as n8n gives it for an item. */
const givingOptions = (options: unknown) =>
	({ getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => (name === 'options' ? options : fallback) }) as unknown as IExecuteFunctions;

describe('Options: how the run is paced', () => {
	// docs/operations.md: batches are of Concurrency, or 10; README: without Concurrency the node adapts.
	test.each([
		['nothing set: the node adapts (nothing pinned), Rate Limit Max Wait 120 s', {}, { concurrency: undefined, batchInterval: 0, maxWaitMs: 120_000 }],
		['Concurrency: pinned to it', { concurrency: 3 }, { concurrency: 3, batchInterval: 0, maxWaitMs: 120_000 }],
		['Concurrency set but empty: pinned at 10, the editor\'s default', { concurrency: '' }, { concurrency: 10, batchInterval: 0, maxWaitMs: 120_000 }],
		['Batch Interval without Concurrency: batches of 10', { batchInterval: 500 }, { concurrency: 10, batchInterval: 500, maxWaitMs: 120_000 }],
		['Batch Interval with Concurrency: batches of Concurrency', { concurrency: 3, batchInterval: 500, rateLimitMaxWait: 7 }, { concurrency: 3, batchInterval: 500, maxWaitMs: 7000 }],
	])('%s', (_name, options, pacing) => {
		const { options: read, problems } = readOptions(givingOptions(options), 0);
		expect(problems).toEqual([]);
		expect(read.pacing).toEqual(pacing);
	});

	test('a refused option is replaced by its default, listed as a problem; the options beside it are kept', () => {
		const { options, problems } = readOptions(givingOptions({ concurrency: 500, batchInterval: 500, timeout: 5000 }), 0);
		expect(problems.map((problem) => problem.field)).toEqual(['Concurrency']);
		expect(options.timeout).toBe(5000);
		expect(options.pacing).toEqual({ concurrency: 10, batchInterval: 500, maxWaitMs: 120_000 });
	});

	test.each([null, 'fast'])('Options that are not a collection (%p) are read as none: the defaults, no problem', (options) => {
		expect(readOptions(givingOptions(options), 0)).toEqual(readOptions(givingOptions({}), 0));
	});
});
