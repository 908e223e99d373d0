/**
 * The tooltip n8n's editor shows while an execution waits at the node, evaluated the way the
 * editor evaluates it (n8n-editor-ui 1.123, 2.8 and 2.41 alike): the node type's
 * `waitingNodeTooltip` through the workflow's expression engine, with the node's parameters and an
 * `$execution` of the editor's own, no run data. 1.123 and 2.8 give the unsigned execution URL;
 * 2.41 gives the waiting task's `metadata.resumeUrl`, which the node sets to its signed link.
 */
import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers, SEND_AND_WAIT_OPERATION, Workflow } from 'n8n-workflow';

import { registry } from '../../../../nodes/MultiChannelNotification/actions/registry';
import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { HUMAN_REVIEW_RESOURCE } from '../../../../nodes/MultiChannelNotification/helpers/resource';
import { NODE_NAME, NODE_TYPE, runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

const nodeType = new MultiChannelNotification();
const UNSIGNED = 'http://localhost:5678/webhook-waiting/42';
const SIGNED = 'http://localhost:5678/webhook-waiting/42/node-1?question=q1&signature=abc.DEF_1';
/** The link as it must stand in an href: `&` written `&amp;`. */
const inHref = (link: string) => link.replace(/&/g, '&amp;');

function tooltip(parameters: INodeParameters, resumeUrl = UNSIGNED): string {
	const node: INode = { id: 'node-1', name: NODE_NAME, type: NODE_TYPE, typeVersion: 1, position: [0, 0], parameters };
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: { getByName: () => nodeType, getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(nodeType, 1), getKnownTypes: () => ({}) },
	});
	const additionalKeys = { $execution: { id: '42', mode: 'test' as const, resumeUrl, resumeFormUrl: 'http://localhost:5678/form-waiting/42' } };
	return String(workflow.expression.getSimpleParameterValue(node, nodeType.description.waitingNodeTooltip!, 'internal', additionalKeys));
}

const sms = { resource: 'sms', operation: 'sendAndWait', phoneNumber: '0812 3456 7890', message: 'Approve?' };

test('SMS on n8n 1.123 / 2.8: where the question went, and how to open the answer page', () => {
	expect(tooltip(sms)).toBe(
		'Waiting for an answer. The question went by SMS to <code>0812 3456 7890</code>. To answer, open the link in that message. With the local sandbox as the service (npm start), the sandbox’s phone page (its address is printed by npm start) shows that message and its link.',
	);
});

test('the tooltip says nothing about signing links or what n8n hands to the editor', () => {
	for (const text of [tooltip(sms), tooltip(sms, SIGNED)]) {
		expect(text).not.toMatch(/sign(s|ed)? /i);
		expect(text).not.toMatch(/hand|editor/i);
	}
});

test('on n8n 2.41: the signed link itself, with its & escaped for the href', () => {
	expect(tooltip(sms, SIGNED)).toBe(
		`Waiting for an answer. The question went by SMS to <code>0812 3456 7890</code>. <a href="${inHref(SIGNED)}" target="_blank">Open the answer page</a> (the link in that message).`,
	);
	expect(tooltip(sms, SIGNED)).toContain('?question=q1&amp;signature=abc.DEF_1"');
});

test('a recipient set by expression is shown as the expression, without its "=", escaped for HTML', () => {
	expect(tooltip({ ...sms, phoneNumber: '={{ $json.phone }}' })).toContain('by SMS to <code>{{ $json.phone }}</code>.');
	expect(tooltip({ ...sms, phoneNumber: '<b>0812</b> & co' })).toContain('<code>&lt;b&gt;0812&lt;/b&gt; &amp; co</code>');
});

test("the human-review tool's Resource: an SMS to the reviewer's number", () => {
	expect(tooltip({ ...sms, resource: HUMAN_REVIEW_RESOURCE })).toContain('The question went by SMS to <code>0812 3456 7890</code>.');
});

test('chat and chat with SMS failover name their numbers', () => {
	expect(tooltip({ resource: 'chatMessage', operation: 'sendAndWait', to: '+6281234567890' })).toContain('went by chat message to <code>+6281234567890</code>.');
	expect(tooltip({ resource: 'combined', operation: 'sendAndWait', to: '+6281234567890', phoneNumber: '={{ $parameter["to"] }}' })).toContain(
		'went by chat message to <code>+6281234567890</code>; the service may fall back to SMS to <code>{{ $parameter[&quot;to&quot;] }}</code>.',
	);
});

test("the tooltip's resource values are the registry's: each resource's Send and Wait is described by the channel its operation names", () => {
	const to = '+6281234567890';
	const phoneNumber = '+6281300001111';
	const said: Record<string, string> = {
		sms: `went by SMS to <code>${phoneNumber}</code>.`,
		chat: `went by chat message to <code>${to}</code>.`,
		chatWithSmsFailover: `went by chat message to <code>${to}</code>; the service may fall back to SMS to <code>${phoneNumber}</code>.`,
	};
	const described = Object.entries(registry).map(([resource, operations]) => {
		const { channel } = operations.sendAndWait;
		return [resource, tooltip({ resource, operation: SEND_AND_WAIT_OPERATION, to, phoneNumber }).includes(said[channel])];
	});
	expect(described).toEqual(Object.keys(registry).map((resource) => [resource, true]));
});

test('no tooltip for the operations that do not wait', () => {
	expect(tooltip({ resource: 'sms', operation: 'send', phoneNumber: '+6281234567890' })).toBe('');
});

test('the link the 2.41 editor gets (the waiting task’s metadata) is the one the message carried', async () => {
	const { run } = await runNode({ parameters: { ...sms, options: {} }, credentials: credentialsFor(sandbox()) });

	expect(run.status).toBe('waiting');
	const [, link] = (sandbox().deliveries()[0].body as { message: string }).message.split('\n');
	expect(link).toMatch(/\/webhook-waiting\/\d+\/target\?question=\w+&signature=/);
	expect(run.data.resultData.runData[NODE_NAME]?.[0]?.metadata).toEqual(expect.objectContaining({ resumeUrl: link }));
	expect(tooltip(sms, link)).toContain(`<a href="${inHref(link)}" target="_blank">Open the answer page</a>`);
});
