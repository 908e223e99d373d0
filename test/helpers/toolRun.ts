/**
 * The node as an AI agent's tool, run in-process the way n8n 2.x runs a `usableAsTool` node for
 * an agent that takes its tools as supply data: the agent's execute asks for its `ai_tool`
 * input (`getInputConnectionData`), n8n-core wraps each connected tool node (`createNodeAsTool`)
 * and, on each invocation, runs the node's own execute in a SupplyDataContext whose `ai_tool`
 * input is the tool's arguments (`makeHandleToolInvocation` → `addInputData`, recorded as the
 * run's `inputOverride`, which is where `$fromAI` reads them). `$json` there is the agent's
 * input item, as in every sub-node.
 *
 * Beside the node, the same stand-in agent calls a probe tool with the same arguments: its
 * execute only returns n8n's value of its one field, so the expected value of an expression
 * comes from n8n's engine in the same run, independently of the node's code.
 */
import type {
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	IRun,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { MultiChannelNotificationApi } from '../../credentials/MultiChannelNotificationApi.credentials';
import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { inputItemsNode, nodeCredentials, runWorkflow, SOURCE_NAME, SOURCE_TYPE } from '../../harness/workflowRunner';
import { useDedupStore } from './dedupStore';
import { NODE_NAME, NODE_TYPE } from './engine';
import { checkParameters } from './nodeParameters';

export const PROBE_NAME = 'Probe';
const PROBE_TYPE = 'harness.probe';
const AGENT_NAME = 'Agent';
const AGENT_TYPE = 'harness.agent';

/**
 * The tool variant of a `usableAsTool` node type, as n8n 2.x's node-type registry makes it for
 * `<type>Tool` (packages/cli: a prototype clone passed to convertNodeToAiTool, which 2.x keeps in
 * the CLI, not in n8n-workflow): same execute, name `…Tool`, no inputs, one `ai_tool` output.
 * The "Description" fields n8n adds only to a node without its own `toolDescription` are left
 * out: they change the text the model reads, not how the tool runs.
 */
export function asAiTool(nodeType: INodeType): INodeType {
	const base = nodeType.description;
	if (!base.usableAsTool) throw new Error(`${base.name} is not usable as a tool`);
	const description = Object.create(base) as INodeTypeDescription;
	description.name = `${base.name}Tool`;
	description.displayName = `${base.displayName} Tool`;
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	return Object.create(nodeType, { description: { value: description } }) as INodeType;
}

/** Outputs n8n's value of its field `value` for each item, and nothing else. */
const probeNodeType: INodeType = {
	description: {
		displayName: 'Probe',
		name: PROBE_TYPE,
		group: ['transform'],
		version: 1,
		description: "Returns n8n's value of its field",
		defaults: { name: PROBE_NAME },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// The same field type as the node's Message and Phone Number.
		properties: [{ displayName: 'Value', name: 'value', type: 'string', default: '' }],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((_item, itemIndex) => ({ json: { value: this.getNodeParameter('value', itemIndex) } }))];
	},
};

/** The part of n8n-core's tool (a LangChain DynamicStructuredTool) the stand-in agent uses. */
interface ConnectedTool {
	name: string;
	metadata?: { sourceNodeName?: string };
	invoke(args: IDataObject): Promise<unknown>;
}

/**
 * The stand-in agent: for each of its input items, takes its tools as n8n hands them over and
 * calls every one with that item's fixed arguments, as a model's tool call would. Outputs one item
 * per call: the tool's answer (the JSON text n8n passes back to the model) or why it failed.
 */
function agentNodeType(calls: IDataObject[]): INodeType {
	return {
		description: {
			displayName: 'Agent',
			name: AGENT_TYPE,
			group: ['transform'],
			version: 1,
			description: 'Calls its tools with fixed arguments',
			defaults: { name: AGENT_NAME },
			inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true }],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const output: INodeExecutionData[] = [];
			for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
				const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, itemIndex)) as ConnectedTool[];
				for (const tool of tools) {
					const json: IDataObject = { itemIndex, tool: tool.metadata?.sourceNodeName ?? tool.name };
					try {
						json.answer = (await tool.invoke(calls[itemIndex])) as string;
					} catch (error) {
						json.failed = error instanceof Error ? error.message : String(error);
					}
					output.push({ json, pairedItem: { item: itemIndex } });
				}
			}
			return [output];
		},
	};
}

