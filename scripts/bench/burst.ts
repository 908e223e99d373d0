/**
 * Burst legs of `npm run bench`, in their own process (started by run.ts): one execution per event
 * through REAL n8n, the packed package installed as a community package (scripts/n8n/lib/stack.ts).
 * Two active workflows, each a production webhook (answering when its execution is over) → the
 * client measured: this node at its defaults and n8n's HTTP Request node (the same body, Retry On
 * Fail on). For each in turn, `events` POSTs go to its webhook at once, one item
 * each, while the https sandbox (in this process) admits `perSecond` a second. In queue mode n8n
 * runs on Postgres and Redis with `workers` workers, each keeping its own pace of the service; each
 * message names the process that sent it (MCN_BENCH_SENDER).
 *
 * Receives a BurstSpec, reports `{ type: 'burst', results }` with what the sandbox saw.
 */
import { request } from 'node:http';
import { loadavg } from 'node:os';

import type { BurstResult, BurstSpec } from './common';
import { API_KEY, HTTP_REQUEST_VERSION, HTTP_RETRY, httpNodeParameters, inputItems, nodeParameters, report, runChild } from './common';
import { SMS_PATH, senderOf, timelineOf } from './common';
import type { ExampleWorkflow, NodeFixture } from '../n8n/lib/examples';
import { packageNode, sandboxCredential, webhookTrigger, workflowFixture } from '../n8n/lib/examples';
import { installCleanup, stopAll } from '../n8n/lib/process';
import { launchQueue } from '../n8n/lib/queue';
import type { Sandbox } from '../n8n/lib/sandbox';
import { startSandbox } from '../n8n/lib/sandbox';
import { launch, step } from '../n8n/lib/stack';

type Client = BurstResult['client'];

const WEBHOOK_PATHS: Record<Client, string> = { node: 'bench-burst-node', httpNode: 'bench-burst-http' };
const HEADER_AUTH = { id: 'benchHeaderAuth01', name: 'Bench header auth' };

/** The two workflows, the sandbox at `sandboxUrl`, each message's fields from the webhook call's body. */
function burstWorkflows(sandboxUrl: string): Array<{ client: Client; workflow: ExampleWorkflow }> {
	const workflow = (id: string, client: Client, title: string, send: NodeFixture) =>
		workflowFixture(id, `Bench burst: webhook → ${title}`, [webhookTrigger(WEBHOOK_PATHS[client], 'lastNode'), send]);
	const httpNode: NodeFixture = {
		name: 'Send',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		parameters: httpNodeParameters(sandboxUrl, '$json.body'),
		credentials: { httpHeaderAuth: HEADER_AUTH },
		retryOnFail: true,
		...HTTP_RETRY,
	};
	return [
		{ client: 'node', workflow: workflow('mcnBenchBurst01', 'node', 'Multi-Channel Notification', packageNode('Send', nodeParameters('$json.body'))) },
		{ client: 'httpNode', workflow: workflow('mcnBenchBurst02', 'httpNode', 'HTTP Request', httpNode) },
	];
}

/** A webhook call silent this long has lost its answer (n8n in queue mode once never sent one). */
const NO_ANSWER_MS = 120_000;

/**
 * One webhook call on a connection of its own (no keep-alive): a socket kept from the burst before
 * could be closed by n8n just as it is reused, and the call would count against the client. A call
 * with no answer after NO_ANSWER_MS counts as "no answer" instead of holding the leg until it times out.
 */
async function post(url: string, body: unknown): Promise<number> {
	return await new Promise((resolve, reject) => {
		const call = request(url, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json' } }, (response) => {
			response.resume().on('end', () => resolve(response.statusCode ?? 0)).on('error', reject);
		});
		call.setTimeout(NO_ANSWER_MS, () => call.destroy(new Error('no answer')));
		call.on('error', reject).end(JSON.stringify(body));
	});
}

