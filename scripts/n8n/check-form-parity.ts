/**
 * A Custom Form answered the same way through this node and through n8n's own form (the Wait
 * node, Resume: On Form Submitted, with the same element definitions), in real n8n (2.8.4, or
 * the version N8N_VERSION names), and the two outputs compared: the answers under their labels
 * and the binary data's keys, names and types. Every element type is in the form, with an
 * optional number, radio and file left empty. Each page is posted as its own page would post it:
 * this node's as a browser posts a form without script (its inputs in the page's order, an empty
 * file input as a file with no name or bytes), n8n's as its page's script does (every input's
 * value, each multiple choice as a JSON list, empty files left out). On n8n that stops reading a
 * form at an empty file input (2.8.4, 1.123), the optional file element that is not the form's
 * only one gets a file (docs/send-and-wait.md says why). The one difference allowed
 * is the one docs/send-and-wait.md gives a reason for: an optional number left empty is null
 * here and 0 in n8n's own.
 *
 *   npx tsx scripts/n8n/check-form-parity.ts     (after `npm run build`)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { N8N_DIR, N8N_VERSION } from './lib/config';
import { manualTrigger, noOp, packageNode, workflowFixture } from './lib/examples';
import { FINISHED, firstBinary, firstJson } from './lib/n8n';
import { requestsTo, smsOf } from './lib/sandbox';
import { step } from './lib/stack';

/** Whether this n8n drops a file input left empty (2.41 does; 2.8.4 and 1.123 stop reading the form there). */
const DROPS_BLANK_FILES = existsSync(join(N8N_DIR, 'node_modules', 'n8n', 'dist', 'webhooks', 'webhook-blank-file-inputs.js'));
const choices = (...options: string[]) => ({ values: options.map((option) => ({ option })) });
/** Every element type, each with the answer the person gives it ('' or none: left empty). */
const ELEMENTS: Array<{ element: Record<string, unknown>; answer: string | string[] }> = [
	{ element: { fieldLabel: 'Name', fieldType: 'text', requiredField: true }, answer: '  Budi ' },
	{ element: { fieldLabel: 'Note', fieldType: 'textarea' }, answer: ' Box crushed.\r\nPhotos below. ' },
	{ element: { fieldLabel: 'Amount', fieldType: 'number', requiredField: true }, answer: '150000.5' },
	{ element: { fieldLabel: 'Count', fieldType: 'number' }, answer: '' },
	{ element: { fieldLabel: 'Reply to', fieldType: 'email' }, answer: 'a@b.co' },
	{ element: { fieldLabel: 'Pay by', fieldType: 'date' }, answer: '2026-12-05' },
	{ element: { fieldLabel: 'PIN', fieldType: 'password' }, answer: ' 4 2 ' },
	{ element: { fieldLabel: 'Reason', fieldType: 'dropdown', fieldOptions: choices('Damaged', 'Late') }, answer: 'Late' },
	{ element: { fieldLabel: 'Size', fieldType: 'dropdown', fieldOptions: choices('S', 'M') }, answer: '' },
	{ element: { fieldLabel: 'Tags', fieldType: 'dropdown', multiselect: true, fieldOptions: choices('Gift', 'Urgent', 'Repeat') }, answer: ['Gift', 'Repeat'] },
	{ element: { fieldLabel: 'Refund to', fieldType: 'radio', fieldOptions: choices('Card', 'Wallet') }, answer: ['Wallet'] },
	{ element: { fieldLabel: 'Courier', fieldType: 'radio', fieldOptions: choices('JNE', 'SiCepat') }, answer: [] },
	{ element: { fieldLabel: 'Notify', fieldType: 'checkbox', fieldOptions: choices('SMS', 'Email', 'Call') }, answer: ['SMS', 'Call'] },
	{ element: { fieldLabel: 'Also', fieldType: 'checkbox', fieldOptions: choices('Refund', 'Resend') }, answer: [] },
	{ element: { fieldLabel: 'Scans', fieldType: 'file' }, answer: ['scan.png'] },
	// Left empty where n8n drops an empty file input; older n8n stops reading a form at one, so there it gets a file.
	{ element: { fieldLabel: 'Receipt', fieldType: 'file', multipleFiles: false }, answer: DROPS_BLANK_FILES ? [] : ['receipt.png'] },
	{ element: { fieldType: 'html', elementName: 'intro', html: '<p>A photo of the <b>box</b> helps.</p>' }, answer: '' },
	{ element: { fieldType: 'hiddenField', fieldName: 'orderId', fieldValue: 'ORD-42' }, answer: '' },
];
const FILE_TYPES = ['file'];
const CHOICE_LISTS = ['radio', 'checkbox'];
/** The file the person attaches: a 1 × 1 PNG. */
const SCAN = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const scan = () => new Blob([SCAN], { type: 'image/png' });

const ASK = { resource: 'sms', operation: 'sendAndWait', phoneNumber: '+6281234567890', message: 'Tell us about the refund', responseType: 'customForm' };
const NODE_WORKFLOW = workflowFixture('mcnFormParity01', 'Form parity: this node', [
	manualTrigger(),
	packageNode('Ask', { ...ASK, formFields: { values: ELEMENTS.map(({ element }) => element) } }),
	noOp(),
]);
/** n8n's own: its form's address (with the resume token newer n8n wants) from a Code node, then the Wait node. */
const N8N_WORKFLOW = workflowFixture('mcnFormParity02', 'Form parity: n8n Wait node', [
	manualTrigger(),
	{ name: 'Form address', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: 'return [{ json: { url: $execution.resumeFormUrl } }];' } },
	{
		name: 'Wait for form',
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		parameters: { resume: 'form', formTitle: 'Refund', formDescription: '', formFields: { values: ELEMENTS.map(({ element }) => element) }, responseMode: 'onReceived', options: {} },
	},
	noOp(),
]);
const SETTLED = ['waiting', ...FINISHED];

