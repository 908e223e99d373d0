import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers, NodeOperationError } from 'n8n-workflow';

import { nameProblem, fromAiKeys, isToolRun, toolErrorResult, toolResultForError } from '../../../nodes/MultiChannelNotification/delivery/toolResult';
import { registry } from '../../../nodes/MultiChannelNotification/actions/registry';
import { toolDescriptionProperties } from '../../../nodes/MultiChannelNotification/editor/tool';
import { inputError, serviceError } from '../../../nodes/MultiChannelNotification/helpers/errors';
import { parseOrThrow } from '../../../nodes/MultiChannelNotification/helpers/validation';
import { MultiChannelNotification } from '../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { SMS_LABELS, smsSendSchema } from '../../../nodes/MultiChannelNotification/actions/sms/sms';
import { TEMPLATE_LABELS, templateSendSchema } from '../../../nodes/MultiChannelNotification/actions/chatMessage/templateMessage.schema';
import { thrown } from '../../helpers/thrown';

const node: INode = {
	id: 'n1',
	name: 'Send SMS',
	type: 'n8n-nodes-multichannel-notification.multiChannelNotificationTool',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Each operation's tool description, keyed resource.operation. */
const TOOL_DESCRIPTIONS: Record<string, string> = Object.fromEntries(
	Object.entries(registry).flatMap(([resource, operations]) =>
		Object.entries(operations).map(([operation, { toolDescription }]) => [`${resource}.${operation}`, toolDescription]),
	),
);

/** The editor's "let the model define this parameter" value for a field. */
const editorFromAi = (key: string, type = 'string') =>
	`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`\`, '${type}') }}`;


describe('tool descriptions', () => {
	test('one per operation, each stating its rules, none longer than 1024 characters', () => {
		expect(Object.keys(TOOL_DESCRIPTIONS).sort()).toEqual([
			'chatMessage.sendAndWait',
			'chatMessage.sendMedia',
			'chatMessage.sendTemplate',
			'combined.sendAndWait',
			'combined.sendWithFailover',
			'sms.send',
			'sms.sendAndWait',
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
		for (const key of ['sms.sendAndWait', 'chatMessage.sendAndWait', 'combined.sendAndWait'] as const) {
			const text = TOOL_DESCRIPTIONS[key];
			expect(text).toMatch(/waits for the answer/);
			expect(text).toMatch(/approved true or false/);
			expect(text).toMatch(/never repeat a call that succeeded/);
		}
		expect(TOOL_DESCRIPTIONS['sms.sendAndWait']).toContain('+62');
		expect(TOOL_DESCRIPTIONS['combined.sendAndWait']).toContain('+62');
		for (const key of ['chatMessage.sendAndWait', 'combined.sendAndWait'] as const) {
			expect(TOOL_DESCRIPTIONS[key]).toMatch(/leave that one empty/);
			expect(TOOL_DESCRIPTIONS[key]).toMatch(/body is always required/);
		}
	});

	test('the toolDescription fields show only in the tool variant, for their own operation', () => {
		expect(toolDescriptionProperties(registry)).toHaveLength(7);
		// What the editor shows of each: its label, a six-line box, the hint under it.
		expect(new Set(toolDescriptionProperties(registry).map(({ displayName, typeOptions, description }) => JSON.stringify([displayName, typeOptions, description])))).toEqual(
			new Set([JSON.stringify(['Tool Description', { rows: 6 }, 'What the AI model is told about this tool, prefilled with the rules its arguments must follow. Add your own instructions if needed, but keep the rules.'])]),
		);
		const tool = { ...new MultiChannelNotification().description, name: 'multiChannelNotificationTool' };
		const base = new MultiChannelNotification().description;
		const properties = [
			...base.properties.filter((property) => property.name !== 'toolDescription'),
			...toolDescriptionProperties(registry),
		];
		const resolved = (description: typeof base, parameters: INodeParameters) =>
			NodeHelpers.getNodeParameters(properties, parameters, true, false, null, description);

		expect(resolved(tool, { resource: 'sms', operation: 'send' })?.toolDescription).toBe(TOOL_DESCRIPTIONS['sms.send']);
		expect(resolved(tool, { resource: 'chatMessage', operation: 'sendMedia' })?.toolDescription).toBe(
			TOOL_DESCRIPTIONS['chatMessage.sendMedia'],
		);
		expect(resolved(tool, { resource: 'sms', operation: 'sendAndWait' })?.toolDescription).toBe(TOOL_DESCRIPTIONS['sms.sendAndWait']);
		expect(resolved(base, { resource: 'sms', operation: 'send' })?.toolDescription).toBeUndefined();
	});

	test('n8n picks the operation’s text as the tool description (getToolDescriptionForNode)', () => {
		const type = new MultiChannelNotification();
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

describe('fromAiKeys (n8n\'s own $fromAI parser)', () => {
	test('reads the key of every call, in order, each once', () => {
		expect(fromAiKeys("={{ $fromAI('to', 'recipient', 'string') }}")).toEqual(['to']);
		expect(fromAiKeys(editorFromAi('Phone_Number'))).toEqual(['Phone_Number']);
		expect(fromAiKeys("={{ 'Hi ' + $fromAI('name') + $fromAI('order') + $fromAI('name') }}")).toEqual(['name', 'order']);
	});
	test('finds keys inside collections, ignores fixed text, non-expressions and malformed calls', () => {
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

describe('problems name the argument through their parameter path', () => {
	const templateNode: INode = { ...node, parameters: { resource: 'chatMessage', operation: 'sendTemplate' } };
	const parameters: INodeParameters = {
		from: '+6281200000000',
		to: "={{ $fromAI('recipient') }}",
		templateName: '',
		languageCode: 'id',
		bodyParameters: { parameter: [{ text: editorFromAi('0_Text') }, { text: "={{ $fromAI('order_id') }}" }] },
		quickReplyButtons: { button: [{ index: '0', payload: "={{ $fromAI('confirm_payload') }}" }, { index: '0', payload: 'fixed' }] },
		urlButton: { button: { index: '0', text: "={{ $fromAI('invoice') }}" } },
	};

	test('top-level, fixedCollection entries and single-entry collections, from a real refusal', () => {
		const candidate = {
			from: '+6281200000000',
			to: '0812',
			templateName: '',
			languageCode: 'id',
			languagePolicy: 'deterministic',
			templateContent: 'Hi {{1}}',
			bodyParameters: ['Budi', 7],
			quickReplyButtons: [
				{ index: '0', payload: '' },
				{ index: '0', payload: 'fixed' },
			],
			urlButton: { index: '0', text: '' },
		};
		const error = thrown(() => parseOrThrow({ getNode: () => templateNode }, templateSendSchema, candidate, 0, TEMPLATE_LABELS));
		const problems = toolResultForError(error, parameters).problems as string[];
		expect(problems).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^argument "recipient" must be in full international form/),
				expect.stringMatching(/^the workflow's fixed setting "Template Name" \(not one of your arguments\) is required/),
				expect.stringMatching(/^argument "order_id" must be text/),
				expect.stringMatching(/^argument "confirm_payload" is required/),
				expect.stringMatching(/^argument "invoice" is required/),
				expect.stringMatching(/^arguments "0_Text", "order_id" \(Body Parameters\) must/),
			]),
		);
	});

	test('JSON components and an option of the Options collection', () => {
		const json = { componentsJson: "={{ $fromAI('components', 'the components', 'json') }}", options: { timeout: 0 } };
		expect(nameProblem({ field: 'Components (JSON) at [0].type', path: ['componentsJson'], rule: 'must be "body"' }, json)).toBe(
			'argument "components" must be "body"',
		);
		expect(nameProblem({ field: 'Timeout (Milliseconds)', path: ['options', 'timeout'], rule: 'must be at least 1', value: '0' }, json)).toBe(
			'the workflow\'s fixed setting "Timeout (Milliseconds)" (not one of your arguments) must be at least 1 — got 0',
		);
	});
});

describe('tool results come from the facts an error carries', () => {
	const smsNode: INode = { ...node, parameters: { resource: 'sms', operation: 'send' } };
	const base = { itemIndex: 0, title: 'The service answered', description: 'What happened.', cause: 'said' };

	test('a real validation error becomes every problem, naming the arguments; nothing sent', () => {
		const parameters = {
			resource: 'sms',
			operation: 'send',
			phoneNumber: "={{ $fromAI('phone', 'recipient', 'string') }}",
			message: "={{ $fromAI('text') }}",
		};
		const error = thrown(() =>
			parseOrThrow({ getNode: () => smsNode }, smsSendSchema, { phoneNumber: '+4915112345678', message: '' }, 0, SMS_LABELS),
		);
		const result = toolResultForError(error, parameters);
		expect(result.sent).toBe(false);
		expect(result.outcome).toBe('refused');
		expect(result).not.toHaveProperty('error');
		const problems = result.problems as string[];
		expect(problems).toHaveLength(2);
		expect(problems).toContainEqual(expect.stringMatching(/^argument "phone" .*\+62/));
		expect(problems).toContainEqual(expect.stringMatching(/^argument "text" /));
		expect(result.message).toMatch(/^Nothing was sent: 2 problems with the arguments/);
	});

	test.each([
		['rejected', { sent: false, outcome: 'rejected' }],
		['unreached', { sent: false, outcome: 'unreached' }],
		['maybe', { sent: 'unknown', outcome: 'unknown' }],
	] as const)('a send error whose delivery is %s', (delivery, expected) => {
		const error = serviceError(smsNode, { ...base, delivery, httpCode: delivery === 'rejected' ? 403 : undefined });
		const result = toolResultForError(error, {});
		expect(result).toMatchObject(expected);
		expect(result.problems).toEqual([error.message, 'What happened.']);
	});

	test('the outcome does not depend on the wording: same text, different facts', () => {
		const maybe = serviceError(smsNode, { ...base, delivery: 'maybe' });
		const unreached = serviceError(smsNode, { ...base, delivery: 'unreached' });
		expect(maybe.message).toBe(unreached.message);
		expect(toolResultForError(maybe, {}).outcome).toBe('unknown');
		expect(toolResultForError(unreached, {}).outcome).toBe('unreached');
	});

	test('an error without problems (credential, expression) is a refusal that does not blame the arguments', () => {
		const error = inputError(smsNode, 0, []);
		expect(toolResultForError(error, {})).toMatchObject({ sent: false, outcome: 'refused' });
		const credential = toolResultForError(new NodeOperationError(smsNode, 'Credential problem: x'), {});
		expect(credential).toMatchObject({ sent: false, outcome: 'refused', problems: ['Credential problem: x'] });
		expect(credential.message).toMatch(/^Nothing was sent: the workflow’s own setup .* not a rule of the arguments/);
		expect(credential.message).not.toMatch(/argument breaks a rule|problems with the arguments/);
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
	test('the toolDescription fields are the ones from this module', () => {
		const properties: INodeProperties[] = new MultiChannelNotification().description.properties;
		expect(properties.filter((property) => property.name === 'toolDescription')).toEqual(toolDescriptionProperties(registry));
	});
});
