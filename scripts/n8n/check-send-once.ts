/**
 * Send Once Per Key, Dry Run and Retry On Fail check, in real n8n (2.8.4, or N8N_VERSION=1.123.x):
 * the node's `options.dedupeKey` on n8n's deduplication store (kept in n8n's database),
 * `options.dryRun`, and n8n's node setting Retry On Fail.
 *
 * Regular mode (the main instance runs the executions):
 *   - Dry Run: nothing reaches the sandbox; each item shows the exact request (method, URL,
 *     masked Authorization, body), with its pairedItem; and a dry run records no key.
 *   - The same SMS workflow (three orders, key `={{ $json.orderId }}`) executed twice: the
 *     first run sends three messages, the second sends none and outputs three
 *     `{ skipped: true, reason: 'alreadySent', dedupeKey }` items.
 *   - A media workflow (On Error → Continue) where one recipient has not started the chat, so
 *     the sandbox refuses that item (HTTP 403): the re-run after the recipient starts the chat
 *     sends only that one, and a third run sends nothing.
 *   - Retry On Fail (n8n's node setting): three SMS in flight, the service refuses one with a
 *     429 once; the retried node sends that one only (4 requests, each message delivered once).
 * Queue mode (Redis, main + `n8n worker`, manual executions offloaded): the same three
 * scenarios, executed by workers; the second SMS run by a fresh worker process, so the keys
 * can only have come from the database.
 *
 * Every assertion is printed (✔/✘) and all are evaluated; the check fails if any failed.
 * `--only=regular` or `--only=queue` runs one half.
 *
 *   npx tsx scripts/n8n/check-send-once.ts     (after `npm run build`; queue mode needs redis-server)
 */
import { isDeepStrictEqual } from 'node:util';

import { runCheck } from './lib/check';
import type { ExampleWorkflow } from './lib/examples';
import { CREDENTIAL_ID, CREDENTIAL_NAME, sandboxCredential } from './lib/examples';
import { NODE_TYPE } from './lib/install';
import type { ExecutionSummary, N8nClient, N8nProcess, NodeItem } from './lib/n8n';
import { startN8n } from './lib/n8n';
import type { Sandbox } from './lib/sandbox';
import { freePort, stopAll, stopGroup } from './lib/process';
import { startQueue } from './lib/queue';
import { launch, step } from './lib/stack';

const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const TRIGGER = 'When clicking ‘Execute workflow’';
const SENDER = '+6280011112222';
const SEND_NODE = 'Send';

const ORDERS = [
	{ orderId: 'ORD-1', phone: '+6281234500001', text: 'Order ORD-1 has shipped.' },
	{ orderId: 'ORD-2', phone: '+6281234500002', text: 'Order ORD-2 has shipped.' },
	{ orderId: 'ORD-3', phone: '+6281234500003', text: 'Order ORD-3 has shipped.' },
];
/** Invoices to send as documents; the third recipient has not started the chat (yet). */
const INVOICES = [
	{ invoiceId: 'INV-1', phone: '+6281298700001' },
	{ invoiceId: 'INV-2', phone: '+6281298700002' },
	{ invoiceId: 'INV-3', phone: '+6281298700003' },
];
const LATE_STARTER = INVOICES[2].phone;
const invoiceLink = (invoiceId: string): string => `https://cdn.example.com/invoices/${invoiceId}.pdf`;