const typeOf = (element: Record<string, unknown>) => String(element.fieldType ?? 'text');
const isList = (element: Record<string, unknown>) => CHOICE_LISTS.includes(typeOf(element)) || (typeOf(element) === 'dropdown' && element.multiselect === true);

/** This node's page, posted as a browser posts it: each input in the page's order. */
async function postToNode(link: string): Promise<{ status: number; order: string[] }> {
	const page = await (await fetch(link)).text();
	const order = [...new Set([...page.matchAll(/<input[^>]* name="([\w-]+)"|<(?:select|textarea)[^>]* name="([\w-]+)"/g)].map((match) => match[1] ?? match[2]))];
	const body = new FormData();
	for (const name of order) {
		const index = /^field-(\d+)$/.exec(name)?.[1];
		if (index === undefined) {
			body.append(name, '1');
			continue;
		}
		const { element, answer } = ELEMENTS[Number(index)];
		if (FILE_TYPES.includes(typeOf(element))) {
			if (answer.length === 0) body.append(name, new Blob([]), '');
			for (const file of answer) body.append(name, scan(), file);
		} else if (isList(element)) {
			for (const choice of answer) body.append(name, choice);
		} else {
			body.append(name, String(answer));
		}
	}
	const response = await fetch(link, { method: 'POST', body });
	return { status: response.status, order };
}

/** n8n's own form, posted as its page's script posts it. */
async function postToN8n(url: string): Promise<number> {
	const body = new FormData();
	ELEMENTS.forEach(({ element, answer }, index) => {
		const name = `field-${index}`;
		const type = typeOf(element);
		if (FILE_TYPES.includes(type)) for (const file of answer) body.append(name, scan(), file);
		else if (isList(element)) body.append(name, JSON.stringify(answer));
		else if (type === 'html') body.append(name, String(element.html));
		else if (type === 'hiddenField') body.append(name, String(element.fieldValue));
		else body.append(name, String(answer));
	});
	return (await fetch(url, { method: 'POST', body })).status;
}

const binaryOf = (binary: Record<string, { fileName?: string; mimeType?: string }>) =>
	Object.fromEntries(Object.entries(binary).map(([key, file]) => [key, { fileName: file.fileName, mimeType: file.mimeType }]));

async function body({ sandbox, stack: { client }, expect, verify }: CheckContext): Promise<void> {
	const node = await step('this node: the form answered as its page posts it', async () => {
		const { id } = await client.execute(NODE_WORKFLOW.id, { until: SETTLED });
		const link = smsOf(requestsTo(sandbox).at(-1)!).message.split('\n')[1];
		const posted = await postToNode(link);
		return { ...posted, run: await client.statusBecomes(id) };
	});
	expect(node.status === 200 && node.run.status === 'success', 'this node recorded the answer and the execution finished', { status: node.status, order: node.order, run: node.run.status });

	const own = await step('n8n\'s Wait node: the same form answered as its page posts it', async () => {
		const waiting = await client.execute(N8N_WORKFLOW.id, { until: SETTLED });
		const url = String(firstJson(waiting, 'Form address')?.url ?? '').replace(/^https?:\/\/[^/]+/, client.url);
		const status = await postToN8n(url);
		return { url, status, run: await client.statusBecomes(waiting.id) };
	});
	expect(own.status === 200 && own.run.status === 'success', 'n8n\'s own form recorded the answer and the execution finished', { url: own.url, status: own.status, run: own.run.status });

	const { respondedAt: _at, ...ours } = (firstJson(node.run, 'Ask')?.data ?? {}) as Record<string, unknown>;
	const { submittedAt: _submitted, formMode: _mode, ...theirs } = firstJson(own.run, 'Wait for form') ?? {};
	const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])];
	const differing = keys.filter((key) => !isDeepStrictEqual(ours[key], theirs[key]));
	verify(
		isDeepStrictEqual(differing, ['Count']) && ours.Count === null && theirs.Count === 0,
		`n8n ${N8N_VERSION}: every answer the same under the same key as n8n's own form gives it, but the optional number left empty (null here, 0 there)`,
		{ differing: Object.fromEntries(differing.map((key) => [key, { node: ours[key], n8n: theirs[key] }])), node: ours, n8n: theirs },
	);
	const [ourFiles, theirFiles] = [binaryOf(firstBinary(node.run, 'Ask')), binaryOf(firstBinary(own.run, 'Wait for form'))];
	verify(
		isDeepStrictEqual(ourFiles, theirFiles) && 'Scans' in ourFiles && !('Scans_0' in ourFiles),
		'the binary data the same: one file of a several-files element under its label, Scans',
		{ node: ourFiles, n8n: theirFiles },
	);
}

export const formParityCheck: Check = {
	name: `form parity with n8n's own form, n8n ${N8N_VERSION}`,
	prepare: () => ({ workflows: [NODE_WORKFLOW, N8N_WORKFLOW], run: body }),
};

runIfMain(module, formParityCheck);