/** One tool's answer to one call: the `json` of its output items, or the error n8n raised. */
export type ToolAnswer = { items: IDataObject[] } | { failed: string };

export interface ToolRunOptions {
	/** The node's parameters (resource, operation, fields); checked against its description. */
	parameters: INodeParameters;
	/** The probe's field: the expression whose value n8n's engine gives. */
	probeValue: string;
	/** The agent's input items; default one empty item. */
	agentItems?: IDataObject[];
	/** The arguments the agent calls both tools with, one call per agent item. */
	args: IDataObject[];
	credentials: { apiKey: string; baseUrl: string };
	/** Another node type in the node's place (a test's deliberately wrong variant). */
	nodeType?: INodeType;
}

export interface ToolRunResult {
	/** Per agent item: the node's and the probe's answers to the same call. */
	calls: Array<{ node: ToolAnswer; probe: ToolAnswer }>;
	run: IRun;
}

const credentialType = new MultiChannelNotificationApi();

function answerOf(json: IDataObject | undefined): ToolAnswer {
	if (json === undefined) return { failed: 'not called' };
	if (typeof json.failed === 'string') return { failed: json.failed };
	// n8n hands the model JSON.stringify of the output items' `json`.
	return { items: JSON.parse(json.answer as string) as IDataObject[] };
}

/**
 * One workflow run: input items → stand-in agent, with the node's tool variant and the probe's
 * connected to its `ai_tool` input. Fails if the run itself fails (the agent never does).
 */
export async function runAsTool(options: ToolRunOptions): Promise<ToolRunResult> {
	checkParameters(options.parameters);
	await useDedupStore();
	const agentItems = options.agentItems ?? [{}];
	if (options.args.length !== agentItems.length) throw new Error('one call (args) per agent item');
	const credentials = { [credentialType.name]: { type: credentialType, data: options.credentials } };
	const toolType = `${NODE_TYPE}Tool`;
	const probeToolType = `${PROBE_TYPE}Tool`;
	const nodes: INode[] = [
		{ id: 'source', name: SOURCE_NAME, type: SOURCE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: 'agent', name: AGENT_NAME, type: AGENT_TYPE, typeVersion: 1, position: [200, 0], parameters: {} },
		{
			id: 'tool',
			name: NODE_NAME,
			type: toolType,
			typeVersion: 1,
			position: [200, 200],
			parameters: options.parameters,
			credentials: nodeCredentials(credentials),
		},
		{ id: 'probe', name: PROBE_NAME, type: probeToolType, typeVersion: 1, position: [400, 200], parameters: { value: options.probeValue } },
	];
	const toAgent = (type: typeof NodeConnectionTypes.Main | typeof NodeConnectionTypes.AiTool) => ({
		[type]: [[{ node: AGENT_NAME, type, index: 0 }]],
	});
	const connections: IConnections = {
		[SOURCE_NAME]: toAgent(NodeConnectionTypes.Main),
		[NODE_NAME]: toAgent(NodeConnectionTypes.AiTool),
		[PROBE_NAME]: toAgent(NodeConnectionTypes.AiTool),
	};
	const run = await runWorkflow({
		nodes,
		connections,
		nodeTypes: {
			[SOURCE_TYPE]: inputItemsNode(JSON.parse(JSON.stringify(agentItems)) as IDataObject[]),
			[AGENT_TYPE]: agentNodeType(options.args),
			[toolType]: asAiTool(options.nodeType ?? new MultiChannelNotification()),
			[probeToolType]: asAiTool(probeNodeType),
		},
		credentials,
		startNode: SOURCE_NAME,
	});
	const task = run.data.resultData.runData[AGENT_NAME]?.[0];
	const error = task?.error ?? run.data.resultData.error;
	if (error) throw new Error(`The agent run failed: ${error.message}`);
	const output = (task?.data?.main?.[0] ?? []).map(({ json }) => json);
	const answer = (itemIndex: number, tool: string) =>
		answerOf(output.find((json) => json.itemIndex === itemIndex && json.tool === tool));
	return {
		calls: agentItems.map((_item, itemIndex) => ({ node: answer(itemIndex, NODE_NAME), probe: answer(itemIndex, PROBE_NAME) })),
		run,
	};
}