function workflow(
	id: string,
	name: string,
	items: object[],
	send: Record<string, unknown>,
	onError?: string,
	nodeSettings: Record<string, unknown> = {},
): ExampleWorkflow {
	return {
		id,
		name,
		nodes: [
			{ id: `${id}-trigger`, name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: `${id}-items`,
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
			},
			{
				id: `${id}-send`,
				name: SEND_NODE,
				type: NODE_TYPE,
				typeVersion: 1,
				position: [440, 0],
				parameters: send,
				credentials: { multiChannelNotificationApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
				...(onError ? { onError } : {}),
				...nodeSettings,
			},
		] as unknown as ExampleWorkflow['nodes'],
		connections: {
			[TRIGGER]: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: SEND_NODE, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

const smsWorkflow = (id: string): ExampleWorkflow =>
	workflow(id, 'Send once: order SMS', ORDERS, {
		resource: 'sms',
		operation: 'send',
		phoneNumber: '={{ $json.phone }}',
		message: '={{ $json.text }}',
		options: { dedupeKey: '={{ $json.orderId }}' },
	});

const mediaWorkflow = (id: string): ExampleWorkflow =>
	workflow(
		id,
		'Send once: invoice documents',
		INVOICES,
		{
			resource: 'chatMessage',
			operation: 'sendMedia',
			from: SENDER,
			to: '={{ $json.phone }}',
			mediaType: 'document',
			mediaUrl: '={{ "https://cdn.example.com/invoices/" + $json.invoiceId + ".pdf" }}',
			options: { dedupeKey: '={{ $json.invoiceId }}', concurrency: 1 },
		},
		'continueRegularOutput',
	);

/** Three SMS in flight at once, n8n's Retry On Fail on (2 tries), a 429 not waited for. */
const RETRY_ORDERS = ORDERS.map((order) => ({ ...order, text: `${order.text} (retry check)` }));
const retryWorkflow = (id: string): ExampleWorkflow =>
	workflow(
		id,
		'Retry On Fail: order SMS',
		RETRY_ORDERS,
		{
			resource: 'sms',
			operation: 'send',
			phoneNumber: '={{ $json.phone }}',
			message: '={{ $json.text }}',
			options: { concurrency: 3, rateLimitMaxWait: 0 },
		},
		undefined,
		{ retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
	);

type Verify = (ok: boolean, what: string, detail?: unknown) => void;

/** Saves a workflow's nodes as the editor does before it runs one (n8n 2.41 runs what is saved, not what the run request carries). */
async function save(client: N8nClient, workflow: ExampleWorkflow): Promise<ExampleWorkflow> {
	const { versionId } = (await client.getWorkflow(workflow.id)) as { versionId: string };
	return await client.request<ExampleWorkflow>('PATCH', `/workflows/${workflow.id}`, { nodes: workflow.nodes, connections: workflow.connections, versionId });
}

/** Runs a stored workflow as the editor does, optionally changed (saved first, then put back; same ids). */
async function run(client: N8nClient, id: string, change?: (workflow: ExampleWorkflow) => ExampleWorkflow): Promise<ExecutionSummary> {
	const stored = (await client.getWorkflow(id)) as unknown as ExampleWorkflow;
	const workflowData = change ? await save(client, change(stored)) : stored;
	try {
		return await runSaved(client, id, workflowData);
	} finally {
		if (change) await save(client, stored);
	}
}

async function runSaved(client: N8nClient, id: string, workflowData: ExampleWorkflow): Promise<ExecutionSummary> {
	const result = await client.request<{ executionId?: string }>('POST', `/workflows/${id}/run`, {
		workflowData,
		triggerToStartFrom: { name: TRIGGER },
	});
	if (!result.executionId) throw new Error(`Workflow ${id} did not start: ${JSON.stringify(result)}`);
	return await client.waitForExecution(result.executionId, 90_000);
}

function output(execution: ExecutionSummary): NodeItem[] {
	return execution.data.resultData.runData[SEND_NODE]?.[0]?.data?.main?.[0] ?? [];
}

const paired = (items: NodeItem[]): boolean =>
	items.every((item, index) => isDeepStrictEqual(item.pairedItem, { item: index }) || isDeepStrictEqual(item.pairedItem, [{ item: index }]));

const skippedAll = (items: NodeItem[], keys: string[]): boolean =>
	items.length === keys.length &&
	items.every((item, index) => item.json.skipped === true && item.json.reason === 'alreadySent' && item.json.dedupeKey === keys[index]);

interface Scenario {
	sandbox: Sandbox;
	client: N8nClient;
	verify: Verify;
	mode: string;
	/** Called before the named run; queue mode uses it to swap the worker. */
	beforeRun?: (label: string) => Promise<void>;
	/** Asserts where the execution ran (queue mode: on a worker). */
	ranWhere?: (execution: ExecutionSummary) => void;
}

async function sendTwice({ sandbox, client, verify, mode, beforeRun, ranWhere }: Scenario, id: string): Promise<void> {
	const deliveredSms = () => sandbox.requests.filter((request) => request.path === '/v1/sms/notification');
	let before = deliveredSms().length;
	await beforeRun?.('first');
	const first = await step(`${mode}: SMS workflow, first run`, async () => await run(client, id));
	ranWhere?.(first);
	const firstSent = deliveredSms().slice(before);
	verify(first.status === 'success', `${mode}: first run succeeded (execution ${first.id})`, first.data.resultData.error);
	verify(
		firstSent.length === 3 &&
			firstSent.every((request) => request.status === 200) &&
			isDeepStrictEqual(
				firstSent.map((request) => request.body).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
				ORDERS.map((order) => ({ phone_number: order.phone, message: order.text })),
			),
		`${mode}: first run sent the 3 SMS, one per order`,
		firstSent.map((request) => ({ status: request.status, body: request.body })),
	);
	const firstOut = output(first);
	verify(firstOut.length === 3 && firstOut.every((item) => item.json.message === 'success') && paired(firstOut), `${mode}: 3 success items with pairedItem`, firstOut);

	before = deliveredSms().length;
	await beforeRun?.('second');
	const second = await step(`${mode}: SMS workflow, second run (same keys)`, async () => await run(client, id));
	ranWhere?.(second);
	verify(second.status === 'success', `${mode}: second run succeeded (execution ${second.id})`, second.data.resultData.error);
	verify(deliveredSms().length === before, `${mode}: second run sent nothing`, deliveredSms().slice(before));
	const secondOut = output(second);
	verify(
		skippedAll(secondOut, ORDERS.map((order) => order.orderId)) && paired(secondOut),
		`${mode}: second run output 3 × { skipped: true, reason: 'alreadySent', dedupeKey } with pairedItem`,
		secondOut,
	);
}

async function failedItemRerun({ sandbox, client, verify, mode, ranWhere }: Scenario, id: string): Promise<void> {
	const media = () => sandbox.requests.filter((request) => request.path === '/v1/wa/message');
	let before = media().length;
	const first = await step(`${mode}: invoice workflow, one recipient has not started the chat`, async () => await run(client, id));
	ranWhere?.(first);
	const firstRequests = media().slice(before);
	verify(first.status === 'success', `${mode}: run with a refused item finished (On Error → Continue; execution ${first.id})`, first.data.resultData.error);
	const delivered = firstRequests.filter((request) => request.status === 200).map((request) => (request.body as { to: string }).to).sort();
	const refused = firstRequests.filter((request) => request.status === 403).map((request) => (request.body as { to: string }).to);
	verify(
		isDeepStrictEqual(delivered, [INVOICES[0].phone, INVOICES[1].phone]) && isDeepStrictEqual(refused, [LATE_STARTER]),
		`${mode}: 2 delivered, the third refused by the service (HTTP 403)`,
		firstRequests.map((request) => ({ to: (request.body as { to: string }).to, status: request.status })),
	);
	const firstOut = output(first);
	verify(
		firstOut.length === 3 && firstOut[0].json.message === 'success' && firstOut[1].json.message === 'success' && firstOut[2].json.error !== undefined,
		`${mode}: output: 2 sent, item 2 an error item`,
		firstOut.map((item) => item.json),
	);

	sandbox.startChat(LATE_STARTER);
	before = media().length;
	const second = await step(`${mode}: invoice workflow re-run after the recipient started the chat`, async () => await run(client, id));
	ranWhere?.(second);
	const secondRequests = media().slice(before);
	verify(second.status === 'success', `${mode}: re-run succeeded (execution ${second.id})`, second.data.resultData.error);
	verify(
		secondRequests.length === 1 &&
			secondRequests[0].status === 200 &&
			isDeepStrictEqual(secondRequests[0].body, {
				from: SENDER,
				to: LATE_STARTER,
				type: 'document',
				recipient_type: 'individual',
				document: { link: invoiceLink(INVOICES[2].invoiceId) },
			}),
		`${mode}: the re-run sent only the failed one (INV-3)`,
		secondRequests.map((request) => ({ status: request.status, body: request.body })),
	);
	const secondOut = output(second);
	verify(
		skippedAll(secondOut.slice(0, 2), ['INV-1', 'INV-2']) && secondOut[2]?.json.message === 'success' && paired(secondOut),
		`${mode}: output: INV-1 and INV-2 skipped (alreadySent), INV-3 sent`,
		secondOut.map((item) => item.json),
	);

	before = media().length;
	const third = await step(`${mode}: invoice workflow, third run`, async () => await run(client, id));
	verify(third.status === 'success' && media().length === before, `${mode}: a third run sends nothing`, media().slice(before));
}

/**
 * n8n's Retry On Fail re-runs the whole node: the service refuses one of three requests with a 429
 * (Rate Limit Max Wait 0, so the node fails), and the second try must send that one only.
 */
async function retryOnFail({ sandbox, client, verify, mode, ranWhere }: Scenario, id: string): Promise<void> {
	const sms = () => sandbox.requests.filter((request) => request.path === '/v1/sms/notification');
	const before = sms().length;
	sandbox.injectFault({ kind: 'status', status: 429, retryAfter: '1', path: '/v1/sms/notification' });
	const execution = await step(`${mode}: Retry On Fail workflow, the service refuses one request once`, async () => await run(client, id));
	ranWhere?.(execution);
	const requests = sms().slice(before);
	const delivered = requests.filter((request) => request.delivered).map((request) => JSON.stringify(request.body)).sort();
	verify(execution.status === 'success', `${mode}: the retried run succeeded (execution ${execution.id})`, execution.data.resultData.error);
	verify(
		requests.length === 4 &&
			requests.filter((request) => request.status === 429).length === 1 &&
			isDeepStrictEqual(delivered, RETRY_ORDERS.map((order) => JSON.stringify({ phone_number: order.phone, message: order.text })).sort()),
		`${mode}: 4 requests in all (3, then only the refused one again): each message delivered exactly once`,
		requests.map((request) => ({ status: request.status, body: request.body })),
	);
	const out = output(execution);
	verify(out.length === 3 && out.every((item) => item.json.message === 'success') && paired(out), `${mode}: 3 success items with pairedItem`, out.map((item) => item.json));
}

runCheck('send-once check', async ({ sandbox, expect }) => {
	const failures: string[] = [];
	const verify: Verify = (ok, what, detail) => {
		if (ok) {
			console.log(`  ✔ PASS ${what}`);
			return;
		}
		failures.push(what);
		console.log(`  ✘ FAIL ${what}${detail === undefined ? '' : `\n      got: ${JSON.stringify(detail, null, 2).split('\n').join('\n      ')}`}`);
	};
	const credential = sandboxCredential(sandbox.url, sandbox.apiKey);
	for (const invoice of INVOICES.slice(0, 2)) sandbox.startChat(invoice.phone);

	if (ONLY !== 'queue') {
		const stack = await launch({
			label: 'send-once',
			credentials: [credential],
			workflows: [smsWorkflow('mcnSendOnceSms01'), mediaWorkflow('mcnSendOnceDoc01'), retryWorkflow('mcnRetrySms01')],
		});
		const mode = 'regular';

		// Dry Run first, with the same keys: it must neither send nor record them.
		const before = sandbox.requests.length;
		const dry = await step(`${mode}: SMS workflow with Dry Run`, async () =>
			await run(stack.client, 'mcnSendOnceSms01', (stored) => ({
				...stored,
				nodes: stored.nodes.map((node) =>
					node.name === SEND_NODE
						? { ...node, parameters: { ...node.parameters, options: { ...(node.parameters.options as object), dryRun: true } } }
						: node,
				),
			})),
		);
		verify(dry.status === 'success', `${mode}: dry run succeeded (execution ${dry.id})`, dry.data.resultData.error);
		verify(sandbox.requests.length === before, `${mode}: dry run sent nothing`, sandbox.requests.slice(before));
		const dryOut = output(dry);
		verify(
			dryOut.length === 3 &&
				paired(dryOut) &&
				dryOut.every((item, index) =>
					item.json.dryRun === true &&
					isDeepStrictEqual(item.json.request, {
						method: 'POST',
						url: `${sandbox.url}/v1/sms/notification`,
						headers: { Authorization: '***', 'Content-Type': 'application/json' },
						body: { phone_number: ORDERS[index].phone, message: ORDERS[index].text },
					}),
				),
			`${mode}: dry run output: the exact request per item (POST, URL, Authorization masked, body), with pairedItem`,
			dryOut.map((item) => item.json),
		);
		verify(!JSON.stringify(dryOut).includes(sandbox.apiKey), `${mode}: the API key appears nowhere in the dry-run output`);

		await sendTwice({ sandbox, client: stack.client, verify, mode }, 'mcnSendOnceSms01');
		await failedItemRerun({ sandbox, client: stack.client, verify, mode }, 'mcnSendOnceDoc01');
		await retryOnFail({ sandbox, client: stack.client, verify, mode }, 'mcnRetrySms01');
		await stopAll();
	}

	if (ONLY !== 'regular') {
		const mode = 'queue';
		sandbox.reset();
		for (const invoice of INVOICES.slice(0, 2)) sandbox.startChat(invoice.phone);
		const queueEnv = await startQueue();
		const stack = await launch({
			label: 'send-once-queue',
			credentials: [credential],
			workflows: [smsWorkflow('mcnSendOnceSms02'), mediaWorkflow('mcnSendOnceDoc02'), retryWorkflow('mcnRetrySms02')],
			extraEnv: queueEnv,
		});
		const startWorker = async (name: string): Promise<N8nProcess> =>
			await step(`start ${name}`, async () =>
				await startN8n({
					userFolder: stack.userFolder,
					command: 'worker',
					name,
					extraEnv: { ...queueEnv, QUEUE_HEALTH_CHECK_PORT: String(await freePort()) },
				}),
			);
		let worker = await startWorker('n8n worker 1');
		const workersSeen: string[] = [];
		const ranWhere = (execution: ExecutionSummary): void => {
			const line = `Worker started execution ${execution.id} `;
			verify(worker.group.output().includes(line), `${mode}: execution ${execution.id} ran on ${worker.group.name} (its log says "${line.trim()}")`);
			verify(!stack.n8n.group.output().includes(line), `${mode}: not on the main instance`);
			workersSeen.push(worker.group.name);
		};
		const beforeRun = async (label: string): Promise<void> => {
			if (label !== 'second') return;
			// A fresh worker process for the second run: the keys can only come from the database.
			await stopGroup(worker.group);
			worker = await startWorker('n8n worker 2');
		};
		await sendTwice({ sandbox, client: stack.client, verify, mode, beforeRun, ranWhere }, 'mcnSendOnceSms02');
		await failedItemRerun({ sandbox, client: stack.client, verify, mode, ranWhere }, 'mcnSendOnceDoc02');
		await retryOnFail({ sandbox, client: stack.client, verify, mode, ranWhere }, 'mcnRetrySms02');
		verify(workersSeen.includes('n8n worker 1') && workersSeen.includes('n8n worker 2'), `${mode}: runs were split over two worker processes`, workersSeen);
	}

	expect(failures.length === 0, 'all send-once assertions held', failures.length === 0 ? undefined : failures);
});
