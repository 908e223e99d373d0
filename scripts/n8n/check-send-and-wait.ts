/**
 * Send and Wait for Response in real n8n (2.8.4, or the version N8N_VERSION names), with the
 * package installed as a community package: Trigger → "Ask" (SMS → Send and Wait for Response,
 * Approve and Disapprove) → "After". Plays the person by hand, step by step:
 *   - the execution waits once the SMS went out, and the SMS carries the answer link;
 *   - a GET of the link (as a link preview would) shows the page and changes nothing;
 *   - a POST with an altered signature (on an n8n that signs links) and one with an unknown
 *     choice are refused, and the execution keeps waiting;
 *   - the POST "approved=true" resumes it: Ask outputs { data: { approved: true } } and After runs;
 *   - a second POST changes nothing;
 *   - n8n 2.x makes a human-review tool for AI agents of the node (SMS);
 *   - a second execution is answered by a person in Chromium on a 360 px screen with JavaScript
 *     off: the page fits, its button posts the answer, the execution resumes. Screenshots of the
 *     page and of the recorded answer go to docs/images/ (SCREENSHOT_DIR overrides);
 *   - the example "approve a refund over SMS", answered by the sandbox's person, takes the If
 *     node's approved branch;
 *   - an execution with Limit Wait Time (3 s) that nobody answers: n8n continues it when the time
 *     is up (its wait tracker looks once a minute), passing the node's input on with no `data`.
 *
 *   npx tsx scripts/n8n/check-send-and-wait.ts     (after `npm run build`)
 */
import { join } from 'node:path';

import { launchChromium, SCREENSHOTS } from './lib/browser';
import { runCheck } from './lib/check';
import { CREDENTIAL_ID, CREDENTIAL_NAME, readExampleWorkflow, sandboxCredential } from './lib/examples';
import { N8N_VERSION, NODE_TYPE } from './lib/install';
import { executionOf, statusBecomes } from './lib/n8n';
import { launch, step } from './lib/stack';

const WORKFLOW_ID = 'mcnSendAndWait01';
const TRIGGER = 'When clicking ‘Execute workflow’';
const EXAMPLE = readExampleWorkflow('approve-refund-sms.json');
const QUESTION = 'Approve the refund of Rp 150.000 for order 42? <b>not bold</b>';

const workflow = {
	id: WORKFLOW_ID,
	name: 'Send and Wait check',
	nodes: [
		{ id: 'a1000000-0000-4000-8000-000000000001', name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'a1000000-0000-4000-8000-000000000002',
			name: 'Ask',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [220, 0],
			parameters: {
				resource: 'sms',
				operation: 'sendAndWait',
				phoneNumber: '+6281234567890',
				message: QUESTION,
				responseType: 'approval',
				approvalOptions: { values: { approvalType: 'double', approveLabel: 'Refund', disapproveLabel: 'Keep' } },
			},
			credentials: { multiChannelNotificationApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
		},
		{ id: 'a1000000-0000-4000-8000-000000000003', name: 'After', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [440, 0], parameters: {} },
	],
	connections: {
		[TRIGGER]: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] },
		Ask: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
	active: false,
	pinData: {},
};

