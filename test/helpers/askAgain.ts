/**
 * A question asked through n8n's WorkflowExecute, and its link opened or answered through n8n-core's
 * own WebhookContext, as n8n's waiting webhooks call the node (n8n itself checks the signature):
 * for the tests of one node asking again in one execution.
 */
import type { IDataObject, INodeParameters, IRunExecutionData, IWebhookData, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { WebhookContext } from 'n8n-core';

import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { answerWebhooks } from '../../nodes/MultiChannelNotification/sendAndWait/webhook';
import type { Sandbox } from '../../sandbox/server';
import { NODE_NAME, runNode } from './engine';
import { credentialsFor } from './sandbox';

const node = new MultiChannelNotification();

export const sms = (phoneNumber: string): INodeParameters => ({ resource: 'sms', operation: 'sendAndWait', phoneNumber, message: 'Approve the refund?', options: {} });

/** Sends one question and returns its link (the SMS's second line) and the waiting execution's data as n8n saves it. */
export async function ask(sandbox: () => Sandbox, phoneNumber: string): Promise<{ link: URL; saved: IRunExecutionData }> {
	const before = sandbox().deliveries().length;
	const { run, error } = await runNode({ parameters: sms(phoneNumber), credentials: credentialsFor(sandbox()) });
	expect(error).toBeUndefined();
	expect(run.status).toBe('waiting');
	const [, link] = (sandbox().deliveries()[before].body as { message: string }).message.split('\n');
	return { link: new URL(link), saved: JSON.parse(JSON.stringify(run.data)) as IRunExecutionData };
}

export interface Opened {
	status: number;
	html: string;
	workflowData: unknown;
}

/** Opens (GET) or answers "approve" (POST) with `query`, on the execution waiting with `saved`. */
export async function open(saved: IRunExecutionData, query: IDataObject, method: 'GET' | 'POST'): Promise<Opened> {
	const waiting = saved.executionData!.nodeExecutionStack[0].node;
	const workflow = new Workflow({
		id: 'harness',
		nodes: [waiting],
		connections: {},
		active: false,
		nodeTypes: { getByName: () => node, getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(node, 1), getKnownTypes: () => ({}) },
	});
	const page = { status: 0, html: '' };
	const response = {
		status: (code: number) => ((page.status = code), response),
		set: () => response,
		send: (html: string) => ((page.html = html), response),
	};
	const httpRequest =
		method === 'POST'
			? { method, query, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: { approved: 'true' } }
			: { method, query, headers: {}, body: {} };
	const additionalData = { executionId: '1', httpRequest, httpResponse: response } as unknown as IWorkflowExecuteAdditionalData;
	const webhookData = { webhookDescription: answerWebhooks[method === 'POST' ? 1 : 0], node: NODE_NAME, httpMethod: method, path: waiting.id } as unknown as IWebhookData;
	const context = new WebhookContext(workflow, waiting, additionalData, 'webhook', webhookData, [], saved);
	const result = await node.webhook.call(context);
	return { ...page, workflowData: result.workflowData };
}

export const queryOf = (link: URL): IDataObject => Object.fromEntries(link.searchParams);
