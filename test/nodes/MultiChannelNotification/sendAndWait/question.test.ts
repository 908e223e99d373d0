/**
 * Who was asked, and by which message, from the send to the answer: the send runs through n8n's
 * WorkflowExecute and waits; the answer goes to the node's webhook through n8n-core's own
 * WebhookContext, built on the waiting execution's data as n8n's waiting webhooks build it. The
 * answer's item carries `question` beside `data`, and `data` keeps n8n's send-and-wait shape.
 */
import type { IDataObject, IExecuteFunctions, INodeParameters, IRunExecutionData, IWebhookData, IWebhookFunctions, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { WebhookContext } from 'n8n-core';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { HUMAN_REVIEW_RESOURCE } from '../../../../nodes/MultiChannelNotification/helpers/resource';
import { questionOf, recallNonce, recallQuestion, rememberQuestion } from '../../../../nodes/MultiChannelNotification/sendAndWait/question';
import { answerWebhooks } from '../../../../nodes/MultiChannelNotification/sendAndWait/webhook';
import { NODE_NAME, runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';
import { RESPONDED_AT } from './webhookCall';

const sandbox = useSandbox();
const node = new MultiChannelNotification();

const APPROVE = { approvalOptions: { values: { approvalType: 'double' } } };

/** The query of the answer link the one request carried (its question's value and signature), as the page posts it back. */
function linkQuery(): IDataObject {
	const link = /https?:\/\/[^\s"]+/.exec(JSON.stringify(sandbox().deliveries()[0].body));
	expect(link).not.toBeNull();
	return Object.fromEntries(new URL(link![0]).searchParams);
}

/**
 * Sends and waits, then answers "approve" through n8n-core's WebhookContext on the waiting
 * execution's data, as saved (JSON) and loaded again; `loaded` may change it first.
 */
async function askAndApprove(parameters: INodeParameters, loaded: (data: IRunExecutionData) => void = () => {}) {
	const { run, error } = await runNode({ parameters: { ...parameters, ...APPROVE }, credentials: credentialsFor(sandbox()) });
	expect(error).toBeUndefined();
	expect(run.status).toBe('waiting');
	// What n8n saves and loads again: the execution's data as JSON.
	const saved = JSON.parse(JSON.stringify(run.data)) as IRunExecutionData;
	loaded(saved);
	const waiting = saved.executionData?.nodeExecutionStack[0]?.node;
	expect(waiting?.name).toBe(NODE_NAME);
	const workflow = new Workflow({
		id: 'harness',
		nodes: [waiting!],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => node,
			getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(node, 1),
			getKnownTypes: () => ({}),
		},
	});
	const page = { status: 0 };
	const response = {
		status: (code: number) => ((page.status = code), response),
		set: () => response,
		send: () => response,
	};
	const additionalData = {
		executionId: '1',
		httpRequest: { method: 'POST', query: linkQuery(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: { approved: 'true' } },
		httpResponse: response,
	} as unknown as IWorkflowExecuteAdditionalData;
	const webhookData = { webhookDescription: answerWebhooks[1], node: NODE_NAME, httpMethod: 'POST', path: waiting!.id } as unknown as IWebhookData;
	const context = new WebhookContext(workflow, waiting!, additionalData, 'webhook', webhookData, [], saved);
	const result = await node.webhook.call(context);
	expect(page.status).toBe(200);
	return result.workflowData?.[0]?.[0]?.json as IDataObject;
}

/** The service's answer to the one request the test sent. */
const answered = () => (sandbox().deliveries()[0].response as { data: IDataObject }).data;

/** What the SMS sent (question, line break, link: GSM-7's default alphabet only) cost. */
const smsCost = (text: string) => ({ encoding: 'GSM-7', length: text.length, segments: text.length <= 160 ? 1 : Math.ceil(text.length / 153), forcedBy: [] });

test('SMS: the number as sent (a local 0812… normalised), the SMS id and request id, what the SMS cost', async () => {
	const json = await askAndApprove({ resource: 'sms', operation: 'sendAndWait', phoneNumber: '0812-3456-7890', message: 'Approve?', options: {} });

	expect((sandbox().deliveries()[0].body as IDataObject).phone_number).toBe('+6281234567890');
	const { id, request_id } = answered();
	expect(json).toEqual({
		data: { approved: true, respondedAt: RESPONDED_AT },
		question: { channel: 'sms', recipient: '+6281234567890', messageId: String(id), requestId: String(request_id), sms: smsCost(String((sandbox().deliveries()[0].body as IDataObject).message)) },
	});
});

test("the human-review tool's Resource is an SMS: the reviewer's number as sent", async () => {
	const json = await askAndApprove({ resource: HUMAN_REVIEW_RESOURCE, operation: 'sendAndWait', phoneNumber: '0813 1111 2222', message: 'Approve?', options: {} });

	expect(json.question).toEqual(expect.objectContaining({ channel: 'sms', recipient: '+6281311112222' }));
});

test('Chat template: To as sent and the message id', async () => {
	const json = await askAndApprove({
		resource: 'chatMessage',
		operation: 'sendAndWait',
		from: '+6281100000000',
		to: '0812 3456 7890',
		templateName: 'refund_approval',
		languageCode: 'id',
		templateContent: 'Approve the refund here: {{1}}',
		linkPlaceholder: 1,
		message: 'Approve?',
		options: {},
	});

	expect(json).toEqual({ data: { approved: true, respondedAt: RESPONDED_AT }, question: { channel: 'chat', recipient: '+6281234567890', messageId: String(answered().id) } });
});

test('Chat with SMS failover: both numbers as sent, the request id and what the SMS part cost', async () => {
	const json = await askAndApprove({
		resource: 'combined',
		operation: 'sendAndWait',
		from: '+6281100000000',
		to: '+6281234567890',
		phoneNumber: '0813 0000 1111',
		templateName: 'refund_approval',
		languageCode: 'id',
		templateContent: 'Approve the refund here: {{1}}',
		linkPlaceholder: 1,
		message: 'Approve?',
		options: {},
	});

	expect(json).toEqual({
		data: { approved: true, respondedAt: RESPONDED_AT },
		question: {
			channel: 'chatWithSmsFailover',
			recipient: '+6281234567890',
			smsRecipient: '+6281300001111',
			requestId: String(answered().request_id),
			sms: smsCost((sandbox().deliveries()[0].body as { sms: { message: string } }).sms.message),
		},
	});
});

test('a message sent before the node kept who was asked: the answer still resumes, with `data` alone', async () => {
	const sms = { resource: 'sms', operation: 'sendAndWait', phoneNumber: '+6281234567890', message: 'Approve?', options: {} };
	const json = await askAndApprove(sms, (data) => {
		expect(data.executionData?.contextData[`node:${NODE_NAME}`]).toBeDefined();
		data.executionData!.contextData = {};
	});

	expect(json).toEqual({ data: { approved: true, respondedAt: RESPONDED_AT } });
});

describe('reading it back, whatever the n8n', () => {
	const stored = JSON.stringify({ channel: 'sms', recipient: '+6281234567890', messageId: 'm-1' });
	const fake = (parts: object) => ({ getNode: () => ({ name: NODE_NAME }), logger: { warn: jest.fn() }, ...parts }) as unknown as IWebhookFunctions;

	test('an n8n that gives the webhook the node’s context: read from it, no expression evaluated', () => {
		const evaluateExpression = jest.fn();
		const question = recallQuestion(fake({ getContext: () => ({ sendAndWaitQuestion: stored }), evaluateExpression }));

		expect(question).toEqual({ channel: 'sms', recipient: '+6281234567890', messageId: 'm-1' });
		expect(evaluateExpression).not.toHaveBeenCalled();
	});

	test('the engine refuses the expression: logged, and the answer goes on without it', () => {
		const context = fake({ evaluateExpression: () => { throw new Error('no execution data'); } });

		expect(recallQuestion(context)).toBeUndefined();
		expect(context.logger.warn).toHaveBeenCalledWith(expect.stringContaining('could not read who was asked'));
	});

	test.each(['Ask {{ boss }}', 'Ask {{', 'Ask }}'])('a node name with expression brackets (%s) is never written into an expression', (name) => {
		const evaluateExpression = jest.fn(() => stored);
		expect(recallQuestion(fake({ getNode: () => ({ name }), evaluateExpression }))).toBeUndefined();
		expect(evaluateExpression).not.toHaveBeenCalled();
	});

	test('the current link value: read like the question; when it cannot be read, logged and none (any link answers, as before)', () => {
		expect(recallNonce(fake({ getContext: () => ({ sendAndWaitLink: 'abc' }) }))).toBe('abc');
		expect(recallNonce(fake({ getContext: () => ({ sendAndWaitLink: '' }) }))).toBeUndefined();
		const context = fake({ evaluateExpression: () => { throw new Error('no execution data'); } });
		expect(recallNonce(context)).toBeUndefined();
		expect(context.logger.warn).toHaveBeenCalledWith(expect.stringContaining('could not read which question is current'));
	});

	test('anything else stored there is not output', () => {
		for (const value of ['{"channel":"fax","recipient":"+1"}', '{"channel":"sms"}', 'not json', 42]) {
			expect(recallQuestion(fake({ getContext: () => ({ sendAndWaitQuestion: value }) }))).toBeUndefined();
		}
	});
});

describe('what is kept when the message goes out', () => {
	test.each([
		['an SMS: a numeric id as text, an empty request id left out', 'sms', { phoneNumber: '+6281234567890', data: { id: 7, request_id: '' } }, { channel: 'sms', recipient: '+6281234567890', messageId: '7' }],
		['a chat: no SMS number, no ids the service did not give', 'chat', { to: '+6281234567890', phoneNumber: '+6281300001111' }, { channel: 'chat', recipient: '+6281234567890' }],
		['a combined send without an SMS number', 'chatWithSmsFailover', { to: '+6281234567890', data: { request_id: 'r-1' } }, { channel: 'chatWithSmsFailover', recipient: '+6281234567890', requestId: 'r-1' }],
		['an empty number: nobody to name', 'chat', { to: '', data: { id: 'm-1' } }, undefined],
		['an SMS names its Phone Number, not a chat To', 'sms', { to: '+6281234567890' }, undefined],
	] as const)('%s', (_name, channel, sent, question) => {
		// The channel comes with the Send and Wait operation that asked; strict: a key that is there but undefined counts too.
		expect(questionOf(channel, sent)).toStrictEqual(question);
	});

	test('nothing is stored when there is no question, or no node context to keep it in', () => {
		const store: IDataObject = {};
		const getContext = () => store;
		rememberQuestion({ getContext } as unknown as IExecuteFunctions, undefined);
		expect(Object.keys(store)).toEqual([]);

		expect(() => rememberQuestion({} as IExecuteFunctions, { channel: 'sms', recipient: '+6281234567890' })).not.toThrow();
	});

	test('asked again: the new link value replaces the earlier one, and a question nobody can be named for clears the earlier question', () => {
		const store: IDataObject = { sendAndWaitQuestion: '{"channel":"sms","recipient":"+6281111111111"}', sendAndWaitLink: 'first' };
		rememberQuestion({ getContext: () => store } as unknown as IExecuteFunctions, undefined, 'second');

		expect(store).toEqual({ sendAndWaitLink: 'second' });
	});
});
