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
 *      within 5 seconds, half approve and half decline; n8n refuses none (no 503). Every execution resumes exactly once, on a worker,
 *      with the answer its own person gave; a second answer to each changes nothing.
 *   4. Figures, printed (not asserted): n8n's failed database pings meanwhile, time from each answer POST to the node's page and to the
 *      resumed execution's finish (n8n's own stoppedAt), median and p95, beside the same for
 *      n8n's own Wait node resumed by a webhook call (100 executions of the same queue, same run).
 *
 *   npx tsx scripts/n8n/check-send-and-wait-queue.ts     (after `npm run build`; needs postgresql and redis-server)
 *
 * WAITING (default 100) sets how many executions wait and are answered; SPREAD_MS (default 50) the
 * time between two answers; DB_POSTGRESDB_POOL_SIZE n8n's database pool (default 10, QUEUE_DB_POOL_SIZE).
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';

import { recordedAnswer } from './lib/answers';
import type { CheckContext } from './lib/check';
import { queueCheck, runIfMain } from './lib/check';
import { N8N_VERSION } from './lib/config';
import type { ExampleWorkflow } from './lib/examples';
import { noOp, packageNode, postEvents, webhookTrigger, workflowFixture } from './lib/examples';
import { firstJson, postForm, startN8n } from './lib/n8n';
import { stopGroup } from './lib/process';
import type { QueueStack } from './lib/queue';
import { QUEUE_DB_POOL_SIZE, countsBecome, finishedIn, startedOn, statusCounts } from './lib/queue';
import { requestsTo, smsOf } from './lib/sandbox';
import { step } from './lib/stack';

/** `respondedAt` of every answer here is later than this. */
const CHECK_STARTED = Date.now();

const WAITING = Number(process.env.WAITING ?? 100);
/**
 * The answers come in over WAITING × SPREAD_MS (5 s by default), one every SPREAD_MS, as people
 * answering "at once" do, rather than in one instant: an answer that arrives while n8n's database
 * ping has just failed gets a 503, which one instant's burst, let in before the ping, would hide.
 */
const SPREAD_MS = Number(process.env.SPREAD_MS ?? 50);

/** Event `index`'s phone number and question: each one different, so a mixed-up answer or a double send shows. */
const event = (index: number): { phone: string; text: string } => ({
	phone: `+62813${String(index).padStart(7, '0')}`,
	text: `Approve refund ${index} of ${WAITING}?`,
});
const events = Array.from({ length: WAITING }, (_, index) => event(index));
/** Half the people approve, half decline. */
const approves = (index: number): boolean => index % 2 === 0;

const ASKING = workflowFixture('mcnWaitQueue0001', 'Queue mode: approve each event by SMS', [
	webhookTrigger('mcn-wait-queue'),
	packageNode('Ask', {
		resource: 'sms',
		operation: 'sendAndWait',
		phoneNumber: '={{ $json.body.phone }}',
		message: '={{ $json.body.text }}',
		responseType: 'approval',
		approvalOptions: { values: { approvalType: 'double' } },
	}),
	noOp(),
]);
const ASK_NODE_ID = ASKING.nodes[1].id;

/**
 * The yardstick for the figures: n8n's own Wait node resumed by a webhook call, in the same queue.
 * "Notify" sends the execution's resume URL ($execution.resumeUrl) by SMS, so the check finds it
 * as it finds the node's answer links; "Wait" then waits for a POST to it.
 */
const BASELINE = workflowFixture('mcnWaitQueue0002', 'Queue mode: n8n’s Wait node resumed by a webhook call', [
	webhookTrigger('mcn-wait-baseline'),
	packageNode('Notify', { resource: 'sms', operation: 'send', phoneNumber: '={{ $json.body.phone }}', message: '={{ $execution.resumeUrl }}', options: {} }),
	{ name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1.1, parameters: { resume: 'webhook', httpMethod: 'POST', options: {} } },
	noOp(),
]);