/** The same workflow, waiting at most 3 seconds (0.05 minutes) for an answer that never comes. */
const TIMEOUT_WORKFLOW_ID = 'mcnSendAndWait02';
const timeoutWorkflow = {
	...workflow,
	id: TIMEOUT_WORKFLOW_ID,
	name: 'Send and Wait check: nobody answers',
	nodes: workflow.nodes.map((node) =>
		node.name === 'Ask'
			? { ...node, parameters: { ...node.parameters, options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' } } } } }
			: node,
	),
};

async function post(link: string, body: string): Promise<{ status: number; text: string }> {
	const response = await fetch(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
	return { status: response.status, text: await response.text() };
}

runCheck(`send-and-wait check, n8n ${N8N_VERSION}`, async ({ sandbox, expect }) => {
	const { client, n8n } = await launch({
		label: 'send-and-wait',
		credentials: [sandboxCredential(sandbox.url, sandbox.apiKey)],
		workflows: [workflow, timeoutWorkflow, EXAMPLE],
	});

	// n8n makes a human-review tool for AI agents from every node type with a sendAndWait operation.
	const types = (await (await fetch(`${n8n.url}/types/nodes.json`, { headers: { Cookie: client.sessionCookie } })).json()) as Array<{
		name: string;
		properties?: Array<{ name: string; default?: unknown }>;
	}>;
	const hitl = types.find((type) => type.name === `${NODE_TYPE}HitlTool`);
	if (N8N_VERSION.startsWith('1.')) {
		console.log(`  (n8n ${N8N_VERSION} makes ${hitl ? 'a' : 'no'} human-review tool of the node)`);
	} else {
		expect(hitl !== undefined, 'n8n offers the node as a human-review tool for AI agents', types.filter((type) => type.name.includes('multiChannel')).map((type) => type.name));
		const resource = hitl?.properties?.find((property) => property.name === 'resource')?.default;
		expect(resource === 'sms', 'the human-review tool sends an SMS', resource);
	}

	// Started first: n8n's wait tracker may take a minute to notice that its time is up.
	const unanswered = await step('an execution that waits at most 3 s, never answered', async () => {
		const id = await client.runWorkflow(TIMEOUT_WORKFLOW_ID, TRIGGER);
		return { id, status: (await statusBecomes(client, id, ['waiting', 'error', 'success', 'crashed'])).status };
	});
	expect(['waiting', 'success'].includes(unanswered.status), 'it waits (or has already gone on)', unanswered.status);
	const timeoutSms = sandbox.requests.filter((request) => request.path === '/v1/sms/notification').length;
	expect(timeoutSms === 1, 'after sending its SMS', timeoutSms);
	sandbox.reset();

	const executionId = await step('run the workflow until it waits', async () => {
		const id = await client.runWorkflow(WORKFLOW_ID, TRIGGER);
		await statusBecomes(client, id, ['waiting', 'error', 'success', 'crashed']);
		return id;
	});
	expect((await executionOf(client, executionId)).status === 'waiting', 'the execution waits once the SMS went out');
	const sms = sandbox.requests.filter((request) => request.path === '/v1/sms/notification');
	expect(sms.length === 1 && sms[0].delivered, 'one SMS delivered', sms.length);
	const [text, link] = (sms[0].body as { message: string }).message.split('\n');
	expect(text === QUESTION, 'the SMS is the message, then the link on its own line', text);
	expect(/\/webhook-waiting\/\d+\/a1000000-0000-4000-8000-000000000002(\?|$)/.test(link), 'the link is n8n’s resume URL for this execution and node', link);

	const preview = await fetch(link, { headers: { 'User-Agent': 'WhatsApp/2.23.20 (link preview)' } });
	const page = await preview.text();
	expect(preview.status === 200 && /text\/html/.test(preview.headers.get('content-type') ?? ''), 'GET shows an HTML page', preview.status);
	expect(page.includes('Approve the refund of Rp 150.000 for order 42? &lt;b&gt;not bold&lt;/b&gt;'), 'the page shows the message, escaped');
	expect(page.includes('>Refund</button>') && page.includes('>Keep</button>'), 'the page offers both choices');
	expect((await executionOf(client, executionId)).status === 'waiting', 'the GET changed nothing: still waiting');

	const signed = new URL(link);
	if (signed.searchParams.has('signature')) {
		const altered = new URL(link);
		altered.searchParams.set('signature', 'x'.repeat(signed.searchParams.get('signature')?.length ?? 10));
		const refused = await post(altered.toString(), 'approved=true');
		expect(refused.status === 401, 'a POST with an altered signature is refused (401)', refused);
		expect((await executionOf(client, executionId)).status === 'waiting', 'still waiting after the altered link');
	}
	const unknown = await post(link, 'approved=maybe');
	expect(unknown.status === 400 && unknown.text.includes('Answer not recorded'), 'an unknown choice gets a clear 400 page', unknown.status);
	expect((await executionOf(client, executionId)).status === 'waiting', 'still waiting after the unknown choice');

	const answered = await post(link, 'approved=true');
	expect(answered.status === 200 && answered.text.includes('Recorded: Refund'), 'the approval POST is recorded', answered);
	const finished = await statusBecomes(client, executionId, ['success', 'error', 'crashed']);
	expect(finished.status === 'success', 'the execution resumed and finished', finished.status);
	const runData = finished.data?.resultData.runData ?? {};
	const asked = runData.Ask?.at(-1)?.data?.main?.[0]?.[0]?.json;
	expect(JSON.stringify(asked) === JSON.stringify({ data: { approved: true } }), 'Ask outputs { data: { approved: true } }', asked);
	expect((runData.After?.length ?? 0) === 1, 'After ran once');

	const again = await post(link, 'approved=false');
	expect(again.status !== 200 || !again.text.includes('Recorded'), 'a second answer is not recorded', again.status);
	const after = await executionOf(client, executionId);
	const askedAfter = after.data?.resultData.runData.Ask?.at(-1)?.data?.main?.[0]?.[0]?.json;
	expect(after.status === 'success' && JSON.stringify(askedAfter) === JSON.stringify(asked), 'and changes nothing', after.status);
	expect(sandbox.requests.length === 1, 'nothing else was sent', sandbox.requests.length);

	const second = await step('a second execution, answered in Chromium on a phone-sized screen', async () => {
		const id = await client.runWorkflow(WORKFLOW_ID, TRIGGER);
		await statusBecomes(client, id, ['waiting', 'error', 'success', 'crashed']);
		const phoneLink = (sandbox.requests.at(-1)?.body as { message: string }).message.split('\n')[1];
		const browser = await launchChromium();
		try {
			const context = await browser.newContext({ viewport: { width: 360, height: 640 }, javaScriptEnabled: false });
			const page = await context.newPage();
			await page.goto(phoneLink, { waitUntil: 'load' });
			const card = await page.locator('.card').boundingBox();
			const widest = await page.locator('button').evaluateAll((buttons) => Math.max(...buttons.map((button) => button.getBoundingClientRect().right)));
			await page.screenshot({ path: join(SCREENSHOTS, 'answer-page.png') });
			await page.getByRole('button', { name: 'Refund' }).click();
			await page.getByText('Recorded: Refund').waitFor({ timeout: 30_000 });
			await page.screenshot({ path: join(SCREENSHOTS, 'answer-recorded.png') });
			return { id, cardRight: (card?.x ?? 0) + (card?.width ?? Infinity), widest };
		} finally {
			await browser.close();
		}
	});
	expect(second.cardRight <= 360 && second.widest <= 360, 'the page fits a 360 px screen', second);
	const phoneRun = await statusBecomes(client, second.id, ['success', 'error', 'crashed']);
	const phoneAnswer = phoneRun.data?.resultData.runData.Ask?.at(-1)?.data?.main?.[0]?.[0]?.json;
	expect(
		phoneRun.status === 'success' && JSON.stringify(phoneAnswer) === JSON.stringify({ data: { approved: true } }),
		'pressing the button (no JavaScript) resumed the execution with the approval',
		phoneAnswer,
	);

	const example = await step('the example, answered by the sandbox playing the person', async () => {
		sandbox.setAnswerPlan({ answer: 'approve' });
		const id = await client.runWorkflow(EXAMPLE.id, 'When clicking ‘Execute workflow’');
		return await statusBecomes(client, id, ['success', 'error', 'crashed']);
	});
	const ran = Object.keys(example.data?.resultData.runData ?? {});
	expect(
		example.status === 'success' && ran.includes('Refund the order') && !ran.includes('Keep the order (declined or no answer)'),
		'approve-refund-sms.json: the approval took the Refund branch',
		{ status: example.status, ran },
	);

	const timedOut = await step('the unanswered execution, once its wait limit has passed', async () => await statusBecomes(client, unanswered.id, ['success', 'error', 'crashed']));
	const timedOutRun = timedOut.data?.resultData.runData ?? {};
	const passedOn = timedOutRun.Ask?.at(-1)?.data?.main?.[0]?.[0]?.json;
	expect(
		timedOut.status === 'success' && passedOn !== undefined && !('data' in passedOn) && (timedOutRun.After?.length ?? 0) === 1,
		'when the limit passed, n8n went on: Ask passed its input on with no `data` (no answer), After ran',
		{ status: timedOut.status, passedOn },
	);
});
