/**
 * The one way the quick demo (scripts/demo.ts) and the bench (scripts/bench/) run a node inside
 * n8n's own engine (n8n-core's WorkflowExecute, through harness/workflowRunner.ts as the tests do):
 * our node and credential loaded from the built package (dist/), as n8n loads them; and the four
 * sends, one of each kind, that the demo makes.
 */
import { join, resolve } from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { CredentialEntry, EngineRun, TargetNode } from '../../harness/workflowRunner';
import { NODE_TYPE } from '../n8n/lib/config';

const DIST = resolve(__dirname, '..', '..', 'dist');

export interface InProcessOptions {
	/** The node run, given ours (default ours), e.g. to rename it or replace its execute. */
	node?: (ours: TargetNode) => TargetNode | Promise<TargetNode>;
	/** Default: our credential from dist/ with `apiKey` and `baseUrl`. */
	credentials?: Record<string, CredentialEntry>;
}

/** Runs a node through n8n's engine: each call runs the workflow items → node once. */
export async function inProcessRunner(
	baseUrl: string,
	apiKey: string,
	{ node, credentials }: InProcessOptions = {},
): Promise<(parameters: INodeParameters, items: IDataObject[]) => Promise<EngineRun>> {
	// Loaded only now: n8n-core reads N8N_USER_FOLDER when first loaded.
	const { createWorkflowRunner } = await import('../../harness/workflowRunner');
	const { MultiChannelNotification } = (await import(
		join(DIST, 'nodes/MultiChannelNotification/MultiChannelNotification.node.js')
	)) as typeof import('../../nodes/MultiChannelNotification/MultiChannelNotification.node');
	const { MultiChannelNotificationApi } = (await import(
		join(DIST, 'credentials/MultiChannelNotificationApi.credentials.js')
	)) as typeof import('../../credentials/MultiChannelNotificationApi.credentials');
	const ours = { typeName: NODE_TYPE, typeVersion: 1, nodeType: new MultiChannelNotification() };
	const run = createWorkflowRunner(node ? await node(ours) : ours);
	const given = credentials ?? { multiChannelNotificationApi: { type: new MultiChannelNotificationApi(), data: { apiKey, baseUrl } } };
	return async (parameters, items) => await run({ parameters, items, credentials: given });
}

const FROM = '+628110000000';
export const RECIPIENT = '+6281234567890';
const TEMPLATE = {
	from: FROM,
	templateName: 'order_shipped',
	templateContent: 'Halo {{1}}, pesanan {{2}} sudah dikirim.',
	headerImageUrl: 'https://cdn.example.com/shipped.png',
};
const MEDIA = { from: FROM, mediaType: 'document' };
const FAILOVER = { from: FROM, templateName: 'otp' };

/** Each with its title as the demo prints it, and its parameters, the recipient and texts from the item by expression (fields phone, name, order, code). */
export const EXAMPLE_SENDS = [
	{
		title: 'Chat Message → Send Template',
		resource: 'chatMessage',
		name: 'sendTemplate',
		parameters: {
			...TEMPLATE,
			to: '={{ $json.phone }}',
			placeholder1: '={{ $json.name }}',
			placeholder2: '={{ $json.order }}',
			quickReplyButtons: { button: [{ index: '0', payload: '={{ "track-" + $json.order }}' }, { index: '1', payload: 'help' }] },
		},
	},
	{
		title: 'Chat Message → Send Media (document)',
		resource: 'chatMessage',
		name: 'sendMedia',
		parameters: { ...MEDIA, to: '={{ $json.phone }}', mediaUrl: '={{ "https://cdn.example.com/invoice-" + $json.order + ".pdf" }}' },
	},
	{
		title: 'SMS → Send SMS',
		resource: 'sms',
		name: 'send',
		parameters: { phoneNumber: '={{ $json.phone }}', message: '=Kode verifikasi Anda: {{ $json.code }}' },
	},
	{
		title: 'Combined Notification → Send with Failover',
		resource: 'combined',
		name: 'sendWithFailover',
		parameters: {
			...FAILOVER,
			to: '={{ $json.phone }}',
			bodyParameters: { parameter: [{ text: '={{ $json.code }}' }] },
			phoneNumber: '={{ $json.phone }}',
			message: '=Kode verifikasi Anda: {{ $json.code }}',
		},
	},
] satisfies Array<Record<'title' | 'resource' | 'name', string> & { parameters: INodeParameters }>;
