/**
 * The burst legs' workflows, as n8n imports them: an active production webhook (answering when
 * its execution is over) → the client measured, sending one SMS per call from the call's JSON
 * body. The HTTP Request node has n8n's Retry On Fail on at its most (5 tries, 1 s apart), the
 * best a workflow without this node can do against a rate limit.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { BurstResult } from './common';
import type { CredentialFixture } from '../n8n/lib/n8n';
import type { ExampleWorkflow } from '../n8n/lib/examples';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from '../n8n/lib/examples';
import { NODE_TYPE } from '../n8n/lib/install';
import { HTTP_REQUEST_VERSION } from './common';

type Client = BurstResult['client'];

export const WEBHOOK_PATHS: Record<Client, string> = { node: 'bench-burst-node', nodePinned: 'bench-burst-pinned', httpNode: 'bench-burst-http' };
const TITLES: Record<Client, string> = {
	node: 'Multi-Channel Notification',
	nodePinned: 'Multi-Channel Notification, Concurrency 1',
	httpNode: 'HTTP Request',
};
const HEADER_AUTH = { id: 'benchHeaderAuth01', name: 'Bench header auth' };
/**
 * The Concurrency 1 workflow's own credential (the same key and Base URL): the node keeps one pace
 * per credential, so its burst starts from a fresh pace, as the defaults' burst does.
 */
export const SECOND_CREDENTIAL = { id: 'mcnBenchCred02', name: 'Multi-Channel Notification (sandbox, second)' };
export const HTTP_RETRY = { maxTries: 5, waitBetweenTries: 1000 };

/** The HTTP Request node's credential: Header Auth, Authorization = the API key. */
export function headerAuthCredential(apiKey: string): CredentialFixture {
	return { ...HEADER_AUTH, type: 'httpHeaderAuth', data: { name: 'Authorization', value: apiKey } };
}

function webhookWorkflow(id: string, client: Client, send: Record<string, unknown>): ExampleWorkflow {
	return {
		id,
		name: `Bench burst: webhook → ${TITLES[client]}`,
		nodes: [
			{
				id: `${id}-webhook`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: `${id}-hook`,
				parameters: { httpMethod: 'POST', path: WEBHOOK_PATHS[client], responseMode: 'lastNode', options: {} },
			},
			{ id: `${id}-send`, name: 'Send', position: [220, 0], ...send },
		] as unknown as ExampleWorkflow['nodes'],
		connections: { Webhook: { main: [[{ node: 'Send', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** This node's part of a workflow: SMS → Send with the given parameters and the sandbox credential. */
function ourNode(parameters: INodeParameters, credential = { id: CREDENTIAL_ID, name: CREDENTIAL_NAME }): Record<string, unknown> {
	return { type: NODE_TYPE, typeVersion: 1, parameters, credentials: { multiChannelNotificationApi: credential } };
}

export function burstWorkflows(parameters: Record<Client, INodeParameters>): Array<{ client: Client; workflow: ExampleWorkflow }> {
	return [
		{ client: 'node', workflow: webhookWorkflow('mcnBenchBurst01', 'node', ourNode(parameters.node)) },
		{ client: 'nodePinned', workflow: webhookWorkflow('mcnBenchBurst03', 'nodePinned', ourNode(parameters.nodePinned, SECOND_CREDENTIAL)) },
		{
			client: 'httpNode',
			workflow: webhookWorkflow('mcnBenchBurst02', 'httpNode', {
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: HTTP_REQUEST_VERSION,
				parameters: parameters.httpNode,
				credentials: { httpHeaderAuth: HEADER_AUTH },
				retryOnFail: true,
				...HTTP_RETRY,
			}),
		},
	];
}