function percentile(values: number[], fraction: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

const summary = (values: number[]): string => `median ${percentile(values, 0.5)} ms, p95 ${percentile(values, 0.95)} ms, max ${Math.max(...values)} ms`;

/** Activates the workflow, posts one event per person to its webhook at once, and expects each execution to wait. */
async function startWaiting(stack: QueueStack, expect: CheckContext['expect'], workflow: ExampleWorkflow, what: string): Promise<void> {
	await step(`activate ${what}`, async () => await stack.client.activateWorkflow(workflow.id));
	const path = String(workflow.nodes[0].parameters.path);
	const accepted = await step(`${WAITING} events to its production webhook, at once`, async () => await postEvents(stack.n8n.url, path, events));
	expect(accepted.every((status) => status === 200), `${what} took all ${WAITING} events`, accepted.filter((status) => status !== 200));
	const waiting = await step(`wait until its ${WAITING} executions wait`, async () =>
		await countsBecome(stack.queueEnv, workflow.id, (counts) => (counts.waiting ?? 0) >= WAITING || finishedIn(counts) > 0),
	);
	expect(isDeepStrictEqual(waiting, { waiting: WAITING }), `${WAITING} executions of ${what} wait`, waiting);
}

/**
 * How many of n8n's database pings have failed on the main instance since its log had `from`
 * characters ("Database connection timed out" on 2.8, "Database ping failed" on newer 2.x). From
 * a failed ping to the next good one, n8n answers every request with 503 "Database is not ready!".
 */
const failedPings = (stack: QueueStack, from: number): number =>
	(readFileSync(stack.n8n.logFile, 'utf8').slice(from).match(/Database connection timed out|Database ping failed/g) ?? []).length;

/** POSTs an answer to each link, one every SPREAD_MS: when it was sent, how long the answer page took, n8n's status and page. */
async function answerAll<T extends { url: string }>(links: T[], body: (link: T) => string) {
	return await Promise.all(
		links.map(async (link, index) => {
			await sleep(index * SPREAD_MS);
			const sent = Date.now();
			const page = await postForm(link.url, body(link));
			return { ...link, sent, paged: Date.now() - sent, ...page };
		}),
	);
}

async function body({ sandbox, stack, expect }: CheckContext & { stack: QueueStack }): Promise<void> {
	const { client, queueEnv } = stack;
	const countsAre = async (expected: Record<string, number>, workflowId = ASKING.id): Promise<boolean> => isDeepStrictEqual(await statusCounts(queueEnv, workflowId), expected);
	await startWaiting(stack, expect, ASKING, 'the workflow');

	const sms = requestsTo(sandbox);
	expect(sms.length === WAITING && sms.every((request) => request.status === 200 && request.delivered), `${WAITING} SMS sent and delivered, one per event`, sms.length);
	const links = sms.flatMap((request) => {
		const { phone_number: phone, message } = smsOf(request);
		const index = Number(phone.slice('+62813'.length));
		const [text, url] = message.split('\n');
		const executionId = new RegExp(`/webhook-waiting/(\\d+)/${ASK_NODE_ID}(\\?|$)`).exec(url ?? '')?.[1];
		return event(index).phone === phone && text === event(index).text && executionId ? [{ index, executionId, url }] : [];
	});
	expect(
		links.length === WAITING && new Set(links.map((link) => link.index)).size === WAITING && new Set(links.map((link) => link.executionId)).size === WAITING,
		'each SMS carries its own event’s question and its own execution’s answer link',
		links.length,
	);

	await step('restart n8n: stop both workers and the main instance, start them again', async () => {
		for (const instance of [...stack.workers, stack.n8n]) await stopGroup(instance.group, 30_000);
		stack.n8n = await startN8n({ userFolder: stack.userFolder, port: stack.n8n.port, extraEnv: queueEnv });
		await client.login();
		stack.workers = [await stack.startWorker('n8n worker 1'), await stack.startWorker('n8n worker 2')];
	});
	expect(await countsAre({ waiting: WAITING }), `after the restart all ${WAITING} still wait`);

	await step('open every link (GET, as a link preview does)', async () => {
		for (const link of links) {
			const response = await fetch(link.url).catch((error: Error) => {
				throw new Error(`GET ${link.url}: ${String(error.cause ?? error)}`);
			});
			const page = await response.text();
			if (response.status !== 200 || !page.includes('Approve')) throw new Error(`GET ${link.url} → ${response.status}\n${page.slice(0, 300)}`);
		}
	});
	expect(await countsAre({ waiting: WAITING }), 'the GETs changed nothing: all still wait');

	const startedBefore = stack.workers.map(startedOn);
	const loadBefore = loadavg()[0];
	const logBefore = readFileSync(stack.n8n.logFile, 'utf8').length;
	const answered = await step(`${WAITING} answers, one every ${SPREAD_MS} ms (half approve, half decline)`, async () => await answerAll(links, (link) => `approved=${approves(link.index)}`));
	const unrecorded = answered.filter((answer) => answer.status !== 200 || !answer.text.includes('Recorded:'));
	const pingsFailed = failedPings(stack, logBefore);
	expect(unrecorded.length === 0, 'every answer got the “recorded” page', {
		notRecorded: unrecorded.length,
		pingsFailed,
		first: unrecorded.slice(0, 5).map(({ text, ...answer }) => ({ ...answer, page: text.slice(0, 300) })),
	});
	const finished = await step('wait until every execution has finished', async () => await countsBecome(queueEnv, ASKING.id, (counts) => finishedIn(counts) >= WAITING));
	expect(isDeepStrictEqual(finished, { success: WAITING }), `all ${WAITING} executions resumed and succeeded (none lost, none added)`, finished);

	const outcomes = new Map(await Promise.all(links.map(async ({ executionId }) => [executionId, await client.execution(executionId)] as const)));
	const wrong = answered.filter((answer) => {
		const outcome = outcomes.get(answer.executionId);
		const ask = firstJson(outcome, 'Ask');
		const askedWho = (ask?.question as { recipient?: unknown } | undefined)?.recipient;
		return (
			!outcome ||
			outcome.data?.resultData.runData.After?.length !== 1 ||
			!isDeepStrictEqual(recordedAnswer(ask?.data, CHECK_STARTED), { answer: { approved: approves(answer.index) }, timed: true }) ||
			askedWho !== event(answer.index).phone
		);
	});
	expect(
		wrong.length === 0,
		'each resumed with its own person’s answer ({ data: { approved, respondedAt } }, question.recipient that person’s number), and After ran once in each',
		wrong.slice(0, 5).map((answer) => ({ answer: answer.index, ask: firstJson(outcomes.get(answer.executionId), 'Ask') })),
	);
	const ran = stack.workers.map((worker, index) => startedOn(worker) - startedBefore[index]);
	expect(ran.reduce((sum, count) => sum + count, 0) === WAITING && startedOn(stack.n8n) === 0, `the workers ran every resumed execution (${ran.join(' + ')}), the main instance none`, ran);

	const again = await step('a second answer to every link', async () => await answerAll(links, (link) => `approved=${!approves(link.index)}`));
	expect(again.every((answer) => !answer.text.includes('Recorded:')), 'no second answer is recorded', again.filter((answer) => answer.text.includes('Recorded:')).length);
	// n8n answers a link of a finished execution itself, before and instead of resuming anything:
	// once every second answer has come back, nothing more can start from it.
	expect(await countsAre({ success: WAITING }), 'and none started an execution');
	expect(requestsTo(sandbox).length === WAITING, `the service received ${WAITING} SMS in all: nothing sent twice (restart and answers included)`, requestsTo(sandbox).length);

	const toPage = answered.map((answer) => answer.paged);
	const toFinish = answered.map((answer) => Date.parse(outcomes.get(answer.executionId)?.stoppedAt ?? '') - answer.sent);

	// The yardstick, same run, same queue: n8n's Wait node resumed by a POST to its resume URL.
	sandbox.reset();
	await startWaiting(stack, expect, BASELINE, 'the Wait-node workflow');
	const resumeUrls = requestsTo(sandbox).map((request) => ({ url: smsOf(request).message }));
	const resumed = await step(`${WAITING} resume calls, one every ${SPREAD_MS} ms`, async () => await answerAll(resumeUrls, () => 'approved=true'));
	expect(resumed.every((call) => call.status === 200), 'n8n took every resume call', resumed.filter((call) => call.status !== 200).slice(0, 5));
	const baselineDone = await step('wait until they have finished', async () => await countsBecome(queueEnv, BASELINE.id, (counts) => finishedIn(counts) >= WAITING));
	expect(isDeepStrictEqual(baselineDone, { success: WAITING }), `all ${WAITING} Wait-node executions finished`, baselineDone);
	const baselineFinish = await Promise.all(
		resumed.map(async (call) => Date.parse((await client.execution(new URL(call.url).pathname.split('/')[2])).stoppedAt ?? '') - call.sent),
	);

	const ratio = (ours: number[], theirs: number[]): string => (percentile(ours, 0.5) / percentile(theirs, 0.5)).toFixed(2);
	const baselinePage = resumed.map((call) => call.paged);
	console.log(`\nFigures (${WAITING} answers, one every ${SPREAD_MS} ms; main + 2 workers at n8n's default concurrency, database pool ${QUEUE_DB_POOL_SIZE}; n8n ${N8N_VERSION}; ${cpus().length} cores, 1-minute load average ${loadBefore.toFixed(2)} before the answers):`);
	console.log(`  answers refused by n8n with 503 "Database is not ready!": ${unrecorded.length}; the main instance's database pings that failed while they came in: ${pingsFailed}`);
	console.log(`  answer POST → the node's “recorded” page: ${summary(toPage)}`);
	console.log(`  answer POST → resumed execution finished (stoppedAt): ${summary(toFinish)}`);
	console.log(`  n8n's Wait node (measured after, on warm workers), resume POST → n8n's answer: ${summary(baselinePage)}`);
	console.log(`  n8n's Wait node, resume POST → execution finished: ${summary(baselineFinish)}`);
	console.log(`  median ratio, this node ÷ n8n's Wait node: ${ratio(toPage, baselinePage)}× to the answer page, ${ratio(toFinish, baselineFinish)}× to the finish`);
}

export const sendAndWaitQueueCheck = queueCheck(
	`send-and-wait in queue mode, n8n ${N8N_VERSION} (Postgres, 2 workers, restart, ${WAITING} answers within ${(WAITING * SPREAD_MS) / 1000} s)`,
	() => ({ workflows: [ASKING, BASELINE], run: body }),
);

runIfMain(module, sendAndWaitQueueCheck);
