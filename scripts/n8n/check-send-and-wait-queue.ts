/**
 * Send and Wait for Response as self-hosters run it: queue mode on Postgres + Redis, a main
 * instance and two workers, and a restart while executions wait.
 *
 *   1. An active workflow (production webhook → "Ask": SMS → Send and Wait, Approve / Decline →
 *      "After") gets WAITING executions at once, one event each. Every one sends its own SMS,
 *      with its own answer link, and waits.
 *   2. The main instance and both workers are stopped and started again (same database, same
 *      URL): the executions are still waiting, and nothing was sent again.
 *   3. Every link is opened (GET, as a link preview would: nothing changes), then all are answered
 *      at once, half approve and half decline. Every execution resumes exactly once, on a worker,
 *      with the answer its own person gave; a second answer to each changes nothing.
 *   4. Figures, printed (not asserted): time from each answer POST to the node's page and to the
 *      resumed execution's finish (n8n's own stoppedAt), median and p95, beside the same for
 *      n8n's own Wait node resumed by a webhook call (100 executions of the same queue, same run).
 *
 *   npx tsx scripts/n8n/check-send-and-wait-queue.ts     (after `npm run build`; needs postgresql and redis-server)
 *
 * WAITING (default 100) sets how many executions wait and are answered at once.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';

import { runCheck } from './lib/check';
import type { ExampleWorkflow } from './lib/examples';
import { packageNode, postEvents, sandboxCredential, webhookTrigger } from './lib/examples';
import { N8N_VERSION } from './lib/install';
import type { N8nProcess, RunExecutionData } from './lib/n8n';
import { flatted, startN8n } from './lib/n8n';
import { queryPostgres } from './lib/postgres';
import { delay, stopGroup } from './lib/process';
import { startQueue } from './lib/queue';
import { launch, step } from './lib/stack';

const WAITING = Number(process.env.WAITING ?? 100);
const WORKER_CONCURRENCY = 50;
const WORKFLOW_ID = 'mcnWaitQueue0001';
const WEBHOOK_PATH = 'mcn-wait-queue';
const ASK_NODE_ID = 'b2000000-0000-4000-8000-000000000002';

/** Event `index`'s phone number and question: each one different, so a mixed-up answer or a double send shows. */
const event = (index: number): { phone: string; text: string } => ({
	phone: `+62813${String(index).padStart(7, '0')}`,
	text: `Approve refund ${index} of ${WAITING}?`,
});
/** Half the people approve, half decline. */
const approves = (index: number): boolean => index % 2 === 0;

