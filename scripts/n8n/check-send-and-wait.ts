/**
 * Send and Wait for Response in real n8n (2.8.4, or the version N8N_VERSION names), with the
 * package installed as a community package: Trigger → "Ask" (SMS → Send and Wait for Response,
 * Approve and Disapprove) → "After". Plays the person by hand, step by step: the SMS and its link,
 * a GET of the link (as a link preview would), refused answers (an altered signature, a changed question value, an unknown
 * choice), the approval, a second answer; n8n 2.x's human-review tool of the node; an answer from
 * Chromium on a 360 px screen with JavaScript off (screenshots of the page and of the recorded
 * answer go to docs/images/, SCREENSHOT_DIR overrides); a Custom Form filled in there too, and
 * one defined as JSON by an expression; one with two optional File elements left empty, answered
 * with JavaScript on (lib/emptyFilesForm.ts); the "approve a refund over SMS" example answered by the
 * sandbox's person; and Limit Wait Time (3 s) with nobody answering: n8n continues
 * when the time is up (its wait tracker looks once a minute), passing the node's input on.
 *
 *   npx tsx scripts/n8n/check-send-and-wait.ts     (after `npm run build`)
 */
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import type { Page } from 'playwright-core';

import { recordedAnswer } from './lib/answers';
import { launchChromium, SCREENSHOTS } from './lib/browser';
import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { N8N_VERSION, NODE_TYPE } from './lib/config';
import { answerWithFilesEmpty, emptyFilesWorkflow } from './lib/emptyFilesForm';
import { manualTrigger, noOp, packageNode, readExampleWorkflow, workflowFixture } from './lib/examples';
import { FINISHED, firstBinary, firstJson, postForm } from './lib/n8n';
import { requestsTo, smsOf } from './lib/sandbox';
import { step } from './lib/stack';

