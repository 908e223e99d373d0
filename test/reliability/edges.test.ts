/**
 * The edges of the node's two promises — a message is never sent twice, an answer counts only for
 * its question — and of the key's: each edge tried through n8n's engine against the sandbox, its
 * outcome read from the sandbox's own records. Every row lands in RELIABILITY.md's "Edges" table.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Fault } from '../../sandbox/server';
import { runNode } from '../helpers/engine';
import { recordFigures } from '../helpers/reliabilityFigures';
import { credentialsFor, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

interface EdgeRow {
	edge: string;
	tried: string;
	outcome: string;
}
const rows: EdgeRow[] = [];

afterAll(() => recordFigures('edges', { rows }));

const keyed = (options: IDataObject = {}): INodeParameters => ({
	resource: 'sms',
	operation: 'send',
	phoneNumber: '={{ $json.phone }}',
	message: '={{ "event " + $json.key }}',
	options: { dedupeKey: '={{ $json.key }}', concurrency: 1, ...options } as INodeParameters,
});
const event = (key: string) => ({ key, phone: '+6281234567890' });
const deliveredOf = (key: string) => sandbox().deliveries().filter((request) => (request.body as { message: string }).message === `event ${key}`).length;

describe('Send Once Per Key: an answer that leaves delivery open keeps the key', () => {
	const faults: Array<[string, Fault, IDataObject]> = [
		['HTTP 500', { kind: 'status', status: 500, afterDelivery: true }, {}],
		['HTTP 502, not JSON', { kind: 'nonJson', status: 502, afterDelivery: true }, {}],
		['connection reset', { kind: 'reset', afterDelivery: true }, {}],
		['no answer (timeout)', { kind: 'timeout', afterDelivery: true }, { timeout: 500 }],
	];
	test.each(faults)('%s after the service recorded the message, then a re-run', async (name, fault, options) => {
		sandbox().injectFault(fault);
		const key = `maybe-${name}`;
		const first = await runNode({ parameters: keyed(options), items: [event(key)], credentials: credentialsFor(sandbox()) });
		expect(first.error).toBeDefined();
		const again = await runNode({ parameters: keyed(options), items: [event(key)], credentials: credentialsFor(sandbox()) });
		expect(again.output?.[0].json).toMatchObject({ skipped: true, reason: 'alreadySent' });
		expect(deliveredOf(key)).toBe(1);
		rows.push({ edge: 'maybe-delivered key', tried: `${name} after the service recorded the message; re-run with the same key`, outcome: `delivered ${deliveredOf(key)}×; the re-run skipped the item` });
	});

	test('HTTP 400 (the service refused the message), then a re-run: sent again', async () => {
		sandbox().injectFault({ kind: 'status', status: 400, message: 'bad request' });
		const first = await runNode({ parameters: keyed(), items: [event('refused')], credentials: credentialsFor(sandbox()) });
		expect(first.error?.message).toContain('400');
		await runNode({ parameters: keyed(), items: [event('refused')], credentials: credentialsFor(sandbox()) });
		expect(deliveredOf('refused')).toBe(1);
		rows.push({ edge: 'refused key released', tried: 'HTTP 400 (refused); re-run with the same key', outcome: `delivered ${deliveredOf('refused')}× (by the re-run)` });
	});
});

describe('Send Once Per Key: executions at once', () => {
	const ROUNDS = 5;
	test(`${ROUNDS} rounds of 20 executions at once with one key`, async () => {
		const sent: number[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			const key = `burst-${round}`;
			await Promise.all(Array.from({ length: 20 }, async () => await runNode({ parameters: keyed(), items: [event(key)], credentials: credentialsFor(sandbox()) })));
			sent.push(deliveredOf(key));
		}
		expect(sent).toEqual(Array.from({ length: ROUNDS }, () => 1));
		rows.push({ edge: 'overlapping executions', tried: `20 executions at once with one key, ${ROUNDS} rounds`, outcome: `messages sent per round: ${sent.join(', ')}` });
	});

	test('20 executions at once with 20 keys, twice', async () => {
		const wave = async () =>
			await Promise.all(Array.from({ length: 20 }, async (_, index) => await runNode({ parameters: keyed(), items: [event(`wave-${index}`)], credentials: credentialsFor(sandbox()) })));
		await wave();
		await wave();
		const perKey = Array.from({ length: 20 }, (_, index) => deliveredOf(`wave-${index}`));
		expect(perKey).toEqual(Array.from({ length: 20 }, () => 1));
		rows.push({ edge: 'overlapping executions', tried: '20 executions at once with 20 different keys, then the same again', outcome: `${perKey.reduce((a, b) => a + b, 0)} messages, ${perKey.filter((count) => count === 1).length} keys sent exactly once` });
	});
});
