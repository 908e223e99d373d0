/**
 * Send Once Per Key, Dry Run and Retry On Fail check, in real n8n (2.8.4, or N8N_VERSION=1.123.x):
 * the node's `options.dedupeKey` on n8n's deduplication store (kept in n8n's database),
 * `options.dryRun`, and n8n's node setting Retry On Fail. Regular mode (the main instance runs the
 * executions) first; then queue mode (Postgres and Redis, main + `n8n worker`, manual executions
 * offloaded): the same scenarios except Dry Run, on workers, the second SMS run on a fresh worker
 * process so that the keys can only have come from the database.
 *
 * Every assertion is printed (✔/✘) and all are evaluated; the check fails if any failed.
 * scripts/n8n/run-checks.ts runs either half alone (`send-once`, `send-once-queue`).
 *
 *   npx tsx scripts/n8n/check-send-once.ts     (after `npm run build`; queue mode needs postgresql and redis-server)
 */
import { isDeepStrictEqual } from 'node:util';

import type { Check } from './lib/check';
import { queueCheck, runIfMain } from './lib/check';
import { N8N_VERSION } from './lib/config';
import type { ExampleWorkflow } from './lib/examples';
import { codeItems, manualTrigger, packageNode, workflowFixture } from './lib/examples';
import type { NodeItem } from './lib/n8n';
import { stopGroup } from './lib/process';
import { countsBecome, finishedIn } from './lib/queue';
import type { Mode } from './lib/sendOnceRuns';
import { burst, burstWorkflow, MAYBE_ORDER, maybeDelivered, REFUSED_ORDER, refusedThenSent, run } from './lib/sendOnceRuns';
import { step } from './lib/stack';

const SENDER = '+6280011112222';

const ORDERS = [1, 2, 3].map((n) => ({ orderId: `ORD-${n}`, phone: `+628123450000${n}`, text: `Order ORD-${n} has shipped.` }));
/** Invoices to send as documents; the third recipient has not started the chat (yet). */
const INVOICES = [1, 2, 3].map((n) => ({ invoiceId: `INV-${n}`, phone: `+628129870000${n}` }));
const LATE_STARTER = INVOICES[2].phone;
/** The retry check's messages: three SMS in flight at once. */
const RETRY_ORDERS = ORDERS.map((order) => ({ ...order, text: `${order.text} (retry check)` }));

const smsBody = (order: { phone: string; text: string }): { phone_number: string; message: string } => ({ phone_number: order.phone, message: order.text });
const sms = (options: Record<string, unknown>): Record<string, unknown> => ({ resource: 'sms', operation: 'send', phoneNumber: '={{ $json.phone }}', message: '={{ $json.text }}', options });

/** Trigger → "Items" (a Code node putting out `items`) → "Send" (this package's node, with node `settings`). */
const workflow = (id: string, name: string, items: object[], send: Record<string, unknown>, settings: Record<string, unknown> = {}): ExampleWorkflow =>
	workflowFixture(id, name, [manualTrigger(), codeItems('Items', items), packageNode('Send', send, settings)]);

const DOCUMENT = {
	resource: 'chatMessage',
	operation: 'sendMedia',
	from: SENDER,
	to: '={{ $json.phone }}',
	mediaType: 'document',
	mediaUrl: '={{ "https://cdn.example.com/invoices/" + $json.invoiceId + ".pdf" }}',
	options: { dedupeKey: '={{ $json.invoiceId }}', concurrency: 1 },
};

/** The workflows of one half: the SMS and media ones with Send Once Per Key, Retry On Fail (a 429 not waited for), a maybe-delivered send, a refused one, a webhook burst. */
const workflows = (suffix: string) => ({
	sms: workflow(`mcnSendOnceSms${suffix}`, 'Send once: order SMS', ORDERS, sms({ dedupeKey: '={{ $json.orderId }}' })),
	maybe: workflow(`mcnSendOnceMaybe${suffix}`, 'Send once: an answer that leaves delivery open', [MAYBE_ORDER], sms({ dedupeKey: '={{ $json.orderId }}' })),
	refused: workflow(`mcnSendOnceRefused${suffix}`, 'Send once: a message the service refuses', [REFUSED_ORDER], sms({ dedupeKey: '={{ $json.orderId }}' })),
	burst: burstWorkflow(suffix, `mcn-send-once-burst-${suffix}`, suffix === '01' ? 'lastNode' : 'onReceived'),
	media: workflow(`mcnSendOnceDoc${suffix}`, 'Send once: invoice documents', INVOICES, DOCUMENT, { onError: 'continueRegularOutput' }),
	retry: workflow(`mcnRetrySms${suffix}`, 'Retry On Fail: order SMS', RETRY_ORDERS, sms({ concurrency: 3, rateLimitMaxWait: 0 }), { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 }),
});

const paired = (items: NodeItem[]): boolean =>
	items.every((item, index) => isDeepStrictEqual(item.pairedItem, { item: index }) || isDeepStrictEqual(item.pairedItem, [{ item: index }]));

