/**
 * Queue-mode check: n8n's distributed engine as n8n supports it. Postgres and Redis on 127.0.0.1
 * and free ports, an n8n main instance and two `n8n worker --concurrency=50`, all in queue mode
 * with manual executions offloaded to workers.
 *
 *   1. Example workflows started through the REST run endpoint must be executed by a worker (its
 *      log says so), not by the main instance, and reach the sandbox.
 *   2. A burst: an active workflow with a production webhook (one SMS per event) gets
 *      BURST_SIZE POSTs at once, one item each. Every one must become a successful execution on
 *      a worker, and every message must reach the sandbox exactly once.
 *
 *   npx tsx scripts/n8n/check-queue-mode.ts     (after `npm run build`; needs postgresql and redis-server)
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

import { runCheck } from './lib/check';
import type { ExampleWorkflow } from './lib/examples';
import { loadExamples, packageNode, postEvents, runExample, sandboxCredential, webhookTrigger } from './lib/examples';
import type { N8nProcess } from './lib/n8n';
import { startN8n } from './lib/n8n';
import { queryPostgres } from './lib/postgres';
import { delay } from './lib/process';
import { startQueue } from './lib/queue';
import { launch, step } from './lib/stack';

const BURST_SIZE = Number(process.env.BURST_SIZE ?? 300);
const WORKER_CONCURRENCY = 50;
const BURST_WORKFLOW_ID = 'mcnQueueBurst001';
const BURST_PATH = 'mcn-queue-burst';

/** The message of burst event `index`: each one different, so a double send cannot hide. */
const burstEvent = (index: number): { phone: string; text: string } => ({
	phone: `+62812${String(index).padStart(7, '0')}`,
	text: `Burst event ${index} of ${BURST_SIZE}`,
});

