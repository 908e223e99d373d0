import type { INode } from 'n8n-workflow';

import { fromAiKeys, nameProblem, toolResultForError } from '../../../../nodes/MultiChannelNotification/delivery/toolResult';
import { serviceError } from '../../../../nodes/MultiChannelNotification/helpers/errors';

/** What the AI agent's model reads when a tool call did not send; more in tool.test.ts. */

const node: INode = {
	id: 'n1',
	name: 'Send SMS',
	type: 'n8n-nodes-multichannel-notification.multiChannelNotificationTool',
	typeVersion: 1,
	position: [0, 0],
	parameters: { resource: 'sms', operation: 'send' },
};
const sendFailed = (delivery: 'rejected' | 'unreached') =>
	serviceError(node, { itemIndex: 0, title: 'The service answered', description: 'What happened.', cause: 'said', delivery });

describe('the headline tells the model what became of the message and what to do', () => {
	test('refused by the service: nothing delivered; call again only after a fix', () => {
		expect(toolResultForError(sendFailed('rejected'), {}).message).toBe(
			'Nothing was delivered: the notification service refused the message. Read the problem, fix the arguments if they caused it, and call again only then.',
		);
	});

	test('the service not reached: nothing sent; not the arguments, call again only later', () => {
		expect(toolResultForError(sendFailed('unreached'), {}).message).toBe(
			'Nothing was sent: the notification service could not be reached. The arguments are not the problem; tell the user, and call again only later.',
		);
	});
});

describe("an error's own text", () => {
	test('the description follows the message, without surrounding blank space; a blank one is left out', () => {
		expect(toolResultForError({ message: 'Credential problem: x', description: '  The key is empty.\n' }, {}).problems).toEqual([
			'Credential problem: x',
			'The key is empty.',
		]);
		expect(toolResultForError({ message: 'Credential problem: x', description: ' \n' }, {}).problems).toEqual(['Credential problem: x']);
	});

	test('an error without a description is its message alone', () => {
		const problems = toolResultForError({ message: 'Credential problem: x' }, {}).problems as unknown[];
		expect(problems).toHaveLength(1);
		expect(problems).toEqual(['Credential problem: x']);
	});
});

describe('a problem in a field the parameters leave unset, or set to null, is the workflow’s fixed setting', () => {
	test.each([
		['unset', {}],
		['null', { options: null }],
		['plain text', { options: 'fixed' }],
	])('the collection holding it is %s', (_kind, parameters) => {
		expect(nameProblem({ field: 'Timeout (Milliseconds)', path: ['options', 'timeout'], rule: 'must be at least 1' }, parameters)).toBe(
			'the workflow\'s fixed setting "Timeout (Milliseconds)" (not one of your arguments) must be at least 1',
		);
	});
});

test('a $fromAI call n8n cannot parse names no argument', () => {
	expect(fromAiKeys("={{ $fromAI('to', 'recipient' }}")).toEqual([]);
	expect(fromAiKeys("={{ $fromAI('to', 'recipient', 'no-such-type') }}")).toEqual([]);
});