const skippedAll = (items: NodeItem[], keys: string[]): boolean =>
	items.length === keys.length &&
	items.every((item, index) => item.json.skipped === true && item.json.reason === 'alreadySent' && item.json.dedupeKey === keys[index]);

const succeeded = (items: NodeItem[]): boolean => items.length === 3 && items.every((item) => item.json.message === 'success') && paired(items);

/** Dry Run first, with the same keys: it must neither send nor record them. */
async function dryRun(mode: Mode, { id, nodes, connections }: ExampleWorkflow): Promise<void> {
	const { name, sandbox, verify } = mode;
	// Saved as the editor saves before it runs (n8n 2.41 runs what is saved), then put back.
	const withDryRun = nodes.map((node) =>
		node.name === 'Send' ? { ...node, parameters: { ...node.parameters, options: { ...(node.parameters.options as object), dryRun: true } } } : node,
	);
	await mode.client.updateWorkflow(id, { nodes: withDryRun, connections });
	const dry = await run(mode, 'SMS workflow with Dry Run', id, 'dry run succeeded');
	await mode.client.updateWorkflow(id, { nodes, connections });
	verify(dry.sent.length === 0, `${name}: dry run sent nothing`, dry.sent);
	const request = (index: number) => ({
		method: 'POST',
		url: `${sandbox.url}/v1/sms/notification`,
		headers: { Authorization: '***', 'Content-Type': 'application/json' },
		body: smsBody(ORDERS[index]),
	});
	verify(
		dry.out.length === 3 && paired(dry.out) && dry.out.every((item, index) => item.json.dryRun === true && isDeepStrictEqual(item.json.request, request(index))),
		`${name}: dry run output: the exact request per item (POST, URL, Authorization masked, body), with pairedItem`,
		dry.out.map((item) => item.json),
	);
	verify(!JSON.stringify(dry.out).includes(sandbox.apiKey), `${name}: the API key appears nowhere in the dry-run output`);
}

/** The same three orders twice: the first run sends three SMS, the second none, its items say why. */
async function sendTwice(mode: Mode, id: string): Promise<void> {
	const { name, verify } = mode;
	const first = await run(mode, 'SMS workflow, first run', id, 'first run succeeded');
	const bodies = first.sent.map((request) => request.body).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
	verify(
		first.sent.length === 3 && first.sent.every((request) => request.status === 200) && isDeepStrictEqual(bodies, ORDERS.map(smsBody)),
		`${name}: first run sent the 3 SMS, one per order`,
		first.sent.map((request) => ({ status: request.status, body: request.body })),
	);
	verify(succeeded(first.out), `${name}: 3 success items with pairedItem`, first.out);

	await mode.beforeSecondRun?.();
	const second = await run(mode, 'SMS workflow, second run (same keys)', id, 'second run succeeded');
	verify(second.sent.length === 0, `${name}: second run sent nothing`, second.sent);
	verify(
		skippedAll(second.out, ORDERS.map((order) => order.orderId)) && paired(second.out),
		`${name}: second run output 3 × { skipped: true, reason: 'alreadySent', dedupeKey } with pairedItem`,
		second.out,
	);
}

/** A media item the service refuses (the recipient has not started the chat) is sent, alone, by the run after the chat started. */
async function failedItemRerun(mode: Mode, id: string): Promise<void> {
	const { name, sandbox, verify } = mode;
	const to = (request: { body: unknown }): string => (request.body as { to: string }).to;
	const refusing = 'invoice workflow, one recipient has not started the chat';
	const first = await run(mode, refusing, id, 'run with a refused item finished (On Error → Continue)');
	const delivered = first.sent.filter((request) => request.status === 200).map(to).sort();
	const refused = first.sent.filter((request) => request.status === 403).map(to);
	verify(
		isDeepStrictEqual(delivered, [INVOICES[0].phone, INVOICES[1].phone]) && isDeepStrictEqual(refused, [LATE_STARTER]),
		`${name}: 2 delivered, the third refused by the service (HTTP 403)`,
		first.sent.map((request) => ({ to: to(request), status: request.status })),
	);
	const [one, two, three] = first.out.map((item) => item.json);
	verify(
		first.out.length === 3 && one.message === 'success' && two.message === 'success' && three.error !== undefined,
		`${name}: output: 2 sent, item 2 an error item`,
		first.out.map((item) => item.json),
	);

	sandbox.startChat(LATE_STARTER);
	const second = await run(mode, 'invoice workflow re-run after the recipient started the chat', id, 're-run succeeded');
	const document = { from: SENDER, to: LATE_STARTER, type: 'document', recipient_type: 'individual', document: { link: 'https://cdn.example.com/invoices/INV-3.pdf' } };
	verify(
		second.sent.length === 1 && second.sent[0].status === 200 && isDeepStrictEqual(second.sent[0].body, document),
		`${name}: the re-run sent only the failed one (INV-3)`,
		second.sent.map((request) => ({ status: request.status, body: request.body })),
	);
	verify(
		skippedAll(second.out.slice(0, 2), ['INV-1', 'INV-2']) && second.out[2]?.json.message === 'success' && paired(second.out),
		`${name}: output: INV-1 and INV-2 skipped (alreadySent), INV-3 sent`,
		second.out.map((item) => item.json),
	);

	const third = await run(mode, 'invoice workflow, third run', id);
	verify(third.execution.status === 'success' && third.sent.length === 0, `${name}: a third run sends nothing`, third.sent);
}