function burstWorkflow(): ExampleWorkflow {
	return {
		id: BURST_WORKFLOW_ID,
		name: 'Queue mode: one SMS per webhook event',
		nodes: [
			webhookTrigger('mcn-burst-webhook', '5a1c6f0e-4b8e-4f5e-9a53-3c1d1b0e9b71', BURST_PATH),
			packageNode('mcn-burst-send', 'Send', [220, 0], { resource: 'sms', operation: 'send', phoneNumber: '={{ $json.body.phone }}', message: '={{ $json.body.text }}', options: {} }),
		],
		connections: { Webhook: { main: [[{ node: 'Send', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** How many executions a process's whole log (its file: the output kept in memory is capped) says it started. */
const startedOn = (n8n: N8nProcess): number => (readFileSync(n8n.logFile, 'utf8').match(/Worker started execution/g) ?? []).length;

runCheck('queue-mode check (Postgres, 2 workers)', async ({ sandbox, expect }) => {
	const queueEnv = await startQueue();

	const examples = loadExamples().filter((example) => ['template-send.json', 'bulk-sms.json'].includes(example.file));
	const stack = await launch({
		label: 'queue',
		credentials: [sandboxCredential(sandbox.url, sandbox.apiKey)],
		workflows: [...examples.map((example) => example.workflow), burstWorkflow()],
		extraEnv: queueEnv,
	});
	const workers: N8nProcess[] = [];
	for (const name of ['n8n worker 1', 'n8n worker 2']) {
		workers.push(
			await step(`start ${name} (concurrency ${WORKER_CONCURRENCY})`, async () =>
				await startN8n({ userFolder: stack.userFolder, command: 'worker', name, args: [`--concurrency=${WORKER_CONCURRENCY}`], extraEnv: queueEnv }),
			),
		);
	}
	const database = await queryPostgres(queueEnv, "select count(*) from information_schema.tables where table_name = 'execution_entity'");
	expect(database[0] === '1', `n8n keeps its executions in Postgres (database ${queueEnv.DB_POSTGRESDB_DATABASE})`);

	for (const example of examples) {
		const result = await step(`run ${example.file} through the REST run endpoint`, async () => await runExample(stack.client, example));
		expect(result.passed, `${example.file}: execution ${result.execution.id} ${result.execution.status}`, result.problem ?? result.rows);
		const started = `Worker started execution ${result.execution.id} `;
		expect(workers.some((worker) => worker.group.output().includes(started)), `a worker log says "${started.trim()} (job …)"`);
		expect(!stack.n8n.group.output().includes(started), 'the main instance did not run it itself');
	}

	const templates = sandbox.requests.filter((request) => (request.body as { type?: string }).type === 'template');
	expect(templates.length === 1 && templates[0].status === 200, 'the sandbox received the template request from a worker');
	expect(
		(templates[0].body as { template: { components: Array<{ type: string }> } }).template.components.map((component) => component.type).join(',') ===
			'header,body,button,button',
		'with header, body and two quick-reply buttons',
		templates[0].body,
	);
	const sms = sandbox.requests.filter((request) => request.path === '/v1/sms/notification');
	expect(sms.length === 3 && sms.every((request) => request.status === 200), 'and the three valid SMS of the bulk example (its Code node ran on a worker too)');

	// The burst: the commonest real shape, one execution per event, all arriving at once.
	sandbox.reset();
	const startedBefore = workers.map(startedOn);
	await step('activate the webhook workflow', async () => await stack.client.activateWorkflow(BURST_WORKFLOW_ID));
	const answers = await step(`${BURST_SIZE} POSTs at once to its production webhook`, async () =>
		await postEvents(stack.n8n.url, BURST_PATH, Array.from({ length: BURST_SIZE }, (_, index) => burstEvent(index))),
	);
	expect(answers.every((status) => status === 200), `n8n accepted all ${BURST_SIZE} webhook calls (HTTP 200)`, answers.filter((status) => status !== 200));

	const statuses = await step('wait until every execution has finished', async () => {
		// A deadline against hanging, not a speed requirement.
		const deadline = Date.now() + 10 * 60_000;
		for (;;) {
			const rows = await queryPostgres(
				queueEnv,
				`select status, count(*) from execution_entity where "workflowId" = '${BURST_WORKFLOW_ID}' group by status order by status`,
			);
			const counts = Object.fromEntries(rows.map((row) => row.split('|')).map(([status, count]) => [status, Number(count)]));
			const finished = Object.entries(counts).filter(([status]) => !['new', 'running', 'waiting'].includes(status)).reduce((sum, [, count]) => sum + count, 0);
			if (finished >= BURST_SIZE || Date.now() > deadline) return counts;
			await delay(1000);
		}
	});
	expect(isDeepStrictEqual(statuses, { success: BURST_SIZE }), `${BURST_SIZE} executions, every one a success`, statuses);

	const burstSms = sandbox.requests.filter((request) => request.path === '/v1/sms/notification');
	const received = burstSms.map((request) => (request.body as { message: string }).message);
	const missing = Array.from({ length: BURST_SIZE }, (_, index) => burstEvent(index).text).filter((text) => !received.includes(text));
	const repeated = received.filter((text, index) => received.indexOf(text) !== index);
	expect(missing.length === 0, `the sandbox received all ${BURST_SIZE} messages`, missing.slice(0, 20));
	expect(repeated.length === 0 && burstSms.length === BURST_SIZE, 'each exactly once (no double sends)', repeated.slice(0, 20));
	expect(burstSms.every((request) => request.status === 200 && request.delivered), 'and every one accepted and delivered by the service');
	const ran = workers.map((worker, index) => startedOn(worker) - startedBefore[index]);
	expect(
		ran.every((count) => count > 0) && ran.reduce((sum, count) => sum + count, 0) === BURST_SIZE,
		`the workers ran them all, split between them (${ran.join(' + ')})`,
		ran,
	);
	expect(startedOn(stack.n8n) === 0, 'the main instance ran none itself');
});
