import type { IBinaryKeyData, IDataObject, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';
import { readAnswer } from './answer';
import { DEFAULT_APPROVE_LABEL, DEFAULT_DECLINE_LABEL, DEFAULT_SUBMIT_LABEL, MAX_ANSWER_CHARS, QUESTION_PARAMETER } from './constants';
import { readFormParameters } from './form';
import type { Choice, PageBody } from './page';
import { answerPage, pageHeaders } from './page';
import { recallNonce, recallQuestion } from './question';

/**
 * The answer link's two webhooks, as n8n's own send-and-wait nodes declare them: n8n serves them
 * at /webhook-waiting/<execution>/<node id> while the execution waits for this node, checks the
 * link's signature and the execution's state, and calls `answerWebhook`. A constant, so n8n's
 * lint sees no webhook lifecycle to implement: these are n8n's waiting webhooks, not ones the
 * node registers with a service.
 */
const waitingWebhook = (httpMethod: 'GET' | 'POST'): IWebhookDescription => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
});
export const answerWebhooks: IWebhookDescription[] = [waitingWebhook('GET'), waitingWebhook('POST')];

const TITLE = 'Your answer';

const BROKEN_FORM = {
	kind: 'notice' as const,
	title: 'This form cannot be shown',
	text: 'The form for this question has a problem in the workflow, so no answer can be taken here: nothing was recorded. Tell whoever sent you the link.',
};

const REPLACED = {
	kind: 'notice' as const,
	title: 'Question replaced',
	text: 'This link belongs to an earlier question, which was replaced by a newer one: nothing was recorded. Answer with the link in the newest message.',
};

/**
 * Whether the link opened is not that of the question the execution now waits for: the node
 * asked again (a loop, an agent's second review) and this is an earlier message's link, or one
 * from before links carried their question (question.ts: none kept, any link answers).
 */
function isReplaced(context: IWebhookFunctions): boolean {
	const current = recallNonce(context);
	if (current === undefined) return false;
	const query = (context.getQueryData() ?? {}) as IDataObject;
	return query[QUESTION_PARAMETER] !== current;
}

interface Setup {
	body: PageBody;
	/** Set when the page can take no answer: the status it is shown with, to every request. */
	status?: number;
	/** Response Form Custom Styling, for every page of a Free Text or Custom Form answer. */
	css: string;
}

/**
 * A Custom Form that cannot be read: a page that says so and takes no answer (every request
 * gets it; nothing is recorded), its problems in n8n's log for whoever runs the workflow (the
 * page does not show the workflow's definition to the person answering).
 */
function brokenForm(context: IWebhookFunctions, problems: Problem[], css: string): Setup {
	const said = problems.map(({ field, rule }) => `${field} ${rule}`).join('; ');
	context.logger.warn(`Send and Wait: the Custom Form cannot be read, so the answer page shows an error: ${said}`);
	return { body: BROKEN_FORM, css, status: 500 };
}

const label = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback);

function setupOf(context: IWebhookFunctions): Setup {
	const message = String(context.getNodeParameter('message', '') ?? '').trim();
	const responseType = context.getNodeParameter('responseType', 'approval');
	if (responseType === 'freeText' || responseType === 'customForm') {
		const options = context.getNodeParameter('options', {}) as IDataObject;
		const page = {
			message,
			title: label(options.responseFormTitle, ''),
			description: label(options.responseFormDescription, ''),
			buttonLabel: label(options.responseFormButtonLabel, DEFAULT_SUBMIT_LABEL),
		};
		const css = typeof options.responseFormCustomCss === 'string' ? options.responseFormCustomCss : '';
		if (responseType === 'freeText') return { body: { kind: 'text', maxLength: MAX_ANSWER_CHARS, ...page }, css };
		// Checked before the message was sent (wait.ts), but read again now, where an expression in
		// the definition may give something else.
		const form = readFormParameters((name, fallback) => context.getNodeParameter(name, fallback));
		if (form.problems.length > 0) return brokenForm(context, form.problems, css);
		return { body: { kind: 'form', fields: form.fields, ...page }, css };
	}
	const approval = context.getNodeParameter('approvalOptions.values', {}) as IDataObject;
	const choices: Choice[] = [
		{ field: 'approved', answer: 'true', label: label(approval.approveLabel, DEFAULT_APPROVE_LABEL), primary: true },
	];
	// Approve and Decline unless Approve only is chosen (editor/responseFields.ts: also without Approval Options).
	if (approval.approvalType !== 'single') {
		choices.push({ field: 'approved', answer: 'false', label: label(approval.disapproveLabel, DEFAULT_DECLINE_LABEL), primary: false });
	}
	return { body: { kind: 'question', message, choices }, css: '' };
}

/**
 * A GET (a person opening the link, or a link preview, an SMS scanner, a bot) only shows the
 * page; a POST from it records the answer and resumes the execution with `{ data: … }`, the
 * shape n8n's own send-and-wait nodes output (a Custom Form's files as the item's binary data,
 * copied into n8n's binary data store), and `question`: who was asked, by which message.
 */
export async function answerWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const response = this.getResponseObject();
	const send = (status: number, title: string, body: PageBody, css = ''): IWebhookResponseData => {
		response.status(status).set(pageHeaders(body)).send(answerPage(title, body, css));
		return { noWebhookResponse: true };
	};
	// 410 Gone: this link's question is over; the execution keeps waiting for the newer one's answer.
	if (isReplaced(this)) return send(410, REPLACED.title, REPLACED);
	const setup = setupOf(this);
	if (setup.status !== undefined && setup.body.kind === 'notice') return send(setup.status, setup.body.title, setup.body, setup.css);
	if (this.getRequestObject().method !== 'POST') return send(200, TITLE, setup.body, setup.css);
	const answer = readAnswer(this, setup.body);
	if ('status' in answer) return send(answer.status, answer.title, { kind: 'notice', title: answer.title, text: answer.text }, setup.css);
	const binary: IBinaryKeyData = {};
	for (const { key, file } of answer.files ?? []) {
		binary[key] = await this.nodeHelpers.copyBinaryFile(file.filepath, file.originalFilename ?? file.newFilename ?? key, file.mimetype ?? undefined);
	}
	send(200, 'Thank you', { kind: 'notice', title: 'Thank you', text: `${answer.said}\nYou can close this page.` }, setup.css);
	// `data` as n8n's own send-and-wait nodes output it; beside it, who was asked and by which message.
	const question = recallQuestion(this);
	// When the answer was recorded, as n8n's own send-and-wait nodes give it: set last, so a form
	// field of that name cannot stand in for it.
	const data: IDataObject = { ...answer.data, respondedAt: new Date().toISOString() };
	const json: IDataObject = question === undefined ? { data } : { data, question: { ...question } };
	const item = Object.keys(binary).length === 0 ? { json } : { json, binary };
	return { noWebhookResponse: true, workflowData: [[item]] };
}
