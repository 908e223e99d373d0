/**
 * What Send Once Per Key costs each keyed send when n8n's store holds as many keys as Send Once
 * History Size keeps (10000 by default): n8n reads the node's whole list of keys, looks each new
 * key up in it, cuts it to the size and writes it back. Through real n8n (the packed package
 * installed as a community package, n8n's own deduplication store in its database), one node:
 *
 * 1. filled with 10000 keys by one execution of 10000 keyed SMS (each really sent to the sandbox);
 * 2. then RUNS one-item executions with a new key each: the node's own `executionTime`;
 * 3. the same on a second workflow whose node has recorded only its own runs' keys (the store
 *    nearly empty), for the difference.
 *
 * Prints the figures; nothing is written. A measurement, not a check: it fails only if n8n does.
 *
 *   npx tsx scripts/bench/sendOnceCost.ts     (after `npm run build`; N8N_VERSION picks the n8n)
 */
import type { Check } from '../n8n/lib/check';
import { runIfMain } from '../n8n/lib/check';
import { N8N_VERSION } from '../n8n/lib/config';
import type { ExampleWorkflow } from '../n8n/lib/examples';
import { manualTrigger, packageNode, workflowFixture } from '../n8n/lib/examples';
import type { N8nClient } from '../n8n/lib/n8n';
import { step } from '../n8n/lib/stack';

const STORED = 10_000;
const RUNS = 30;

/** A Code node putting out `jsCode`'s items, then the keyed SMS send. */
const keyedSms = (id: string, name: string, jsCode: string): ExampleWorkflow =>
	workflowFixture(id, name, [
		manualTrigger(),
		{ name: 'Items', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode } },
		packageNode('Send', { resource: 'sms', operation: 'send', phoneNumber: '={{ $json.phone }}', message: '={{ "key " + $json.key }}', options: { dedupeKey: '={{ $json.key }}' } }),
	]);

const FILL = `return Array.from({ length: ${STORED} }, (_, i) => ({ json: { key: 'stored-' + i, phone: '+6281234567890' } }));`;
const ONE_NEW_KEY = "return [{ json: { key: 'run-' + $execution.id, phone: '+6281234567890' } }];";

const AT_BOUND = keyedSms('mcnSendOnceCost1', 'Send Once cost: the store at its bound', FILL);
const NEARLY_EMPTY = keyedSms('mcnSendOnceCost2', 'Send Once cost: a nearly empty store', ONE_NEW_KEY);

/** Runs the workflow RUNS times; the Send node's own executionTime of each, in ms. */
async function timedRuns(client: N8nClient, workflowId: string): Promise<number[]> {
	const times: number[] = [];
	for (let run = 0; run < RUNS; run++) {
		const execution = await client.execute(workflowId);
		if (execution.status !== 'success') throw new Error(`execution ${execution.id} ended ${execution.status}`);
		const sent = execution.data.resultData.runData.Send?.[0];
		if (sent?.data?.main?.[0]?.[0]?.json.message !== 'success') throw new Error(`execution ${execution.id}: the SMS was not sent`);
		times.push(sent.executionTime ?? Number.NaN);
	}
	return times;
}

const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const sendOnceCost: Check = {
	name: `Send Once check cost at the history bound, n8n ${N8N_VERSION}`,
	prepare: () => ({
		workflows: [AT_BOUND, NEARLY_EMPTY],
		run: async ({ sandbox, stack: { client }, expect }) => {
			const fill = await step(`fill the store: one execution of ${STORED} keyed SMS`, async () => await client.execute(AT_BOUND.id, { deadlineMs: 600_000 }));
			expect(fill.status === 'success' && sandbox.requests.length === STORED, `${STORED} SMS sent, their keys recorded`, sandbox.requests.length);
			const filled = fill.data.resultData.runData.Send?.[0]?.executionTime ?? Number.NaN;
			const { nodes, connections } = AT_BOUND;
			await client.updateWorkflow(AT_BOUND.id, {
				nodes: nodes.map((node) => (node.name === 'Items' ? { ...node, parameters: { jsCode: ONE_NEW_KEY } } : node)),
				connections,
			});
			const atBound = await step(`${RUNS} one-item executions, ${STORED} keys stored`, async () => await timedRuns(client, AT_BOUND.id));
			const empty = await step(`${RUNS} one-item executions, nearly empty store`, async () => await timedRuns(client, NEARLY_EMPTY.id));
			console.log(`\nn8n ${N8N_VERSION}, n8n's own database (sqlite), one keyed SMS per execution, the node's executionTime:`);
			console.log(`  ${STORED} keys stored: median ${median(atBound)} ms (min ${Math.min(...atBound)}, max ${Math.max(...atBound)}) over ${RUNS} runs`);
			console.log(`  nearly empty store:   median ${median(empty)} ms (min ${Math.min(...empty)}, max ${Math.max(...empty)}) over ${RUNS} runs`);
			console.log(`  the check at the bound costs about ${median(atBound) - median(empty)} ms more per keyed execution`);
			console.log(`  filling: ${STORED} keyed SMS in one execution took ${filled} ms`);
		},
	}),
};

runIfMain(module, sendOnceCost);
