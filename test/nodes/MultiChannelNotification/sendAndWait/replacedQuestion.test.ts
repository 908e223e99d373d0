/**
 * One node asking again in one execution (a loop, or an AI agent calling its human-review tool
 * twice): each question's link carries its own signed `question` value, and only the link of the
 * question the execution now waits for answers it. Two sends through n8n's WorkflowExecute stand
 * for the two questions: the second run's saved execution data is the state after the node asked
 * again, and each message's link is then opened and answered through n8n-core's own
 * WebhookContext, as n8n's waiting webhooks call the node (n8n itself checks the signature).
 */
import type { IDataObject } from 'n8n-workflow';

import { ask as askWith, open, queryOf, sms } from '../../../helpers/askAgain';
import { NODE_NAME, runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';
import { RESPONDED_AT } from './webhookCall';

const sandbox = useSandbox();
const ask = async (phoneNumber: string) => await askWith(sandbox, phoneNumber);
const REPLACED = /replaced by a newer one/;

describe('the node asks again in the same execution', () => {
	test('each question’s link carries its own value, besides n8n’s signature', async () => {
		const first = await ask('+6281111111111');
		const second = await ask('+6282222222222');

		expect(first.link.searchParams.get('question')).toMatch(/^[A-Za-z0-9]{20,}$/);
		expect(second.link.searchParams.get('question')).toMatch(/^[A-Za-z0-9]{20,}$/);
		expect(first.link.searchParams.get('question')).not.toBe(second.link.searchParams.get('question'));
		expect(first.link.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
	});

	test('the first message’s link, answered: a page saying its question was replaced, nothing recorded', async () => {
		const first = await ask('+6281111111111');
		const second = await ask('+6282222222222');

		const answered = await open(second.saved, queryOf(first.link), 'POST');

		expect(answered.workflowData).toBeUndefined();
		expect(answered.status).toBe(410);
		expect(answered.html).toMatch(REPLACED);
		expect(answered.html).not.toContain('<form');
	});

	test('the first message’s link, opened: the same page, no buttons', async () => {
		const first = await ask('+6281111111111');
		const second = await ask('+6282222222222');

		const opened = await open(second.saved, queryOf(first.link), 'GET');

		expect(opened.status).toBe(410);
		expect(opened.html).toMatch(REPLACED);
		expect(opened.html).not.toContain('<form');
		// The page's own style, and no other.
		expect(opened.html.match(/<style>/g)).toHaveLength(1);
	});

	test('the newest message’s link: the page with the buttons, and its answer resumes, credited to its recipient', async () => {
		await ask('+6281111111111');
		const second = await ask('+6282222222222');

		const opened = await open(second.saved, queryOf(second.link), 'GET');
		expect(opened.status).toBe(200);
		expect(opened.html).toContain('<form method="post">');

		const answered = await open(second.saved, queryOf(second.link), 'POST');
		expect(answered.status).toBe(200);
		const [[item]] = answered.workflowData as Array<Array<{ json: IDataObject }>>;
		expect(item.json).toEqual({ data: { approved: true, respondedAt: RESPONDED_AT }, question: expect.objectContaining({ recipient: '+6282222222222' }) });
	});

	test('a link without the value (a message sent before this version) does not answer a question asked since', async () => {
		const second = await ask('+6282222222222');
		const old = queryOf(second.link);
		delete old.question;

		const answered = await open(second.saved, old, 'POST');

		expect(answered.workflowData).toBeUndefined();
		expect(answered.html).toMatch(REPLACED);
	});

	test('an execution already waiting when the package was updated (no value kept): its link still answers', async () => {
		const asked = await ask('+6282222222222');
		const context = asked.saved.executionData!.contextData[`node:${NODE_NAME}`] as IDataObject;
		expect(context.sendAndWaitLink).toBeDefined();
		delete context.sendAndWaitLink;
		const old = queryOf(asked.link);
		delete old.question;

		const answered = await open(asked.saved, old, 'POST');

		expect(answered.status).toBe(200);
		expect((answered.workflowData as Array<Array<{ json: IDataObject }>>)[0][0].json.data).toEqual({ approved: true, respondedAt: RESPONDED_AT });
	});
});

describe('Retry On Fail (n8n runs the node again on the same items)', () => {
	test('a 500 after delivery: the next try makes the same message, link included, so it is not sent again', async () => {
		sandbox().injectFault({ kind: 'status', status: 500, afterDelivery: true });

		const { error } = await runNode({ parameters: sms('+6281111111111'), credentials: credentialsFor(sandbox()), retryOnFail: { maxTries: 2 } });

		expect(error?.description).toContain('Retry On Fail did not send this item again');
		expect(sandbox().stats().received).toBe(1);
	});
});