/**
 * n8n's Retry On Fail re-runs the whole node: the service refuses one of three requests with a 429
 * (Rate Limit Max Wait 0, so the node fails), and the second try must send that one only.
 */
async function retryOnFail(mode: Mode, id: string): Promise<void> {
	const { name, sandbox, verify } = mode;
	sandbox.injectFault({ kind: 'status', status: 429, retryAfter: '1', path: '/v1/sms/notification' });
	const retried = await run(mode, 'Retry On Fail workflow, the service refuses one request once', id, 'the retried run succeeded');
	const delivered = retried.sent.filter((request) => request.delivered).map((request) => JSON.stringify(request.body)).sort();
	verify(
		retried.sent.length === 4 &&
			retried.sent.filter((request) => request.status === 429).length === 1 &&
			isDeepStrictEqual(delivered, RETRY_ORDERS.map((order) => JSON.stringify(smsBody(order))).sort()),
		`${name}: 4 requests in all (3, then only the refused one again): each message delivered exactly once`,
		retried.sent.map((request) => ({ status: request.status, body: request.body })),
	);
	verify(succeeded(retried.out), `${name}: 3 success items with pairedItem`, retried.out.map((item) => item.json));
}

export const sendOnceCheck: Check = {
	name: `send-once, Dry Run and Retry On Fail check, n8n ${N8N_VERSION}`,
	prepare: () => {
		const wf = workflows('01');
		return {
			workflows: [wf.sms, wf.media, wf.retry, wf.maybe, wf.refused, wf.burst],
			run: async ({ sandbox, stack, verify }) => {
				const { client } = stack;
				for (const invoice of INVOICES.slice(0, 2)) sandbox.startChat(invoice.phone);
				const mode: Mode = { name: 'regular', client, sandbox, verify };
				await dryRun(mode, wf.sms);
				await sendTwice(mode, wf.sms.id);
				await failedItemRerun(mode, wf.media.id);
				await retryOnFail(mode, wf.retry.id);
				await maybeDelivered(mode, wf.maybe.id);
				await refusedThenSent(mode, wf.refused.id);
				await step('activate the webhook workflow', async () => await client.activateWorkflow(wf.burst.id));
				// Each call is answered when its execution is over.
				await burst(mode, stack.n8n.url, 'mcn-send-once-burst-01', { exact: true, finished: async () => {} });
			},
		};
	},
};

/** The same on workers (Dry Run aside); the second SMS run on a fresh worker process, so that the keys can only come from the database. */
export const sendOnceQueueCheck = queueCheck(`send-once and Retry On Fail in queue mode, n8n ${N8N_VERSION}`, () => {
	const wf = workflows('02');
	return {
		workflows: [wf.sms, wf.media, wf.retry, wf.maybe, wf.refused, wf.burst],
		run: async ({ sandbox, stack, verify }) => {
			for (const invoice of INVOICES.slice(0, 2)) sandbox.startChat(invoice.phone);
			const workersSeen: string[] = [];
			const mode: Mode = {
				name: 'queue',
				client: stack.client,
				sandbox,
				verify,
				ranWhere: (execution) => {
					const line = `Worker started execution ${execution.id} `;
					const worker = stack.workers.find((candidate) => candidate.group.output().includes(line));
					verify(worker !== undefined, `queue: execution ${execution.id} ran on a worker (its log says "${line.trim()}")`);
					verify(!stack.n8n.group.output().includes(line), 'queue: not on the main instance');
					if (worker) workersSeen.push(worker.group.name);
				},
				beforeSecondRun: async () => {
					for (const worker of stack.workers) await stopGroup(worker.group);
					stack.workers = [await stack.startWorker('n8n worker 3')];
				},
			};
			await sendTwice(mode, wf.sms.id);
			await failedItemRerun(mode, wf.media.id);
			await retryOnFail(mode, wf.retry.id);
			await maybeDelivered(mode, wf.maybe.id);
			await refusedThenSent(mode, wf.refused.id);
			const queueMode: Mode = { ...mode, ranWhere: undefined };
			await step('activate the webhook workflow', async () => await stack.client.activateWorkflow(wf.burst.id));
			const finished = async (count: number) => {
				await countsBecome(stack.queueEnv, wf.burst.id, (counts) => finishedIn(counts) >= count);
			};
			await burst(queueMode, stack.n8n.url, 'mcn-send-once-burst-02', { exact: false, finished });
			verify(workersSeen.includes('n8n worker 3') && workersSeen.some((name) => name !== 'n8n worker 3'), 'queue: the runs were split over worker processes started apart', workersSeen);
		},
	};
});

runIfMain(module, sendOnceCheck, sendOnceQueueCheck);
