/**
 * Burst legs of `npm run bench`, in their own process (started by run.ts): the commonest real
 * shape — one execution per event — through REAL n8n. The packed package is installed into a
 * fresh n8n user folder as a community package (scripts/n8n/lib/stack.ts), n8n started, and two
 * workflows made active: Webhook → this node (SMS → Send SMS, at its defaults), the same with
 * Concurrency 1 (a diagnostic: no window shared between executions, the rate and pauses still
 * are) and Webhook → n8n's HTTP Request node (the same body; Retry On Fail on, 5 tries 1 s apart). For each in turn,
 * `events` POSTs go to the production webhook at once, one item each, while the https sandbox (in
 * this process) admits `perSecond` a second (by the spec's limiter shape; no limit when unset) with
 * `latencyMs` latency and a Retry-After. The webhooks answer when their execution is over
 * (responseMode lastNode). In queue mode n8n runs on Postgres and Redis with `workers` workers
 * (`--concurrency`, or n8n's default), which run the executions; each worker process keeps its own
 * pace of the service, and each message names the process that sent it (MCN_BENCH_SENDER).
 *
 * Receives a BurstSpec, reports `{ type: 'burst', results }` with what the sandbox saw.
 */
import { request } from 'node:http';
import { loadavg } from 'node:os';

import type { BurstResult, BurstSpec } from './common';
import { API_KEY, httpNodeParameters, inputItems, nodeParameters, receiveInput, report, senderOf, timelineOf } from './common';
import { burstWorkflows, headerAuthCredential, SECOND_CREDENTIAL, WEBHOOK_PATHS } from './burstWorkflows';
import { sandboxCredential } from '../n8n/lib/examples';
import { installCleanup, stopAll } from '../n8n/lib/process';
import { launchQueue } from '../n8n/lib/queue';
import type { Sandbox } from '../n8n/lib/sandbox';
import { startSandbox } from '../n8n/lib/sandbox';
import { launch, step } from '../n8n/lib/stack';

type Client = BurstResult['client'];

/**
 * One webhook call on a connection of its own (no keep-alive): a socket kept from the burst before
 * could be closed by n8n just as it is reused, and the call would count against the client.
 */
async function post(url: string, body: unknown): Promise<number> {
	return await new Promise((resolve, reject) => {
		const call = request(url, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json' } }, (response) => {
			response.resume().on('end', () => resolve(response.statusCode ?? 0)).on('error', reject);
		});
		call.on('error', reject).end(JSON.stringify(body));
	});
}

/** `events` webhook calls at once; what the sandbox saw while they ran. */
async function burst(spec: BurstSpec, client: Client, webhook: string, sandbox: Sandbox): Promise<BurstResult> {
	sandbox.reset();
	// Start on a fresh window of the sandbox's limit, nothing left of the warm-up.
	await new Promise((resolve) => setTimeout(resolve, 1100));
	const load = loadavg()[0];
	const events = inputItems(spec.events);
	const started = Date.now();
	const statuses = await Promise.all(events.map(async (event) => await post(webhook, event).catch(() => 0)));
	const allAnsweredMs = Date.now() - started;
	const requests = sandbox.requests.filter((request) => request.path === '/v1/sms/notification');
	const delivered = requests.filter((request) => request.delivered);
	const bodies = new Set(delivered.map((request) => request.rawBody));
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
		twice: delivered.length - bodies.size,
		rateLimited: requests.filter((request) => request.rateLimited).length,
		firstToLastMs: times.length ? Math.max(...times) - Math.min(...times) : 0,
		startToLastMs: times.length ? Math.max(...times) - started : 0,
		allAnsweredMs,
		timeline: timelineOf(requests),
		senders: Object.fromEntries(Object.entries(senders).map(([name, sent]) => [name, timelineOf(sent)])),
		load,
	};
}

async function main(): Promise<void> {
	const spec = await receiveInput<BurstSpec>();
	const sandbox = await startSandbox({
		port: 0,
		apiKey: API_KEY,
		latencyMs: spec.latencyMs,
		rateLimit: spec.perSecond === undefined ? undefined : { perSecond: spec.perSecond, shape: spec.shape ?? 'fixedWindow', burst: spec.bucket, retryAfter: spec.retryAfter },
	});
	installCleanup(async () => await sandbox.stop());
	const workflows = burstWorkflows({
		node: nodeParameters(undefined, '$json.body'),
		nodePinned: nodeParameters(1, '$json.body'),
		httpNode: httpNodeParameters(sandbox.url, false, '$json.body'),
	});
	// Queue mode: Postgres and Redis, main + workers (scripts/n8n/lib/queue.ts). Every process may
	// read MCN_BENCH_SENDER in an expression (n8n blocks env access in expressions by default).
	const options = {
		label: `bench-burst-${spec.mode}`,
		extraEnv: { N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false', MCN_BENCH_SENDER: 'main' },
		credentials: [
			sandboxCredential(sandbox.url, API_KEY),
			{ ...sandboxCredential(sandbox.url, API_KEY), ...SECOND_CREDENTIAL },
			headerAuthCredential(API_KEY),
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
	for (const { client, workflow } of workflows) {
		// One untimed call first: n8n loads the node type and warms its execution path.
		await post(webhook(client), inputItems(1)[0]);
		results.push(await step(`${spec.events} POSTs at once to "${workflow.name}"`, async () => await burst(spec, client, webhook(client), sandbox)));
	}
	await stopAll();
	await sandbox.stop();
	await report({ type: 'burst', results });
}

main().then(
	() => process.exit(0),
	async (error: unknown) => {
		await report({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
		await stopAll(3000);
		process.exit(1);
	},
);
