/**
 * What saved workflows, n8n and the editor rely on in the node class's description: a change to
 * any of these breaks workflows already built with the node (its type name, version, credential,
 * default node name), or how n8n offers and runs it (group, inputs and outputs, tool use, the
 * credential's test, the answer webhooks, hints). The release checks in test/package read the
 * same description for the docs; these are the promises themselves.
 */
import { NodeConnectionTypes } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { ANSWER_OUTPUT_HINT, WAITING_TOOLTIP } from '../../../nodes/MultiChannelNotification/editor/waiting';
import { answerWebhooks } from '../../../nodes/MultiChannelNotification/sendAndWait/webhook';
import { testCredential } from '../../../nodes/MultiChannelNotification/transport';

/**
 * The node, made inside each test: Stryker's per-test coverage then sees which test reaches the
 * description (made when the file loads, it would be reached by none and its mutants never run).
 */
function made() {
	const node = new MultiChannelNotification();
	return { node, description: node.description };
}

describe('the node class', () => {

	it('keeps the names and version saved workflows refer to', () => {
		const { description } = made();
		expect(description.name).toBe('multiChannelNotification');
		expect(description.version).toBe(1);
		expect(description.defaults).toEqual({ name: 'Multi-Channel Notification' });
		expect(description.displayName).toBe('Multi-Channel Notification');
		expect(description.icon).toEqual({ light: 'file:multiChannelNotification.svg', dark: 'file:multiChannelNotification.dark.svg' });
	});

	it('needs its own credential, tested by the method it names', () => {
		const { node, description } = made();
		expect(description.credentials).toEqual([
			{ name: 'multiChannelNotificationApi', required: true, testedBy: 'multiChannelNotificationApiTest' },
		]);
		expect(node.methods.credentialTest).toEqual({ multiChannelNotificationApiTest: testCredential });
	});

	it('is an output node with one main input and one main output, usable as an AI tool', () => {
		const { description } = made();
		expect(description.group).toEqual(['output']);
		expect(description.inputs).toEqual([NodeConnectionTypes.Main]);
		expect(description.outputs).toEqual([NodeConnectionTypes.Main]);
		expect(description.usableAsTool).toBe(true);
		expect(description.description).toBe(
			'Send chat template and media messages, SMS, and chat messages with SMS failover through the Multi-Channel Notification Service',
		);
	});

	it('offers the answer webhooks, the waiting tooltip and the output hint of Send and Wait', () => {
		const { description } = made();
		expect(description.webhooks).toBe(answerWebhooks);
		expect(description.waitingNodeTooltip).toBe(WAITING_TOOLTIP);
		expect(description.hints).toEqual([ANSWER_OUTPUT_HINT]);
	});
});
