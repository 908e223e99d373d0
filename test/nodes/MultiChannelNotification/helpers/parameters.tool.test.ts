import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import type { AgentKind, ToolAnswer } from '../../../helpers/toolRun';
import { runAsTool } from '../../../helpers/toolRun';

/**
 * The engine table of parameters.test.ts, in a tool run: the node is an AI agent's tool
 * (test/helpers/toolRun.ts), called by a stand-in agent with fixed arguments, in both ways n8n
 * runs tools (supply data; engine requests, AI Agent v3). For each case and call, the message or
 * number the node would send (Dry Run) is what n8n's engine makes of the same expression in the
 * same run — read by a probe tool the agent calls with the same arguments — or both refuse.
 * `$fromAI` reads the call's arguments. `$json` is the agent's input item through supply data
 * (its first item, whichever item the agent is on), and that item merged with the arguments
 * (theirs win) through engine requests.
 */

const credentials = { apiKey: 'test-key-9f2c41d7', baseUrl: 'https://127.0.0.1:9' };
const PHONE = '+6281234567890';

/** The editor's "let the model define this parameter" value. */
const editorFromAi = (key: string) => `={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`\`, 'string') }}`;

type Field = 'message' | 'phoneNumber';
type Answer = { value: unknown } | { refused: string } | { unexpected: unknown };

interface ToolCase {
	name: string;
	field: Field;
	expression: string;
	agentItems: IDataObject[];
	/** The agent's arguments, one call per agent item. */
	args: IDataObject[];
}

const cases: ToolCase[] = [
	{ name: '$fromAI in Message', field: 'message', expression: "={{ $fromAI('message') }}", agentItems: [{}], args: [{ message: 'Pesanan A1 sudah dikirim' }] },
	{ name: "the editor's $fromAI in Message", field: 'message', expression: editorFromAi('Message'), agentItems: [{}], args: [{ Message: 'Halo, Budi' }] },
	{ name: '$fromAI in Phone Number', field: 'phoneNumber', expression: "={{ $fromAI('phone') }}", agentItems: [{}], args: [{ phone: '+6281122334455' }] },
	{ name: "the editor's $fromAI in Phone Number", field: 'phoneNumber', expression: editorFromAi('Phone_Number'), agentItems: [{}], args: [{ Phone_Number: '+6285700011122' }] },
	{ name: '$json in Message', field: 'message', expression: '={{ $json.name }}', agentItems: [{ name: 'Budi' }], args: [{}] },
	{ name: '$json beside an argument of the same name', field: 'message', expression: "={{ $json.name }} / {{ $fromAI('name') }}", agentItems: [{ name: 'Budi' }], args: [{ name: 'Agen' }] },
	{ name: '$json in Phone Number', field: 'phoneNumber', expression: '={{ $json.phone }}', agentItems: [{ phone: '+6281300000001' }], args: [{}] },
	{ name: 'mixed text', field: 'message', expression: "=Kode {{ $fromAI('code') }} untuk {{ $json.name }}", agentItems: [{ name: 'Budi' }], args: [{ code: 'A1B2' }] },
	{
		name: 'mixed text, one call per agent item',
		field: 'message',
		expression: "=Kode {{ $fromAI('code') }} untuk {{ $json.name }}",
		agentItems: [{ name: 'Budi' }, { name: 'Sari' }],
		args: [{ code: 'A1' }, { code: 'B2' }],
	},
	{ name: 'a number argument', field: 'message', expression: "={{ $fromAI('count', 'how many', 'number') }}", agentItems: [{}], args: [{ count: 3 }] },
	{ name: 'an empty argument', field: 'message', expression: "={{ $fromAI('message') }}", agentItems: [{}], args: [{ message: '' }] },
	{ name: 'constructor key of the agent’s item', field: 'message', expression: '={{ $json.constructor }}', agentItems: [{ constructor: 'C' }], args: [{}] },
	{ name: 'constructor key inside text', field: 'message', expression: '=Hi {{ $json.constructor }}', agentItems: [{ constructor: 'C' }], args: [{}] },
	{ name: 'constructor of an argument', field: 'message', expression: "={{ $fromAI('message').constructor }}", agentItems: [{}], args: [{ message: 'x' }] },
];

