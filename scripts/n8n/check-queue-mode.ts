/**
 * Queue-mode check: n8n's distributed engine as n8n supports it. Postgres and Redis on 127.0.0.1
 * and free ports, an n8n main instance and two `n8n worker` at n8n's default concurrency, all in
 * queue mode with manual executions offloaded to workers, Postgres pool as documented
 * (QUEUE_DB_POOL_SIZE).
 *
 *   1. Example workflows started through the REST run endpoint must be executed by a worker (its
 *      log says so), not by the main instance, and reach the sandbox.
 *   2. A burst: an active workflow with a production webhook (one SMS per event) gets
 *      BURST_SIZE POSTs at once, one item each. Every one must become a successful execution on
 *      a worker, and every message must reach the sandbox exactly once.
 *
 *   npx tsx scripts/n8n/check-queue-mode.ts     (after `npm run build`; needs postgresql and redis-server)
 */
import { isDeepStrictEqual } from 'node:util';

import type { CheckContext } from './lib/check';
import { queueCheck, runIfMain } from './lib/check';
import { N8N_VERSION } from './lib/config';
import { loadExamples, packageNode, postEvents, runExample, webhookTrigger, workflowFixture } from './lib/examples';
import type { QueueStack } from './lib/queue';
import { countsBecome, finishedIn, queryPostgres, startedOn } from './lib/queue';
import { requestsTo, smsOf } from './lib/sandbox';
import { step } from './lib/stack';

const BURST_SIZE = Number(process.env.BURST_SIZE ?? 300);
const BURST_PATH = 'mcn-queue-burst';

/** The message of burst event `index`: each one different, so a double send cannot hide. */
const burstEvent = (index: number): { phone: string; text: string } => ({
	phone: `+62812${String(index).padStart(7, '0')}`,
	text: `Burst event ${index} of ${BURST_SIZE}`,
});

const BURST = workflowFixture('mcnQueueBurst001', 'Queue mode: one SMS per webhook event', [
	webhookTrigger(BURST_PATH),
	packageNode('Send', { resource: 'sms', operation: 'send', phoneNumber: '={{ $json.body.phone }}', message: '={{ $json.body.text }}', options: {} }),
]);

const examples = loadExamples().filter((example) => ['template-send.json', 'bulk-sms.json'].includes(example.file));

async function body({ sandbox, stack, expect }: CheckContext & { stack: QueueStack }): Promise<void> {
	const { queueEnv, workers } = stack;
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
	const components = (templates[0].body as { template: { components: Array<{ type: string }> } }).template.components;
	expect(components.map((component) => component.type).join(',') === 'header,body,button,button', 'with header, body and two quick-reply buttons', templates[0].body);
	const sms = requestsTo(sandbox);
	expect(sms.length === 3 && sms.every((request) => request.status === 200), 'and the three valid SMS of the bulk example (its Code node ran on a worker too)');

	// The burst: the commonest real shape, one execution per event, all arriving at once.
	sandbox.reset();
	const startedBefore = workers.map(startedOn);
	await step('activate the webhook workflow', async () => await stack.client.activateWorkflow(BURST.id));
	const answers = await step(`${BURST_SIZE} POSTs at once to its production webhook`, async () =>
		await postEvents(stack.n8n.url, BURST_PATH, Array.from({ length: BURST_SIZE }, (_, index) => burstEvent(index))),
	);
	expect(answers.every((status) => status === 200), `n8n accepted all ${BURST_SIZE} webhook calls (HTTP 200)`, answers.filter((status) => status !== 200));
	const statuses = await step('wait until every execution has finished', async () => await countsBecome(queueEnv, BURST.id, (counts) => finishedIn(counts) >= BURST_SIZE));
	expect(isDeepStrictEqual(statuses, { success: BURST_SIZE }), `${BURST_SIZE} executions, every one a success`, statuses);

	const burstSms = requestsTo(sandbox);
	const received = burstSms.map((request) => smsOf(request).message);
	const missing = Array.from({ length: BURST_SIZE }, (_, index) => burstEvent(index).text).filter((text) => !received.includes(text));
	const repeated = received.filter((text, index) => received.indexOf(text) !== index);
	expect(missing.length === 0, `the sandbox received all ${BURST_SIZE} messages`, missing.slice(0, 20));
	expect(repeated.length === 0 && burstSms.length === BURST_SIZE, 'each exactly once (no double sends)', repeated.slice(0, 20));
	expect(burstSms.every((request) => request.status === 200 && request.delivered), 'and every one accepted and delivered by the service');
	const ran = workers.map((worker, index) => startedOn(worker) - startedBefore[index]);
	expect(ran.every((count) => count > 0) && ran.reduce((sum, count) => sum + count, 0) === BURST_SIZE, `the workers ran them all, split between them (${ran.join(' + ')})`, ran);
	expect(startedOn(stack.n8n) === 0, 'the main instance ran none itself');
}

export const queueModeCheck = queueCheck(`queue-mode check, n8n ${N8N_VERSION} (Postgres, 2 workers)`, () => ({
	workflows: [...examples.map((example) => example.workflow), BURST],
	run: body,
}));

runIfMain(module, queueModeCheck);
