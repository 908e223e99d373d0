/**
 * The Send Once leg of `npm run bench`, in its own process (started by run.ts, after the other
 * legs): what Send Once Per Key costs each keyed send when n8n's store holds as many keys as Send
 * Once History Size keeps (10000 by default). n8n reads the node's whole list of keys, looks each
 * new key up in it, cuts it to the size and writes it back. Through REAL n8n (the packed package
 * installed as a community package, n8n's own deduplication store in its sqlite database), one node:
 *
 * 1. filled with `stored` keys by one execution of as many keyed SMS (each really sent to the sandbox);
 * 2. then `runs` one-item executions with a new key each: the node's own `executionTime`;
 * 3. the same on a second workflow whose node has recorded only its own runs' keys (the store
 *    nearly empty), for the difference.
 *
 * Receives a SendOnceSpec, reports `{ type: 'sendOnce', result }`.
 */
import type { ExampleWorkflow } from '../n8n/lib/examples';
import { manualTrigger, packageNode, workflowFixture } from '../n8n/lib/examples';
import type { N8nClient } from '../n8n/lib/n8n';
import { installCleanup, stopAll } from '../n8n/lib/process';
import { startSandbox } from '../n8n/lib/sandbox';
import { launch, step } from '../n8n/lib/stack';
import type { SendOnceResult, SendOnceSpec } from './common';
import { report, runChild } from './common';

/** A Code node putting out `jsCode`'s items, then the keyed SMS send. */
const keyedSms = (id: string, name: string, jsCode: string): ExampleWorkflow =>
	workflowFixture(id, name, [
		manualTrigger(),
		{ name: 'Items', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode } },
		packageNode('Send', { resource: 'sms', operation: 'send', phoneNumber: '={{ $json.phone }}', message: '={{ "key " + $json.key }}', options: { dedupeKey: '={{ $json.key }}' } }),
	]);

const fill = (stored: number) => `return Array.from({ length: ${stored} }, (_, i) => ({ json: { key: 'stored-' + i, phone: '+6281234567890' } }));`;
const ONE_NEW_KEY = "return [{ json: { key: 'run-' + $execution.id, phone: '+6281234567890' } }];";

/** Runs the workflow `runs` times; the Send node's own executionTime of each, in ms. */
async function timedRuns(client: N8nClient, workflowId: string, runs: number): Promise<number[]> {
	const times: number[] = [];
	for (let run = 0; run < runs; run++) {
		const execution = await client.execute(workflowId);
		if (execution.status !== 'success') throw new Error(`execution ${execution.id} ended ${execution.status}`);
		const sent = execution.data.resultData.runData.Send?.[0];
		if (sent?.data?.main?.[0]?.[0]?.json.message !== 'success') throw new Error(`execution ${execution.id}: the SMS was not sent`);
		times.push(sent.executionTime ?? Number.NaN);
	}
	return times;
}

async function main(spec: SendOnceSpec): Promise<void> {
	const { stored, runs } = spec;
	const atBound = keyedSms('mcnSendOnceCost1', 'Send Once cost: the store at its bound', fill(stored));
	const nearlyEmpty = keyedSms('mcnSendOnceCost2', 'Send Once cost: a nearly empty store', ONE_NEW_KEY);
	const sandbox = await startSandbox({ port: 0, quiet: true });
	installCleanup(async () => await sandbox.stop());
	const { client } = await launch({ label: 'bench-send-once', sandbox, workflows: [atBound, nearlyEmpty] });
	const filled = await step(`fill the store: one execution of ${stored} keyed SMS`, async () => await client.execute(atBound.id, { deadlineMs: 600_000 }));
	if (filled.status !== 'success' || sandbox.requests.length !== stored) {
		throw new Error(`filling the store: execution ${filled.status}, ${sandbox.requests.length} of ${stored} SMS sent`);
	}
	const fillMs = filled.data.resultData.runData.Send?.[0]?.executionTime ?? Number.NaN;
	const nodes = atBound.nodes.map((node) => (node.name === 'Items' ? { ...node, parameters: { jsCode: ONE_NEW_KEY } } : node));
	await client.updateWorkflow(atBound.id, { nodes, connections: atBound.connections });
	const atBoundMs = await step(`${runs} one-item executions, ${stored} keys stored`, async () => await timedRuns(client, atBound.id, runs));
	const nearlyEmptyMs = await step(`${runs} one-item executions, nearly empty store`, async () => await timedRuns(client, nearlyEmpty.id, runs));
	await stopAll();
	await sandbox.stop();
	const result: SendOnceResult = { spec, atBoundMs, nearlyEmptyMs, fillMs };
	await report({ type: 'sendOnce', result });
}

runChild(main, async () => await stopAll(3000));