/** SMS → Send with the case's field set to its expression and the other one fixed and valid. */
function parametersFor({ field, expression }: ToolCase): INodeParameters {
	return {
		resource: 'sms',
		operation: 'send',
		phoneNumber: field === 'phoneNumber' ? expression : PHONE,
		message: field === 'message' ? expression : 'Halo',
		// Strict: the number goes out as n8n gives it, not normalized.
		options: { dryRun: true, phoneNumberFormat: 'strict' },
	};
}

const BODY_FIELD: Record<Field, string> = { message: 'message', phoneNumber: 'phone_number' };

/** What the node made of the field in one call: the value it would send, or its refusal. */
function nodeAnswer(answer: ToolAnswer, field: Field): Answer {
	if ('failed' in answer || answer.items.length !== 1) return { unexpected: answer };
	const [json] = answer.items;
	if (json.dryRun === true) return { value: ((json.request as IDataObject).body as IDataObject)[BODY_FIELD[field]] };
	// A refused tool call: the model reads why, nothing is sent.
	if (json.sent === false && json.outcome === 'refused') return { refused: (json.problems as string[]).join('; ') };
	return { unexpected: json };
}

/** n8n's value of the expression in the same call (the probe's answer). */
function engineAnswer(answer: ToolAnswer): Answer {
	if ('failed' in answer || answer.items.length !== 1) return { unexpected: answer };
	const [json] = answer.items;
	return typeof json.refused === 'string' ? { refused: json.refused } : { value: json.value };
}

/** The engine's value as the node sends it: numbers and booleans become text. */
function asSent(value: unknown): unknown {
	return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

/** One run of a case: the node's and n8n's answers for each call, side by side. */
async function runCase(agent: AgentKind, toolCase: ToolCase, nodeType?: INodeType): Promise<Array<{ node: Answer; engine: Answer }>> {
	const { calls } = await runAsTool({
		agent,
		parameters: parametersFor(toolCase),
		probeValue: toolCase.expression,
		agentItems: toolCase.agentItems,
		args: toolCase.args,
		credentials,
		nodeType,
	});
	return calls.map((call) => ({ node: nodeAnswer(call.node, toolCase.field), engine: engineAnswer(call.probe) }));
}

/** Where the node and n8n part ways in one run of a case, in words; empty when they agree. */
async function differences(agent: AgentKind, toolCase: ToolCase, nodeType?: INodeType): Promise<string[]> {
	const found: string[] = [];
	(await runCase(agent, toolCase, nodeType)).forEach(({ node, engine }, callIndex) => {
		const differ = (why: string) =>
			found.push(`${toolCase.name}, call ${callIndex}: ${why} — node ${JSON.stringify(node)}, n8n ${JSON.stringify(engine)}`);
		if ('unexpected' in engine) differ('the probe answered unexpectedly');
		else if ('refused' in engine) {
			// n8n refuses: so must the node, and nothing is sent.
			if (!('refused' in node)) differ('n8n refuses, the node does not');
		} else {
			const expected = asSent(engine.value);
			if (typeof expected === 'string' && expected.trim() !== '') {
				if (!('value' in node) || node.value !== expected) differ('different value');
			} else if (!('refused' in node)) {
				// An empty, object or null value is refused by the node's own rule, never sent as something else.
				differ('n8n gives no text, the node does not refuse');
			}
		}
	});
	return found;
}

const answers = async (agent: AgentKind, name: string) =>
	await runCase(agent, cases.find((toolCase) => toolCase.name === name) as ToolCase);
const both = (value: unknown) => ({ node: { value }, engine: { value } });

describe.each<AgentKind>(['supplyData', 'engineRequest'])("a tool run (%s): every value through n8n's expression engine", (agent) => {
	test.each(cases.map((toolCase) => [toolCase.name, toolCase.expression, toolCase]))('%s: %j', async (_name, _expression, toolCase) => {
		expect(await differences(agent, toolCase as ToolCase)).toEqual([]);
	});

	test('the values themselves', async () => {
		expect(await answers(agent, '$fromAI in Message')).toEqual([both('Pesanan A1 sudah dikirim')]);
		expect(await answers(agent, "the editor's $fromAI in Message")).toEqual([both('Halo, Budi')]);
		expect(await answers(agent, '$fromAI in Phone Number')).toEqual([both('+6281122334455')]);
		expect(await answers(agent, "the editor's $fromAI in Phone Number")).toEqual([both('+6285700011122')]);
		expect(await answers(agent, 'a number argument')).toEqual([{ node: { value: '3' }, engine: { value: 3 } }]);
		expect(await answers(agent, 'mixed text')).toEqual([both('Kode A1B2 untuk Budi')]);
		expect(await answers(agent, '$json in Message')).toEqual([both('Budi')]);
		expect(await answers(agent, 'constructor key of the agent’s item')).toEqual([
			{ node: { refused: expect.stringMatching(/constructor/) }, engine: { refused: expect.stringMatching(/constructor/) } },
		]);
	});
});

test('supply data: $json is the agent’s first item, never the arguments', async () => {
	expect(await answers('supplyData', '$json beside an argument of the same name')).toEqual([both('Budi / Agen')]);
	// The tool runs on one item (its arguments): n8n resolves $json at that index, 0, in the agent's input.
	expect(await answers('supplyData', 'mixed text, one call per agent item')).toEqual([
		both('Kode A1 untuk Budi'),
		both('Kode B2 untuk Budi'),
	]);
});

test('engine requests (AI Agent v3): $json is the agent’s item merged with the arguments', async () => {
	expect(await answers('engineRequest', '$json beside an argument of the same name')).toEqual([both('Agen / Agen')]);
	expect(await answers('engineRequest', 'mixed text, one call per agent item')).toEqual([
		both('Kode A1 untuk Budi'),
		both('Kode B2 untuk Sari'),
	]);
});

/**
 * The table can fail: the real node with its context's `getNodeParameter` replaced, as a node
 * that read its fields its own way would. Reaches into n8n-core's context (`_getNodeParameter`,
 * `connectionInputData`): test-only, to build wrong nodes.
 */
function withParameterReader(
	reader: (context: IExecuteFunctions) => IExecuteFunctions['getNodeParameter'],
): INodeType {
	const real = new MultiChannelNotification();
	const wrong = Object.create(real) as INodeType;
	wrong.execute = async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const context = Object.create(this) as IExecuteFunctions;
		context.getNodeParameter = reader(this);
		return await real.execute.call(context);
	};
	return wrong;
}

