/**
 * The node as an AI agent's tool, run in-process by n8n-core 2.x in both ways it runs a
 * `usableAsTool` node for an agent:
 *
 * - `supplyData`: the agent's execute asks for its `ai_tool` input (`getInputConnectionData`);
 *   n8n-core wraps each connected tool node (`createNodeAsTool`) and, on each invocation, runs the
 *   node's execute in a SupplyDataContext whose `ai_tool` input is the tool's arguments
 *   (`makeHandleToolInvocation` → `addInputData`, recorded as the run's `inputOverride`, where
 *   `$fromAI` reads them). `$json` is the agent's input item at the tool's item index (0).
 * - `engineRequest` (AI Agent v3): the agent returns an EngineRequest; WorkflowExecute runs each
 *   tool node as an ordinary node (`handleRequest`): its input item is the agent's item merged with
 *   the arguments (and `toolCallId`), its `inputOverride` the arguments; then it resumes the agent
 *   with the results.
 *
 * Beside the node, the same stand-in agent calls a probe tool with the same arguments: its
 * execute only returns n8n's value of its one field, so the expected value of an expression
 * comes from n8n's engine in the same run, independently of the node's code.
 */
import type {
	EngineResponse,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	IRun,
	NodeOutput,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { MultiChannelNotificationApi } from '../../credentials/MultiChannelNotificationApi.credentials';
import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { inputItemsNode, nodeCredentials, runWorkflow, SOURCE_NAME, SOURCE_TYPE } from '../../harness/workflowRunner';
import { useDedupStore } from './dedupStore';
import { testCredentialId } from './isolation';
import { NODE_NAME, NODE_TYPE } from './engine';
import { checkParameters } from './nodeParameters';

export const PROBE_NAME = 'Probe';
const PROBE_TYPE = 'harness.probe';
const AGENT_NAME = 'Agent';
const AGENT_TYPE = 'harness.agent';

export type AgentKind = 'supplyData' | 'engineRequest';

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

/**
 * Outputs n8n's value of its field `value` for each item, or n8n's refusal as `refused` (as data:
 * a tool that throws ends an AI Agent v3's whole run).
 */
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
		return [
			this.getInputData().map((_item, itemIndex) => {
				try {
					return { json: { value: this.getNodeParameter('value', itemIndex) } };
				} catch (error) {
					return { json: { refused: error instanceof Error ? error.message : String(error) } };
				}
			}),
		];
	},
};

const agentDescription: INodeTypeDescription = {
	displayName: 'Agent',
	name: AGENT_TYPE,
	group: ['transform'],
	version: 1,
	description: 'Calls its tools with fixed arguments',
	defaults: { name: AGENT_NAME },
	inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true }],
	outputs: [NodeConnectionTypes.Main],
	properties: [],
};

/** The part of n8n-core's tool (a LangChain DynamicStructuredTool) the stand-in agent uses. */
interface ConnectedTool {
	name: string;
	metadata?: { sourceNodeName?: string };
	invoke(args: IDataObject): Promise<unknown>;
}

/**
 * The stand-in agent, supply-data style: for each of its input items, takes its tools as n8n
 * hands them over and invokes every one with that item's fixed arguments, as a model's tool call
 * would. Outputs one item per call: the tool's answer (the JSON text n8n passes back to the
 * model) or the error n8n raised.
 */
function supplyDataAgent(calls: IDataObject[]): INodeType {
	return {
		description: agentDescription,
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

/**
 * The stand-in AI Agent v3: asks the engine to run each tool node itself, one action per call
 * (as its createEngineRequests does: the arguments as `input`, the item index in the metadata),
 * then, resumed with the engine's results, outputs one item per call as above.
 */
function engineRequestAgent(calls: IDataObject[], toolNames: string[]): INodeType {
	return {
		description: agentDescription,
		async execute(this: IExecuteFunctions, response?: EngineResponse): Promise<NodeOutput> {
			if (!response || response.actionResponses.length === 0) {
				const actions = this.getInputData().flatMap((_item, itemIndex) =>
					toolNames.map((nodeName) => ({
						actionType: 'ExecutionNodeAction' as const,
						nodeName,
						input: calls[itemIndex],
						type: NodeConnectionTypes.AiTool,
						id: `call_${itemIndex}_${nodeName}`,
						metadata: { itemIndex },
					})),
				);
				return { actions, metadata: {} };
			}
			return [
				response.actionResponses.map(({ action, data }) => {
					const { itemIndex } = action.metadata as { itemIndex: number };
					const json: IDataObject = { itemIndex, tool: action.nodeName };
					// The tool node's output is logged under ai_tool (the engine's rewireOutputLogTo).
					if (data.error) json.failed = data.error.message;
					else json.answer = JSON.stringify((data.data?.[NodeConnectionTypes.AiTool]?.[0] ?? []).map((item) => item.json));
					return { json, pairedItem: { item: itemIndex } };
				}),
			];
		},
	};
}

/** One tool's answer to one call: the `json` of its output items, or the error n8n raised. */
export type ToolAnswer = { items: IDataObject[] } | { failed: string };

export interface ToolRunOptions {
	/** How the agent calls its tools. */
	agent: AgentKind;
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
 * connected to its `ai_tool` input. Fails if the run itself fails.
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
			credentials: nodeCredentials(credentials, testCredentialId()),
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
			[AGENT_TYPE]:
				options.agent === 'engineRequest'
					? engineRequestAgent(options.args, [NODE_NAME, PROBE_NAME])
					: supplyDataAgent(options.args),
			[toolType]: asAiTool(options.nodeType ?? new MultiChannelNotification()),
			[probeToolType]: asAiTool(probeNodeType),
		},
		credentials,
		startNode: SOURCE_NAME,
		// n8n's execution order for new workflows; the engine-request agent relies on it (the
		// requested tools run before the agent resumes).
		settings: { executionOrder: 'v1' },
	});
	const task = run.data.resultData.runData[AGENT_NAME]?.at(-1);
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
