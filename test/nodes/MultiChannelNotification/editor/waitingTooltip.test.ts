/**
 * The tooltip n8n's editor shows while an execution waits at the node, evaluated the way the
 * editor evaluates it (n8n-editor-ui 1.123, 2.8 and 2.41 alike): the node type's
 * `waitingNodeTooltip` through the workflow's expression engine, with the node's parameters and an
 * `$execution` of the editor's own, no run data. 1.123 and 2.8 give the unsigned execution URL;
 * 2.41 gives the waiting task's `metadata.resumeUrl`, which the node sets to its signed link.
 */
import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { HUMAN_REVIEW_RESOURCE } from '../../../../nodes/MultiChannelNotification/helpers/resource';
import { NODE_NAME, NODE_TYPE, runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

const nodeType = new MultiChannelNotification();
const UNSIGNED = 'http://localhost:5678/webhook-waiting/42';
const SIGNED = 'http://localhost:5678/webhook-waiting/42/node-1?signature=abc.DEF_1';

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

test('SMS on n8n 1.123 / 2.8: where the question went, and where the answer link is', () => {
	expect(tooltip(sms)).toBe(
		'Waiting for the answer to an SMS to <code>0812 3456 7890</code>. The answer page opens from the link in that message. n8n signs the link when the message goes out and this n8n does not hand it to the editor, so it is not shown here: to test, open it from the message itself.',
	);
});

test('on n8n 2.41: the signed link itself', () => {
	expect(tooltip(sms, SIGNED)).toBe(
		`Waiting for the answer to an SMS to <code>0812 3456 7890</code>. <a href="${SIGNED}" target="_blank">Open the answer page</a> (the same link as in the message).`,
	);
});

test('a recipient set by expression is shown as the expression, without its "=", escaped for HTML', () => {
	expect(tooltip({ ...sms, phoneNumber: '={{ $json.phone }}' })).toContain('an SMS to <code>{{ $json.phone }}</code>.');
	expect(tooltip({ ...sms, phoneNumber: '<b>0812</b> & co' })).toContain('<code>&lt;b&gt;0812&lt;/b&gt; &amp; co</code>');
});

test("the human-review tool's Resource: an SMS to the reviewer's number", () => {
	expect(tooltip({ ...sms, resource: HUMAN_REVIEW_RESOURCE })).toContain('Waiting for the answer to an SMS to <code>0812 3456 7890</code>.');
});

test('chat and chat with SMS failover name their numbers', () => {
	expect(tooltip({ resource: 'chatMessage', operation: 'sendAndWait', to: '+6281234567890' })).toContain('to a chat message to <code>+6281234567890</code>.');
	expect(tooltip({ resource: 'combined', operation: 'sendAndWait', to: '+6281234567890', phoneNumber: '={{ $parameter["to"] }}' })).toContain(
		'to a chat message to <code>+6281234567890</code>, with SMS failover to <code>{{ $parameter["to"] }}</code>.',
	);
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
	expect(tooltip(sms, link)).toContain(`<a href="${link}" target="_blank">Open the answer page</a>`);
});