type ContextInternals = { _getNodeParameter: (...args: unknown[]) => unknown };

/** Evaluates the fields with the tool's arguments as `$json` (the input items of its own run). */
const readsJsonFromArgs = withParameterReader(
	(context) =>
		((name: string, itemIndex: number, fallback?: unknown, options?: unknown) => {
			const asArgs = Object.create(context, { connectionInputData: { value: context.getInputData() } }) as ContextInternals;
			return asArgs._getNodeParameter.call(asArgs, name, itemIndex, fallback, options);
		}) as IExecuteFunctions['getNodeParameter'],
);

/** Sends the field as typed when n8n refuses its expression. */
const sendsWhatN8nRefuses = withParameterReader(
	(context) =>
		((name: string, itemIndex: number, fallback?: unknown, options?: unknown) => {
			try {
				return (context.getNodeParameter as (...args: unknown[]) => unknown)(name, itemIndex, fallback, options);
			} catch {
				return String(context.getNode().parameters[name]);
			}
		}) as IExecuteFunctions['getNodeParameter'],
);

describe('the tool-run table catches a node that differs from n8n', () => {
	const names = async (agent: AgentKind, nodeType: INodeType) => {
		const failing: string[] = [];
		for (const toolCase of cases) if ((await differences(agent, toolCase, nodeType)).length > 0) failing.push(toolCase.name);
		return failing;
	};

	// Supply data only: through engine requests the node's input item is the one n8n gives $json.
	test('one that reads $json from the tool’s arguments (supply data)', async () => {
		expect(await names('supplyData', readsJsonFromArgs)).toEqual([
			'$json in Message',
			'$json beside an argument of the same name',
			'$json in Phone Number',
			'mixed text',
			'mixed text, one call per agent item',
		]);
	});

	test.each<AgentKind>(['supplyData', 'engineRequest'])('one that sends what n8n refuses (%s)', async (agent) => {
		expect(await names(agent, sendsWhatN8nRefuses)).toEqual([
			'constructor key of the agent’s item',
			'constructor key inside text',
			'constructor of an argument',
		]);
	});
});
