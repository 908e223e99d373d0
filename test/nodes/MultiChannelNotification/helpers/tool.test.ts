import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeHelpers, NodeOperationError } from 'n8n-workflow';

import * as chatMessage from '../../../../nodes/MultiChannelNotification/actions/chatMessage';
import * as combined from '../../../../nodes/MultiChannelNotification/actions/combined';
import * as sms from '../../../../nodes/MultiChannelNotification/actions/sms';
import {
	argumentProblems,
	errorStage,
	nameProblem,
	fromAiKey,
	fromAiKeys,
	isToolRun,
	nameArgument,
	problemTexts,
	sendFailureOutcome,
	TOOL_DESCRIPTIONS,
	toolDescriptionFor,
	toolDescriptionProperties,
	toolErrorResult,
	toolResultForError,
} from '../../../../nodes/MultiChannelNotification/helpers/tool';
import { parseOrThrow } from '../../../../nodes/MultiChannelNotification/helpers/validation';
import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { SMS_LABELS, smsSendSchema } from '../../../../nodes/MultiChannelNotification/schemas';

const node: INode = {
	id: 'n1',
	name: 'Send SMS',
	type: 'n8n-nodes-multichannel-notification.multiChannelNotificationTool',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** The editor's "let the model define this parameter" value for a field. */
const editorFromAi = (key: string, type = 'string') =>
	`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`\`, '${type}') }}`;

function thrown(work: () => unknown): NodeOperationError {
	try {
		work();
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('expected an error');
}

describe('tool descriptions', () => {
	test('one per operation, each stating its rules, none longer than 1024 characters', () => {
		expect(Object.keys(TOOL_DESCRIPTIONS).sort()).toEqual([
			'chatMessage.sendMedia',
			'chatMessage.sendTemplate',
			'combined.sendWithFailover',
			'sms.send',
		]);
		for (const text of Object.values(TOOL_DESCRIPTIONS)) {
			expect(text.length).toBeLessThanOrEqual(1024);
			expect(text).toContain('E.164');
			expect(text).toContain('leading +');
			expect(text).toContain('sent: false');
		}
		expect(TOOL_DESCRIPTIONS['sms.send']).toContain('+62');
		expect(TOOL_DESCRIPTIONS['combined.sendWithFailover']).toContain('+62');
		expect(TOOL_DESCRIPTIONS['chatMessage.sendMedia']).toMatch(/https/);
		expect(TOOL_DESCRIPTIONS['chatMessage.sendMedia']).toMatch(/already started a chat/);
		for (const key of ['chatMessage.sendTemplate', 'combined.sendWithFailover'] as const) {
			const text = TOOL_DESCRIPTIONS[key];
			expect(text).toMatch(/body (component )?is (always )?required/);
			expect(text).toContain('{{1}}, {{2}}');
			expect(text).toMatch(/in order/);
			expect(text).toMatch(/at most 3 quick repl/);
			expect(text).toMatch(/0[–,-] ?1? ?(or )?2|0–2/);
			expect(text).toMatch(/URL button/);
		}
		expect(TOOL_DESCRIPTIONS['chatMessage.sendTemplate']).toMatch(/Template name/);
		expect(TOOL_DESCRIPTIONS['chatMessage.sendTemplate']).toMatch(/Language code/);
		expect(TOOL_DESCRIPTIONS['combined.sendWithFailover']).toMatch(/both parts/i);
		expect(toolDescriptionFor('sms', 'send')).toBe(TOOL_DESCRIPTIONS['sms.send']);
		expect(toolDescriptionFor('sms', 'nope')).toBeUndefined();
	});

	test('the toolDescription fields show only in the tool variant, for their own operation', () => {
		expect(toolDescriptionProperties).toHaveLength(4);
		const tool = { ...new MultiChannelNotification().description, name: 'multiChannelNotificationTool' };
		const base = new MultiChannelNotification().description;
		const properties = [
			...base.properties.filter((property) => property.name !== 'toolDescription'),
			...toolDescriptionProperties,
		];
		const resolved = (description: typeof base, parameters: INodeParameters) =>
			NodeHelpers.getNodeParameters(properties, parameters, true, false, null, description);

		expect(resolved(tool, { resource: 'sms', operation: 'send' })?.toolDescription).toBe(TOOL_DESCRIPTIONS['sms.send']);
		expect(resolved(tool, { resource: 'chatMessage', operation: 'sendMedia' })?.toolDescription).toBe(
			TOOL_DESCRIPTIONS['chatMessage.sendMedia'],
		);
		expect(resolved(base, { resource: 'sms', operation: 'send' })?.toolDescription).toBeUndefined();
	});

	test('n8n picks the operation’s text as the tool description (getToolDescriptionForNode)', () => {
		const type = new MultiChannelNotification();
		const hasOwn = type.description.properties.some((property) => property.name === 'toolDescription');
		if (!hasOwn) return; // Not wired into the node description (yet).
		const toolType = { ...type, description: { ...type.description, name: 'multiChannelNotificationTool' } };
		const parameters = NodeHelpers.getNodeParameters(
			toolType.description.properties,
			{ resource: 'chatMessage', operation: 'sendTemplate' },
			true,
			false,
			node,
			toolType.description,
		) as INodeParameters;
		expect(NodeHelpers.getToolDescriptionForNode({ ...node, parameters }, toolType)).toBe(
			TOOL_DESCRIPTIONS['chatMessage.sendTemplate'],
		);
	});
});

describe('isToolRun', () => {
	test('true for the tool variant run by the engine (AI Agent v3)', () => {
		expect(isToolRun({ getNode: () => node, isToolExecution: () => false })).toBe(true);
	});
	test('true in a supply-data context serving an ai_tool connection', () => {
		expect(
			isToolRun({ getNode: () => ({ type: 'n8n-nodes-multichannel-notification.multiChannelNotification' }), isToolExecution: () => true }),
		).toBe(true);
	});
	test('false for the ordinary node, also without isToolExecution (older n8n)', () => {
		const ordinary = { getNode: () => ({ type: 'n8n-nodes-multichannel-notification.multiChannelNotification' }) };
		expect(isToolRun(ordinary)).toBe(false);
		expect(isToolRun({ ...ordinary, isToolExecution: () => false })).toBe(false);
		expect(
			isToolRun({
				...ordinary,
				isToolExecution: () => {
					throw new Error('not implemented');
				},
			}),
		).toBe(false);
	});
	test('a package whose name ends in "Tool" does not count, only the node name', () => {
		expect(isToolRun({ getNode: () => ({ type: 'n8n-nodes-sometool.multiChannelNotification' }) })).toBe(false);
		expect(isToolRun({ getNode: () => ({ type: 'CUSTOM.multiChannelNotificationTool' }) })).toBe(true);
	});
});

describe('fromAiKeys', () => {
	test('reads the key of every $fromAI spelling and quote', () => {
		expect(fromAiKey("={{ $fromAI('to', 'recipient', 'string') }}")).toBe('to');
		expect(fromAiKey('={{ $fromAi("phone") }}')).toBe('phone');
		expect(fromAiKey('={{ $fromai(`msg`, ``) }}')).toBe('msg');
		expect(fromAiKey(editorFromAi('Phone_Number'))).toBe('Phone_Number');
		expect(fromAiKey("={{ $fromAI( 'spaced' ,'d') }}")).toBe('spaced');
		expect(fromAiKey("={{ 'Hi ' + $fromAI('name') + ', order ' + $fromAI('order') }}")).toBeUndefined();
		expect(fromAiKeys("={{ 'Hi ' + $fromAI('name') + $fromAI('order') + $fromAI('name') }}")).toEqual(['name', 'order']);
	});
	test('finds keys inside collections, ignores fixed text and non-expressions', () => {
		expect(
			fromAiKeys({ parameter: [{ text: editorFromAi('0_Text') }, { text: 'fixed' }, { text: "={{ $fromAI('order') }}" }] }),
		).toEqual(['0_Text', 'order']);
		expect(fromAiKeys("$fromAI('x') in plain text is no expression")).toEqual([]);
		expect(fromAiKeys('+6281234567890')).toEqual([]);
		expect(fromAiKeys(undefined)).toEqual([]);
		expect(fromAiKeys(42)).toEqual([]);
		expect(fromAiKeys('={{ $fromAI() }}')).toEqual([]);
	});
});

describe('problemTexts', () => {
	test('every bullet of the description, else the message without its item prefix', () => {
		expect(
			problemTexts({
				message: 'Item 0: To must be in E.164 format — got "0812"',
				description: '• To must be in E.164 format — got "0812"\n• Template Name is required\nNothing was sent for this item.',
			}),
		).toEqual(['To must be in E.164 format — got "0812"', 'Template Name is required']);
		expect(problemTexts({ message: 'Item 3: Message is required', description: 'Nothing was sent for this item.' })).toEqual([
			'Message is required',
		]);
	});
});

describe('nameArgument', () => {
	const smsProperties = sms.description;
	const templateProperties = chatMessage.description;

	test('names the $fromAI argument of a top-level field', () => {
		const parameters = { phoneNumber: "={{ $fromAI('to', 'recipient', 'string') }}", message: 'fixed text' };
		expect(nameArgument('Phone Number must be an Indonesian number (+62) — got "+4915112345678"', smsProperties, parameters)).toBe(
			'argument "to" must be an Indonesian number (+62) — got "+4915112345678"',
		);
	});

	test('says when the field is fixed in the workflow, so the model cannot change it', () => {
		expect(nameArgument('Message is required', smsProperties, { message: '' })).toBe(
			'the workflow\'s fixed setting "Message" (not one of your arguments) is required',
		);
	});

	test('the longest label wins (SMS Phone Number, not Phone Number)', () => {
		const parameters = { smsPhoneNumber: editorFromAi('SMS_Phone_Number'), to: editorFromAi('To') };
		expect(nameArgument('SMS Phone Number is required', combined.description, parameters)).toBe(
			'argument "SMS_Phone_Number" is required',
		);
		expect(nameArgument('To is required', combined.description, parameters)).toBe('argument "To" is required');
	});

	test('follows fixedCollection entries: Body Parameters → Parameter 2, Quick Reply Buttons → Button 1 → Payload', () => {
		const parameters: INodeParameters = {
			bodyParameters: { parameter: [{ text: editorFromAi('0_Text') }, { text: "={{ $fromAI('order_id') }}" }] },
			quickReplyButtons: { button: [{ index: '0', payload: "={{ $fromAI('confirm_payload') }}" }] },
			urlButton: { button: { index: '0', text: "={{ $fromAI('invoice') }}" } },
		};
		expect(nameArgument('Body Parameters → Parameter 2 must be text (got a number)', templateProperties, parameters)).toBe(
			'argument "order_id" must be text (got a number)',
		);
		expect(nameArgument('Quick Reply Buttons → Button 1 → Payload is required', templateProperties, parameters)).toBe(
			'argument "confirm_payload" is required',
		);
		expect(nameArgument('URL Button → URL Parameter is required', templateProperties, parameters)).toBe(
			'argument "invoice" is required',
		);
		expect(
			nameArgument(
				'Body Parameters: the template content expects 1 body parameter ({{1}}), but 2 were given',
				templateProperties,
				parameters,
			),
		).toBe(
			'arguments "0_Text", "order_id" (Body Parameters): the template content expects 1 body parameter ({{1}}), but 2 were given',
		);
	});

	test('JSON components keep the path inside the argument', () => {
		const parameters = { componentsInputMode: 'json', componentsJson: "={{ $fromAI('components', 'the components', 'json') }}" };
		expect(nameArgument('Components (JSON) at [0].parameters[1].text must be text (got a number)', templateProperties, parameters)).toBe(
			'argument "components" at [0].parameters[1].text must be text (got a number)',
		);
	});

	test('an option of the Options collection is named too', () => {
		const optionsField = smsProperties.find((property) => property.name === 'options');
		const timeout = (optionsField?.options as INodeProperties[]).find((option) => option.name === 'timeout');
		const label = timeout?.displayName ?? 'Timeout';
		expect(nameArgument(`${label} must be a number of milliseconds, at least 1 — got 0`, smsProperties, { options: { timeout: 0 } })).toBe(
			`the workflow's fixed setting "${label}" (not one of your arguments) must be a number of milliseconds, at least 1 — got 0`,
		);
	});

	test('a problem that names no field is left as it is; a label inside a word does not match', () => {
		expect(nameArgument('Template message must be an object', templateProperties, {})).toBe('Template message must be an object');
		expect(nameArgument('Tomorrow is another day', templateProperties, { to: editorFromAi('To') })).toBe('Tomorrow is another day');
	});
});

describe('tool results', () => {
	const smsNode: INode = { ...node, parameters: { resource: 'sms', operation: 'send' } };

	test('a real validation error becomes every problem, naming the arguments; nothing sent', () => {
		const parameters = {
			resource: 'sms',
			operation: 'send',
			phoneNumber: "={{ $fromAI('phone', 'recipient', 'string') }}",
			message: "={{ $fromAI('text') }}",
		};
		const error = thrown(() =>
			parseOrThrow(smsNode, smsSendSchema, { phoneNumber: '+4915112345678', message: '' }, 0, SMS_LABELS),
		);
		const result = toolResultForError(error, sms.description, parameters);
		expect(result.sent).toBe(false);
		expect(result.outcome).toBe('refused');
		expect(result).not.toHaveProperty('error');
		const problems = result.problems as string[];
		expect(problems.length).toBeGreaterThanOrEqual(2);
		expect(problems).toContainEqual(expect.stringMatching(/^argument "phone" .*\+62/));
		expect(problems).toContainEqual(expect.stringMatching(/^argument "text" /));
		expect(problems.join('\n')).not.toMatch(/Item 0|Phone Number|Nothing was sent for this item/);
		expect(result.message).toMatch(/^Nothing was sent: \d+ problems with the arguments/);
		expect(argumentProblems(error, sms.description, parameters)).toEqual(problems);
	});

	test('a service refusal (HTTP 4xx): nothing delivered; a 5xx or timeout: unknown, do not call again', () => {
		const refused = new NodeApiError(
			smsNode,
			{ message: 'Media messages can only be sent to a user who has started the chat', httpCode: '403' },
			{ httpCode: '403', message: 'The service answered HTTP 403: Media messages can only be sent to a user who has started the chat', description: 'The service refused the request.' },
		);
		expect(sendFailureOutcome(refused)).toBe('rejected');
		const result = toolResultForError(refused, [], {});
		expect(result).toMatchObject({ sent: false, outcome: 'rejected' });
		expect((result.problems as string[])[0]).toContain('started the chat');

		const failed = { message: 'The service did not answer within 30000 ms (/v1/sms/notification)', description: 'timeout. The message may or may not have been delivered' };
		expect(sendFailureOutcome(failed)).toBe('unknown');
		expect(toolResultForError(failed, [], {}, 'send')).toMatchObject({ sent: 'unknown', outcome: 'unknown' });
		expect(sendFailureOutcome({ message: 'x', httpCode: '500' })).toBe('unknown');
		expect(sendFailureOutcome({ message: 'x', httpCode: 'ECONNRESET' })).toBe('unknown');

		const unreached = {
			name: 'NodeApiError',
			message: 'Could not reach the service: nothing is listening at the Base URL',
			description: 'connect ECONNREFUSED 127.0.0.1:9. No connection was made. Nothing was sent for this item.',
		};
		expect(errorStage(unreached)).toBe('send');
		expect(sendFailureOutcome(unreached)).toBe('unreached');
		expect(toolResultForError(unreached, [], {})).toMatchObject({ sent: false, outcome: 'unreached' });
	});

	test('structured problems (helpers/errors.ts inputError) are named through their parameter', () => {
		const parameters = {
			to: "={{ $fromAI('recipient') }}",
			options: { timeout: 0 },
			bodyParameters: { parameter: [{ text: "={{ $fromAI('name') }}" }, { text: "={{ $fromAI('order') }}" }] },
		};
		const error = Object.assign(new NodeOperationError(node, 'Item 0: 3 problems (To, Timeout, Body Parameters → Parameter 2)', { description: 'Nothing was sent for this item.' }), {
			problems: [
				{ field: 'To', parameter: 'to', rule: 'must be an E.164 phone number', value: '"0812"' },
				{ field: 'Timeout', parameter: 'options.timeout', rule: 'must be at least 1', value: '0' },
				{ field: 'Body Parameters → Parameter 2', parameter: 'bodyParameters', rule: 'must be text' },
			],
		});
		expect(errorStage(error)).toBe('validation');
		expect(toolResultForError(error, chatMessage.description, parameters).problems).toEqual([
			'argument "recipient" must be an E.164 phone number — got "0812"',
			'the workflow\'s fixed setting "Timeout" (not one of your arguments) must be at least 1 — got 0',
			'argument "order" must be text',
		]);
		expect(nameProblem({ field: 'Mystery', parameter: 'mystery', rule: 'is required' }, [], { mystery: "={{ $fromAI('m') }}" })).toBe(
			'argument "m" is required',
		);
	});

	test('errorStage: input and credential errors are refusals, API errors are sends', () => {
		expect(errorStage({ message: 'Item 0: To is required', description: 'Nothing was sent for this item.' })).toBe('validation');
		expect(errorStage({ message: 'Credential problem: x', description: 'x. Nothing was sent. Fix the credential' })).toBe('validation');
		expect(errorStage({ name: 'NodeApiError', message: 'The service answered HTTP 400: bad' })).toBe('send');
		expect(errorStage({ message: 'Timed out', description: 'The message may or may not have been delivered: check' })).toBe('send');
	});

	test('toolErrorResult lists every problem and says what to do', () => {
		const one = toolErrorResult(['argument "to" is required']);
		expect(one).toEqual({
			sent: false,
			outcome: 'refused',
			message: 'Nothing was sent: one argument breaks a rule. Fix every problem listed, then call the tool again.',
			problems: ['argument "to" is required'],
		});
		expect(toolErrorResult([]).problems).toEqual(['the input was refused']);
		expect(toolErrorResult(['a'], 'unknown').message).toMatch(/Do not call the tool again/);
	});
});

describe('the node description', () => {
	test('the toolDescription fields, if wired in, are the ones from this module', () => {
		const properties: INodeProperties[] = new MultiChannelNotification().description.properties;
		const own = properties.filter((property) => property.name === 'toolDescription');
		if (own.length === 0) return;
		expect(own).toEqual(toolDescriptionProperties);
	});
});