/** `events` webhook calls at once; what the sandbox saw while they ran. */
async function burst(spec: BurstSpec, client: Client, webhook: string, sandbox: Sandbox): Promise<BurstResult> {
	sandbox.reset();
	// Start on a fresh window of the sandbox's limit, nothing left of the warm-up.
	await new Promise((resolve) => setTimeout(resolve, 1100));
	const load = loadavg()[0];
	const started = Date.now();
	const statuses = await Promise.all(inputItems(spec.events).map(async (event) => await post(webhook, event).catch(() => 0)));
	const allAnsweredMs = Date.now() - started;
	const requests = sandbox.requests.filter((request) => request.path === SMS_PATH);
	const delivered = requests.filter((request) => request.delivered);
	const times = delivered.map((request) => request.receivedAt);
	const senders: Record<string, typeof requests> = {};
	for (const request of requests) (senders[senderOf(request.rawBody) ?? '?'] ??= []).push(request);
	const webhookStatuses: Record<string, number> = {};
	for (const status of statuses) webhookStatuses[String(status)] = (webhookStatuses[String(status)] ?? 0) + 1;
	return {
		spec,
		client,
		webhookStatuses,
		requests: requests.length,
		delivered: delivered.length,
		twice: delivered.length - new Set(delivered.map((request) => request.rawBody)).size,
		rateLimited: requests.filter((request) => request.rateLimited).length,
		firstToLastMs: times.length ? Math.max(...times) - Math.min(...times) : 0,
		startToLastMs: times.length ? Math.max(...times) - started : 0,
		allAnsweredMs,
		timeline: timelineOf(requests),
		senders: Object.fromEntries(Object.entries(senders).map(([name, sent]) => [name, timelineOf(sent)])),
		load,
	};
}

async function main(spec: BurstSpec): Promise<void> {
	const { perSecond, shape = 'fixedWindow', bucket, retryAfter } = spec;
	const rateLimit = perSecond === undefined ? undefined : { perSecond, shape, burst: bucket, retryAfter };
	const sandbox = await startSandbox({ port: 0, apiKey: API_KEY, latencyMs: spec.latencyMs, rateLimit });
	installCleanup(async () => await sandbox.stop());
	const workflows = burstWorkflows(sandbox.url);
	// Queue mode: Postgres and Redis, main + workers (scripts/n8n/lib/queue.ts). Every process may
	// read MCN_BENCH_SENDER in an expression (n8n blocks env access in expressions by default).
	const options = {
		label: `bench-burst-${spec.mode}`,
		extraEnv: { N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false', MCN_BENCH_SENDER: 'main' },
		credentials: [
			sandboxCredential(sandbox.url, API_KEY),
			{ ...HEADER_AUTH, type: 'httpHeaderAuth', data: { name: 'Authorization', value: API_KEY } },
		],
		workflows: workflows.map((entry) => entry.workflow),
	};
	const stack =
		spec.mode === 'queue'
			? await launchQueue({
					...options,
					workers: Array.from({ length: spec.workers ?? 2 }, (_, index) => `n8n worker ${index + 1}`),
					concurrency: spec.workerConcurrency,
					workerEnv: (name) => ({ N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false', MCN_BENCH_SENDER: name.replace('n8n ', '') }),
				})
			: await launch(options);
	const webhook = (client: Client) => `${stack.n8n.url}/webhook/${WEBHOOK_PATHS[client]}`;
	for (const { workflow } of workflows) await step(`activate "${workflow.name}"`, async () => await stack.client.activateWorkflow(workflow.id));
	// An untimed burst first, through the HTTP Request node (it keeps nothing between executions):
	// the first burst after n8n starts runs slower, by about half a second here whichever client it
	// is, and no measured client may pay that alone.
	await step('untimed warm-up burst through the HTTP Request node', async () => await burst(spec, 'httpNode', webhook('httpNode'), sandbox));
	const results: BurstResult[] = [];
	for (const { client, workflow } of workflows.filter((entry) => !spec.nodeOnly || entry.client === 'node')) {
		// One untimed call first: n8n loads the node type and warms its execution path.
		await post(webhook(client), inputItems(1)[0]);
		results.push(await step(`${spec.events} POSTs at once to "${workflow.name}"`, async () => await burst(spec, client, webhook(client), sandbox)));
	}
	await stopAll();
	await sandbox.stop();
	await report({ type: 'burst', results });
}

runChild(main, async () => await stopAll(3000));