function waitingWorkflow(): ExampleWorkflow {
	return {
		id: WORKFLOW_ID,
		name: 'Queue mode: approve each event by SMS',
		nodes: [
			webhookTrigger('b2000000-0000-4000-8000-000000000001', '6b2d7f1e-5c9f-4a6f-8b64-4d2e2c1f0c82', WEBHOOK_PATH),
			packageNode(ASK_NODE_ID, 'Ask', [220, 0], {
				resource: 'sms',
				operation: 'sendAndWait',
				phoneNumber: '={{ $json.body.phone }}',
				message: '={{ $json.body.text }}',
				responseType: 'approval',
				approvalOptions: { values: { approvalType: 'double' } },
			}),
			{ id: 'b2000000-0000-4000-8000-000000000003', name: 'After', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [440, 0], parameters: {} },
		] as unknown as ExampleWorkflow['nodes'],
		connections: {
			Webhook: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] },
			Ask: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/**
 * The yardstick for the figures: n8n's own Wait node resumed by a webhook call, in the same queue.
 * "Notify" sends the execution's resume URL ($execution.resumeUrl) by SMS, so the check finds it
 * as it finds the node's answer links; "Wait" then waits for a POST to it.
 */
const BASELINE_ID = 'mcnWaitQueue0002';
const BASELINE_PATH = 'mcn-wait-baseline';
function baselineWorkflow(): ExampleWorkflow {
	return {
		id: BASELINE_ID,
		name: 'Queue mode: n8n’s Wait node resumed by a webhook call',
		nodes: [
			webhookTrigger('b3000000-0000-4000-8000-000000000001', '7c3e8a2f-6da0-4b70-9c75-5e3f3d2a1d93', BASELINE_PATH),
			packageNode('b3000000-0000-4000-8000-000000000002', 'Notify', [220, 0], {
				resource: 'sms',
				operation: 'send',
				phoneNumber: '={{ $json.body.phone }}',
				message: '={{ $execution.resumeUrl }}',
				options: {},
			}),
			{ id: 'b3000000-0000-4000-8000-000000000003', name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1.1, position: [440, 0], parameters: { resume: 'webhook', httpMethod: 'POST', options: {} } },
			{ id: 'b3000000-0000-4000-8000-000000000004', name: 'After', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [660, 0], parameters: {} },
		] as unknown as ExampleWorkflow['nodes'],
		connections: {
			Webhook: { main: [[{ node: 'Notify', type: 'main', index: 0 }]] },
			Notify: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
			Wait: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** Executions of the workflow per status, from Postgres. */
async function statusCounts(env: Record<string, string>, workflowId = WORKFLOW_ID): Promise<Record<string, number>> {
	const rows = await queryPostgres(env, `select status, count(*) from execution_entity where "workflowId" = '${workflowId}' group by status order by status`);
	return Object.fromEntries(rows.map((row) => row.split('|')).map(([status, count]) => [status, Number(count)]));
}

/** Polls until `done` holds for the counts (a deadline against hanging, not a speed bound). */
async function countsBecome(
	env: Record<string, string>,
	done: (counts: Record<string, number>) => boolean,
	workflowId = WORKFLOW_ID,
): Promise<Record<string, number>> {
	const deadline = Date.now() + 10 * 60_000;
	for (;;) {
		const counts = await statusCounts(env, workflowId);
		if (done(counts) || Date.now() > deadline) return counts;
		await delay(1000);
	}
}

const startedOn = (n8n: N8nProcess): number => (readFileSync(n8n.logFile, 'utf8').match(/Worker started execution/g) ?? []).length;

function percentile(values: number[], fraction: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

const summary = (values: number[]): string => `median ${percentile(values, 0.5)} ms, p95 ${percentile(values, 0.95)} ms, max ${Math.max(...values)} ms`;

interface Link {
	index: number;
	executionId: string;
	url: string;
}

runCheck(`send-and-wait in queue mode, n8n ${N8N_VERSION} (Postgres, 2 workers, restart, ${WAITING} answers at once)`, async ({ sandbox, expect }) => {
	const queueEnv = await startQueue();
	const stack = await launch({
		label: 'wait-queue',
		credentials: [sandboxCredential(sandbox.url, sandbox.apiKey)],
		workflows: [waitingWorkflow(), baselineWorkflow()],
		extraEnv: queueEnv,
	});
	// The links a worker writes point at WEBHOOK_URL: as in any queue-mode set-up, the workers get
	// the main instance's public address (each n8n process would otherwise use its own port).
	const workerEnv = { ...queueEnv, WEBHOOK_URL: `${stack.n8n.url}/` };
	const startWorkers = async (): Promise<N8nProcess[]> => {
		const started: N8nProcess[] = [];
		for (const name of ['n8n worker 1', 'n8n worker 2']) {
			started.push(
				await step(`start ${name} (concurrency ${WORKER_CONCURRENCY})`, async () =>
					await startN8n({ userFolder: stack.userFolder, command: 'worker', name, args: [`--concurrency=${WORKER_CONCURRENCY}`], extraEnv: workerEnv }),
				),
			);
		}
		return started;
	};
	let workers = await startWorkers();

	await step('activate the workflow', async () => await stack.client.activateWorkflow(WORKFLOW_ID));
	const accepted = await step(`${WAITING} events to its production webhook, at once`, async () =>
		await postEvents(stack.n8n.url, WEBHOOK_PATH, Array.from({ length: WAITING }, (_, index) => event(index))),
	);
	expect(accepted.every((status) => status === 200), `n8n accepted all ${WAITING} events`, accepted.filter((status) => status !== 200));
	const waiting = await step('wait until every execution waits for its answer', async () =>
		await countsBecome(queueEnv, (counts) => (counts.waiting ?? 0) >= WAITING || Object.keys(counts).some((status) => !['new', 'running', 'waiting'].includes(status))),
	);
	expect(isDeepStrictEqual(waiting, { waiting: WAITING }), `${WAITING} executions wait`, waiting);

	const sms = sandbox.requests.filter((request) => request.path === '/v1/sms/notification');
	expect(sms.length === WAITING && sms.every((request) => request.status === 200 && request.delivered), `${WAITING} SMS sent and delivered, one per event`, sms.length);
	const links: Link[] = [];
	for (const request of sms) {
		const { phone_number: phone, message } = request.body as { phone_number: string; message: string };
		const index = Array.from({ length: WAITING }, (_, candidate) => candidate).find((candidate) => event(candidate).phone === phone) ?? -1;
		const [text, url] = message.split('\n');
		const executionId = new RegExp(`/webhook-waiting/(\\d+)/${ASK_NODE_ID}(\\?|$)`).exec(url ?? '')?.[1] ?? '';
		if (index >= 0 && text === event(index).text && executionId !== '') links.push({ index, executionId, url });
	}
	expect(
		links.length === WAITING && new Set(links.map((link) => link.index)).size === WAITING && new Set(links.map((link) => link.executionId)).size === WAITING,
		'each SMS carries its own event’s question and its own execution’s answer link',
		links.length,
	);

	await step('restart n8n: stop both workers and the main instance, start them again', async () => {
		for (const instance of [...workers, stack.n8n]) await stopGroup(instance.group, 30_000);
		stack.n8n = await startN8n({ userFolder: stack.userFolder, port: stack.n8n.port, extraEnv: queueEnv });
		await stack.client.login();
		workers = await startWorkers();
	});
	expect(isDeepStrictEqual(await statusCounts(queueEnv), { waiting: WAITING }), `after the restart all ${WAITING} still wait`);

	await step('open every link (GET, as a link preview does)', async () => {
		for (const link of links) {
			const response = await fetch(link.url).catch((error: Error) => {
				throw new Error(`GET ${link.url}: ${String(error.cause ?? error)}`);
			});
			const page = await response.text();
			if (response.status !== 200 || !page.includes('Approve')) throw new Error(`GET ${link.url} → ${response.status}\n${page.slice(0, 300)}`);
		}
	});
	expect(isDeepStrictEqual(await statusCounts(queueEnv), { waiting: WAITING }), 'the GETs changed nothing: all still wait');

	const startedBefore = workers.map(startedOn);
	const loadBefore = loadavg()[0];
	const answered = await step(`${WAITING} answers at once (half approve, half decline)`, async () =>
		await Promise.all(
			links.map(async (link) => {
				const sent = Date.now();
				const response = await fetch(link.url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
					body: `approved=${approves(link.index)}`,
				});
				const page = await response.text();
				return { ...link, sent, paged: Date.now() - sent, status: response.status, recorded: page.includes('Recorded:') };
			}),
		),
	);
	expect(answered.every((answer) => answer.status === 200 && answer.recorded), 'every answer got the “recorded” page', answered.filter((answer) => answer.status !== 200 || !answer.recorded).slice(0, 5));
	const finished = await step('wait until every execution has finished', async () =>
		await countsBecome(queueEnv, (counts) => Object.entries(counts).filter(([status]) => !['new', 'running', 'waiting'].includes(status)).reduce((sum, [, count]) => sum + count, 0) >= WAITING),
	);
	expect(isDeepStrictEqual(finished, { success: WAITING }), `all ${WAITING} executions resumed and succeeded (none lost, none added)`, finished);

	const outcomes = new Map(
		await Promise.all(
			links.map(async ({ executionId }) => {
				const row = await stack.client.request<{ stoppedAt?: string; data?: string }>('GET', `/executions/${executionId}`);
				const runData = row.data ? (flatted().parse(row.data) as RunExecutionData).resultData.runData : {};
				const outcome = { stoppedAt: Date.parse(row.stoppedAt ?? ''), ask: runData.Ask?.map((run) => run.data?.main?.[0]?.[0]?.json), afterRuns: runData.After?.length ?? 0 };
				return [executionId, outcome] as const;
			}),
		),
	);
	const wrong = answered.filter((answer) => {
		const outcome = outcomes.get(answer.executionId);
		return !outcome || outcome.afterRuns !== 1 || !isDeepStrictEqual(outcome.ask?.at(-1), { data: { approved: approves(answer.index) } });
	});
	expect(wrong.length === 0, 'each resumed with its own person’s answer ({ data: { approved } }), and After ran once in each', wrong.slice(0, 5).map((answer) => ({ answer, outcome: outcomes.get(answer.executionId) })));
	const ran = workers.map((worker, index) => startedOn(worker) - startedBefore[index]);
	expect(ran.reduce((sum, count) => sum + count, 0) === WAITING && startedOn(stack.n8n) === 0, `the workers ran every resumed execution (${ran.join(' + ')}), the main instance none`, ran);

	const again = await step('a second answer to every link', async () =>
		await Promise.all(
			links.map(async (link) => {
				const response = await fetch(link.url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `approved=${!approves(link.index)}` });
				return (await response.text()).includes('Recorded:');
			}),
		),
	);
	expect(again.every((recorded) => !recorded), 'no second answer is recorded', again.filter(Boolean).length);
	// n8n answers a link of a finished execution itself, before and instead of resuming anything:
	// once every second answer has come back, nothing more can start from it.
	expect(isDeepStrictEqual(await statusCounts(queueEnv), { success: WAITING }), 'and none started an execution');
	const sentAfter = sandbox.requests.filter((request) => request.path === '/v1/sms/notification').length;
	expect(sentAfter === WAITING, `the service received ${WAITING} SMS in all: nothing sent twice (restart and answers included)`, sentAfter);

	const toPage = answered.map((answer) => answer.paged);
	const toFinish = answered.map((answer) => (outcomes.get(answer.executionId)?.stoppedAt ?? NaN) - answer.sent);

	// The yardstick, same run, same queue: n8n's Wait node resumed by a POST to its resume URL.
	sandbox.reset();
	await step('activate the Wait-node workflow', async () => await stack.client.activateWorkflow(BASELINE_ID));
	const baselineAccepted = await step(`${WAITING} events to its production webhook, at once`, async () =>
		await postEvents(stack.n8n.url, BASELINE_PATH, Array.from({ length: WAITING }, (_, index) => event(index))),
	);
	expect(baselineAccepted.every((status) => status === 200), `the Wait-node workflow took ${WAITING} events`, baselineAccepted.filter((status) => status !== 200));
	const baselineWaiting = await step(`wait until its ${WAITING} executions wait`, async () =>
		await countsBecome(queueEnv, (counts) => (counts.waiting ?? 0) >= WAITING || Object.keys(counts).some((status) => !['new', 'running', 'waiting'].includes(status)), BASELINE_ID),
	);
	expect(isDeepStrictEqual(baselineWaiting, { waiting: WAITING }), `${WAITING} Wait-node executions wait`, baselineWaiting);
	const resumeUrls = sandbox.requests
		.filter((request) => request.path === '/v1/sms/notification')
		.map((request) => (request.body as { message: string }).message);
	const resumed = await step(`${WAITING} resume calls at once`, async () =>
		await Promise.all(
			resumeUrls.map(async (url) => {
				const sent = Date.now();
				const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'approved=true' });
				await response.arrayBuffer();
				return { executionId: new URL(url).pathname.split('/')[2], sent, paged: Date.now() - sent, status: response.status };
			}),
		),
	);
	expect(resumed.every((call) => call.status === 200), 'n8n took every resume call', resumed.filter((call) => call.status !== 200).slice(0, 5));
	const baselineDone = await step('wait until they have finished', async () =>
		await countsBecome(queueEnv, (counts) => (counts.success ?? 0) + (counts.error ?? 0) + (counts.crashed ?? 0) >= WAITING, BASELINE_ID),
	);
	expect(isDeepStrictEqual(baselineDone, { success: WAITING }), `all ${WAITING} Wait-node executions finished`, baselineDone);
	const baselineFinish = await Promise.all(
		resumed.map(async (call) => {
			const row = await stack.client.request<{ stoppedAt?: string }>('GET', `/executions/${call.executionId}`);
			return Date.parse(row.stoppedAt ?? '') - call.sent;
		}),
	);

	const ratio = (ours: number[], theirs: number[]): string => (percentile(ours, 0.5) / percentile(theirs, 0.5)).toFixed(2);
	console.log(`\nFigures (${WAITING} answers at once; main + 2 workers at concurrency ${WORKER_CONCURRENCY}; n8n ${N8N_VERSION}; ${cpus().length} cores, 1-minute load average ${loadBefore.toFixed(2)} before the answers):`);
	console.log(`  answer POST → the node's “recorded” page: ${summary(toPage)}`);
	console.log(`  answer POST → resumed execution finished (stoppedAt): ${summary(toFinish)}`);
	console.log(`  n8n's Wait node (measured after, on warm workers), resume POST → n8n's answer: ${summary(resumed.map((call) => call.paged))}`);
	console.log(`  n8n's Wait node, resume POST → execution finished: ${summary(baselineFinish)}`);
	console.log(`  median ratio, this node ÷ n8n's Wait node: ${ratio(toPage, resumed.map((call) => call.paged))}× to the answer page, ${ratio(toFinish, baselineFinish)}× to the finish`);
});