const EXAMPLE = readExampleWorkflow('approve-refund-sms.json');
const QUESTION = 'Approve the refund of Rp 150.000 for order 42? <b>not bold</b>';
const ASK = {
	resource: 'sms',
	operation: 'sendAndWait',
	phoneNumber: '+6281234567890',
	message: QUESTION,
	responseType: 'approval',
	approvalOptions: { values: { approvalType: 'double', approveLabel: 'Refund', disapproveLabel: 'Keep' } },
};
const WORKFLOW = workflowFixture('mcnSendAndWait01', 'Send and Wait check', [manualTrigger(), packageNode('Ask', ASK), noOp()]);
/** The same workflow, waiting at most 3 seconds (0.05 minutes) for an answer that never comes. */
const limit = { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' } } };
const TIMEOUT_WORKFLOW = workflowFixture('mcnSendAndWait02', 'Send and Wait check: nobody answers', [manualTrigger(), packageNode('Ask', { ...ASK, options: limit }), noOp()]);
/** The same question as a Custom Form, answered in Chromium. */
const choices = (...options: string[]) => ({ values: options.map((option) => ({ option })) });
const FORM_ELEMENTS = [
	{ fieldType: 'html', elementName: 'intro', html: '<p>A photo of the <b>box</b> helps.</p><script>document.title = "x"</script><img src="https://example.com/x.png">' },
	{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
	{ fieldLabel: 'Reason', fieldType: 'dropdown', fieldOptions: choices('Damaged', 'Late') },
	{ fieldLabel: 'Notify', fieldType: 'checkbox', fieldOptions: choices('SMS', 'Email') },
	{ fieldLabel: 'Note', fieldType: 'textarea' },
	{ fieldLabel: 'PIN', fieldType: 'password' },
	{ fieldLabel: 'Receipt', fieldType: 'file', multipleFiles: false, acceptFileTypes: '.pdf, image/*', requiredField: true },
	{ fieldType: 'hiddenField', fieldName: 'orderId', fieldValue: '={{ "ORD-" + 42 }}' },
];
/** The receipt the person attaches: a 1 × 1 PNG. */
const RECEIPT = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const FORM_WORKFLOW = workflowFixture('mcnSendAndWait03', 'Send and Wait check: custom form', [
	manualTrigger(),
	packageNode('Ask', { ...ASK, responseType: 'customForm', formFields: { values: FORM_ELEMENTS }, options: { responseFormCustomCss: '.card { border-top: 4px solid #0a7d3b }' } }),
	noOp(),
]);
/** A Custom Form defined as JSON by an expression (Define Form → Using JSON), answered with the page's multipart POST. */
const JSON_FORM =
	'={{ JSON.stringify([{ fieldLabel: "Amount", fieldType: "number", requiredField: true }, { fieldLabel: "Reason", fieldType: "radio", fieldOptions: [{ option: "Damaged" }, { option: "Late" }] }, { fieldLabel: "Photos", fieldType: "file" }]) }}';
const JSON_FORM_WORKFLOW = workflowFixture('mcnSendAndWait04', 'Send and Wait check: custom form as JSON', [
	manualTrigger(),
	packageNode('Ask', { ...ASK, responseType: 'customForm', defineForm: 'json', jsonOutput: JSON_FORM }),
	noOp(),
]);
/** Two optional File elements, both left empty in Chromium with JavaScript on (lib/emptyFilesForm.ts). */
const EMPTY_FILES_WORKFLOW = emptyFilesWorkflow(ASK);
/** Until the execution waits for its answer, or has finished. */
const SETTLED = ['waiting', ...FINISHED];
const APPROVED = { approved: true };
const CHECK_STARTED = Date.now();
/** An answered Ask: `data` as n8n's own nodes give it (with `respondedAt`), and `question`, naming the SMS it answers. */
function answersWith(json: Record<string, unknown> | undefined, data: unknown): boolean {
	const question = (json?.question ?? {}) as Record<string, unknown>;
	const { answer, timed } = recordedAnswer(json?.data, CHECK_STARTED);
	return (
		isDeepStrictEqual(Object.keys(json ?? {}).sort(), ['data', 'question']) &&
		isDeepStrictEqual(answer, data) &&
		timed &&
		question.channel === 'sms' &&
		question.recipient === ASK.phoneNumber &&
		typeof question.messageId === 'string' &&
		typeof question.requestId === 'string'
	);
}

async function body({ sandbox, stack, stack: { client }, expect }: CheckContext): Promise<void> {

	// n8n makes a human-review tool for AI agents from every node type with a sendAndWait operation.
	const types = await client.types('nodes');
	const hitl = types.find((type) => type.name === `${NODE_TYPE}HitlTool`);
	if (N8N_VERSION.startsWith('1.')) {
		console.log(`  (n8n ${N8N_VERSION} makes ${hitl ? 'a' : 'no'} human-review tool of the node)`);
	} else {
		// What that tool is fixed to (its own Resource, an SMS) is the human-review check's.
		expect(hitl !== undefined, 'n8n offers the node as a human-review tool for AI agents', types.filter((type) => type.name.includes('multiChannel')).map((type) => type.name));
	}

	// Started first: n8n's wait tracker may take a minute to notice that its time is up.
	const unanswered = await step('an execution that waits at most 3 s, never answered', async () => await client.execute(TIMEOUT_WORKFLOW.id, { until: SETTLED }));
	expect(['waiting', 'success'].includes(unanswered.status), 'it waits (or has already gone on)', unanswered.status);
	expect(requestsTo(sandbox).length === 1, 'after sending its SMS', requestsTo(sandbox).length);
	sandbox.reset();

	const waiting = await step('run the workflow until it waits', async () => await client.execute(WORKFLOW.id, { until: SETTLED }));
	const executionId = waiting.id;
	const stillWaiting = async (): Promise<boolean> => (await client.execution(executionId)).status === 'waiting';
	expect(waiting.status === 'waiting', 'the execution waits once the SMS went out');
	const sms = requestsTo(sandbox);
	expect(sms.length === 1 && sms[0].delivered, 'one SMS delivered', sms.length);
	const [text, link] = smsOf(sms[0]).message.split('\n');
	expect(text === QUESTION, 'the SMS is the message, then the link on its own line', text);
	expect(new RegExp(`/webhook-waiting/\\d+/${WORKFLOW.nodes[1].id}(\\?|$)`).test(link), 'the link is n8n’s resume URL for this execution and node', link);

	const preview = await fetch(link, { headers: { 'User-Agent': 'WhatsApp/2.23.20 (link preview)' } });
	const page = await preview.text();
	expect(preview.status === 200 && /text\/html/.test(preview.headers.get('content-type') ?? ''), 'GET shows an HTML page', preview.status);
	expect(page.includes('Approve the refund of Rp 150.000 for order 42? &lt;b&gt;not bold&lt;/b&gt;'), 'the page shows the message, escaped');
	expect(page.includes('>Refund</button>') && page.includes('>Keep</button>'), 'the page offers both choices');
	expect(await stillWaiting(), 'the GET changed nothing: still waiting');

	const signature = new URL(link).searchParams.get('signature');
	if (signature !== null) {
		const altered = new URL(link);
		altered.searchParams.set('signature', 'x'.repeat(signature.length));
		const refused = await postForm(altered.toString(), 'approved=true');
		expect(refused.status === 401, 'a POST with an altered signature is refused (401)', refused);
		expect(await stillWaiting(), 'still waiting after the altered link');
		// The node's own query parameter is inside what n8n signs: another question's value under this signature is refused.
		const question = new URL(link).searchParams.get('question') ?? '';
		const otherQuestion = new URL(link);
		otherQuestion.searchParams.set('question', `${question}x`);
		const refusedQuestion = await postForm(otherQuestion.toString(), 'approved=true');
		expect(question !== '' && refusedQuestion.status === 401, 'a POST with the question value changed is refused (401)', refusedQuestion);
		expect(await stillWaiting(), 'still waiting after the changed question value');
	}
	const unknown = await postForm(link, 'approved=maybe');
	expect(unknown.status === 400 && unknown.text.includes('Answer not recorded'), 'an unknown choice gets a clear 400 page', unknown.status);
	expect(await stillWaiting(), 'still waiting after the unknown choice');

	const answered = await postForm(link, 'approved=true');
	expect(answered.status === 200 && answered.text.includes('Recorded: Refund'), 'the approval POST is recorded', answered);
	const finished = await client.statusBecomes(executionId);
	expect(finished.status === 'success', 'the execution resumed and finished', finished.status);
	expect(answersWith(firstJson(finished, 'Ask'), APPROVED), 'Ask outputs { data: { approved: true, respondedAt } } and the question it answers (channel, recipient, ids)', firstJson(finished, 'Ask'));
	expect((finished.data.resultData.runData.After?.length ?? 0) === 1, 'After ran once');

	const again = await postForm(link, 'approved=false');
	expect(again.status !== 200 || !again.text.includes('Recorded'), 'a second answer is not recorded', again.status);
	const after = await client.execution(executionId);
	expect(after.status === 'success' && answersWith(firstJson(after, 'Ask'), APPROVED), 'and changes nothing', after.status);
	expect(sandbox.requests.length === 1, 'nothing else was sent', sandbox.requests.length);

	/** Runs a workflow until it waits, then opens the link of its SMS in Chromium on a 360 px screen, JavaScript off, for `use`. */
	const onPhone = async <T>(workflowId: string, use: (page: Page) => Promise<T>): Promise<T & { id: string }> => {
		const { id } = await client.execute(workflowId, { until: SETTLED });
		const browser = await launchChromium();
		try {
			const page = await (await browser.newContext({ viewport: { width: 360, height: 640 }, javaScriptEnabled: false })).newPage();
			await page.goto(smsOf(requestsTo(sandbox).at(-1)!).message.split('\n')[1], { waitUntil: 'load' });
			return { id, ...(await use(page)) };
		} finally {
			await browser.close();
		}
	};

	const phone = await step('a second execution, answered in Chromium on a phone-sized screen', async () =>
		await onPhone(WORKFLOW.id, async (page) => {
			const card = await page.locator('.card').boundingBox();
			const widest = await page.locator('button').evaluateAll((buttons) => Math.max(...buttons.map((button) => button.getBoundingClientRect().right)));
			await page.screenshot({ path: join(SCREENSHOTS, 'answer-page.png') });
			await page.getByRole('button', { name: 'Refund' }).click();
			await page.getByText('Recorded: Refund').waitFor({ timeout: 30_000 });
			await page.screenshot({ path: join(SCREENSHOTS, 'answer-recorded.png') });
			return { cardRight: (card?.x ?? 0) + (card?.width ?? Infinity), widest };
		}),
	);
	expect(phone.cardRight <= 360 && phone.widest <= 360, 'the page fits a 360 px screen', phone);
	const phoneRun = await client.statusBecomes(phone.id);
	expect(
		phoneRun.status === 'success' && answersWith(firstJson(phoneRun, 'Ask'), APPROVED),
		'pressing the button (no JavaScript) resumed the execution with the approval',
		firstJson(phoneRun, 'Ask'),
	);

	const form = await step('a Custom Form, filled in in Chromium on a phone-sized screen', async () =>
		await onPhone(FORM_WORKFLOW.id, async (page) => {
			const widest = await page.locator('input, select, textarea, button').evaluateAll((inputs) => Math.max(...inputs.map((input) => input.getBoundingClientRect().right)));
			const html = { bold: await page.locator('.html b').textContent(), scriptsOrImages: await page.locator('.html script, img').count(), scripts: await page.locator('script').count() };
			const border = await page.locator('.card').evaluate((card) => card.ownerDocument.defaultView?.getComputedStyle(card).borderTopColor);
			await page.getByLabel('Amount').fill('150000');
			await page.getByLabel('Reason').selectOption('Late');
			await page.getByLabel('SMS').check();
			await page.getByLabel('Email').check();
			await page.getByLabel('Note').fill('Box arrived crushed');
			await page.getByLabel('PIN').fill(' 4 2 ');
			await page.getByLabel('Receipt').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: RECEIPT });
			await page.screenshot({ path: join(SCREENSHOTS, 'answer-form.png'), fullPage: true });
			await page.getByRole('button', { name: 'Submit' }).click();
			await page.getByText('Your answer was recorded.').waitFor({ timeout: 30_000 });
			return { widest, html, border };
		}),
	);
	expect(form.widest <= 360, 'the form fits a 360 px screen', form.widest);
	expect(form.html.bold === 'box' && form.html.scriptsOrImages === 0, 'the Custom HTML element shows its formatting, without its script and image', form.html);
	expect(form.html.scripts === 1, 'the page has one script, its own for File elements (pageScript.ts)', form.html);
	expect(form.border === 'rgb(10, 125, 59)', 'Response Form Custom Styling applies on the page (the card\'s green top border)', form.border);
	const formRun = await client.statusBecomes(form.id);
	const receipt = { filename: 'receipt.png', mimetype: 'image/png', size: RECEIPT.length };
	const formAnswer = { data: { Amount: 150000, Reason: 'Late', Notify: ['SMS', 'Email'], Note: 'Box arrived crushed', PIN: ' 4 2 ', Receipt: receipt, orderId: 'ORD-42', intro: '<p>A photo of the <b>box</b> helps.</p>' } };
	expect(
		formRun.status === 'success' && answersWith(firstJson(formRun, 'Ask'), formAnswer.data),
		'the form (no JavaScript) resumed the execution with each answer under its label, typed, the file\'s name, type and size, the hidden field\'s value (an expression) under its Field Name, and the HTML shown under its Element Name',
		firstJson(formRun, 'Ask'),
	);
	const binary = firstBinary(formRun, 'Ask');
	expect(
		Object.keys(binary).join() === 'Receipt' && binary.Receipt.fileName === 'receipt.png' && binary.Receipt.mimeType === 'image/png',
		'the attached file is the output item\'s binary data "Receipt", in n8n\'s binary data store',
		binary,
	);

	const jsonForm = await step('a Custom Form defined as JSON, answered with a multipart POST as the page sends it, Photos left empty', async () => {
		const { id } = await client.execute(JSON_FORM_WORKFLOW.id, { until: SETTLED });
		const jsonLink = smsOf(requestsTo(sandbox).at(-1)!).message.split('\n')[1];
		const page = await (await fetch(jsonLink)).text();
		// As a browser posts the page: its inputs in the page's order, Photos a file part with no name and no bytes.
		const values: Record<string, string | Blob> = { 'field-0': '42', 'field-1': 'Late', 'field-2': new Blob([]) };
		const order = [...new Set([...page.matchAll(/<input[^>]* name="([\w-]+)"/g)].map((match) => match[1]))];
		const body = new FormData();
		for (const name of order) {
			const value = values[name] ?? '1';
			if (typeof value === 'string') body.append(name, value);
			else body.append(name, value, '');
		}
		const response = await fetch(jsonLink, { method: 'POST', body });
		return { id, page, order, answer: { status: response.status, text: await response.text() } };
	});
	expect(
		jsonForm.page.includes('<label for="field-0">Amount<span class="required" aria-hidden="true">*</span></label>') && jsonForm.page.includes('<input type="radio" name="field-1" value="Late">'),
		'the page shows the elements the JSON defines, the required one marked',
		jsonForm.page.slice(0, 2000),
	);
	expect(jsonForm.order.join() === 'field-0,field-1,fields-end,field-2,form-end', 'the page posts the optional file element last, after the fields-end marker', jsonForm.order);
	const jsonRun = await client.statusBecomes(jsonForm.id);
	expect(
		jsonForm.answer.status === 200 && jsonRun.status === 'success' && answersWith(firstJson(jsonRun, 'Ask'), { Amount: 42, Reason: 'Late', Photos: null }),
		`the answer, the optional file input left empty, resumed the execution, typed, under the JSON's labels (Photos: null), on n8n ${N8N_VERSION} too (2.8.4 and 1.123.x stop reading a form at an empty file input)`,
		{ status: jsonForm.answer.status, text: jsonForm.answer.text.slice(-400), output: firstJson(jsonRun, 'Ask') },
	);

	const emptyFiles = await step('a Custom Form with two optional File elements, both left empty, answered in Chromium with JavaScript on', async () =>
		await answerWithFilesEmpty({ sandbox, stack }, EMPTY_FILES_WORKFLOW.id),
	);
	expect(emptyFiles.policyMessages.length === 0, 'the page\'s script runs: Chromium reports nothing against its Content-Security-Policy', emptyFiles.policyMessages);
	expect(
		emptyFiles.heading === 'Thank you' && emptyFiles.run.status === 'success' && answersWith(firstJson(emptyFiles.run, 'Ask'), { Note: 'Box crushed', Receipt: null, Photos: null }),
		`the answer was recorded with both File elements null and the execution finished, on n8n ${N8N_VERSION} too (2.8.4 and 1.123.x stop reading a form at an empty file input)`,
		{ heading: emptyFiles.heading, text: emptyFiles.text, status: emptyFiles.run.status, output: firstJson(emptyFiles.run, 'Ask') },
	);

	const example = await step('the example, answered by the sandbox playing the person', async () => {
		sandbox.setAnswerPlan({ answer: 'approve' });
		return await client.execute(EXAMPLE.id);
	});
	const ran = Object.keys(example.data.resultData.runData);
	expect(
		example.status === 'success' && ran.includes('Refund the order') && !ran.includes('Keep the order (declined or no answer)'),
		'approve-refund-sms.json: the approval took the Refund branch',
		{ status: example.status, ran },
	);

	const timedOut = await step('the unanswered execution, once its wait limit has passed', async () => await client.statusBecomes(unanswered.id));
	const passedOn = firstJson(timedOut, 'Ask');
	expect(
		timedOut.status === 'success' && passedOn !== undefined && !('data' in passedOn) && (timedOut.data.resultData.runData.After?.length ?? 0) === 1,
		'when the limit passed, n8n went on: Ask passed its input on with no `data` (no answer), After ran',
		{ status: timedOut.status, passedOn },
	);
}

export const sendAndWaitCheck: Check = {
	name: `send-and-wait check, n8n ${N8N_VERSION}`,
	prepare: () => ({ workflows: [WORKFLOW, TIMEOUT_WORKFLOW, FORM_WORKFLOW, JSON_FORM_WORKFLOW, EMPTY_FILES_WORKFLOW, EXAMPLE], run: body }),
};

runIfMain(module, sendAndWaitCheck);
