/**
 * The one in-process workflow runner, shared by the tests (test/helpers/engine.ts), the quick
 * demo (scripts/demo.ts) and the benchmarks (scripts/bench/): a two-node workflow — an
 * input-items source → the node under test or measured — run by n8n-core's WorkflowExecute, the
 * engine n8n itself uses. Only what n8n's server would supply is stood in for: the node-type
 * registry, the credential store (applying a credential's `authenticate` block as n8n's
 * CredentialsHelper does, by resolving its expressions) and `additionalData`. `runWorkflow` runs
 * any other workflow shape the same way (test/helpers/toolRun.ts: the node as an AI agent's tool).
 */
import type {
	IConnections,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import { RunCredentialsHelper } from './credentialsHelper';

export const SOURCE_TYPE = 'harness.inputItems';
export const SOURCE_NAME = 'Input Items';
export const DEFAULT_NODE_NAME = 'Measured Node';

/** Outputs the items of the run it was made for (held in memory, not in a parameter). */
export function inputItemsNode(items: IDataObject[]): INodeType {
	return {
		description: {
			displayName: 'Input Items',
			name: SOURCE_TYPE,
			group: ['input'],
			version: 1,
			description: 'Outputs the items of the run',
			defaults: { name: SOURCE_NAME },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		// An arrow function: n8n calls execute with its own context as `this`.
		execute: async () => [items.map((json, index) => ({ json, pairedItem: { item: index } }))],
	};
}

export interface CredentialEntry {
	/** The credential type's class, when it has an `authenticate` block or properties to apply. */
	type?: ICredentialType;
	data: ICredentialDataDecryptedObject;
}

export interface TargetNode {
	/** Node type name as a workflow stores it, e.g. `n8n-nodes-base.httpRequest`. */
	typeName: string;
	typeVersion: number;
	nodeType: INodeType | IVersionedNodeType;
	/** The node's name in the workflow (what n8n puts in its errors); default DEFAULT_NODE_NAME. */
	name?: string;
}

export interface WorkflowRun {
	parameters: INodeParameters;
	items: IDataObject[];
	/** Credential type name → the credential; the node gets one of each. */
	credentials: Record<string, CredentialEntry>;
	/** The node setting On Error → Continue (using regular output). */
	continueOnFail?: boolean;
	/** The node setting Retry On Fail with this many tries (n8n waits 1 s between tries). */
	retryOnFail?: { maxTries: number };
	/**
	 * The id the node's credential reference carries (default "1"). A node may keep state per
	 * credential across runs in this process (this package's node: its pace per service), so runs
	 * that must not share it give different ids.
	 */
	credentialId?: string;
	/** Stops the execution when aborted, as n8n's Stop button does (its cancel signal fires). */
	stop?: AbortSignal;
}

export interface EngineRun {
	/** The node's first output, or undefined when it failed. */
	output: INodeExecutionData[] | undefined;
	/**
	 * The error the node raised, as the engine stores it: a plain copy whose `name` is the class
	 * (NodeOperationError, NodeApiError), as n8n itself reads it back.
	 */
	error: (Error & { description?: string; httpCode?: string | null; context?: IDataObject }) | undefined;
	run: IRun;
}

let executionCounter = 0;

/** The node-type registry of one run: n8n's resolves a type name and version the same way. */
function registry(types: Record<string, INodeType | IVersionedNodeType>): INodeTypes {
	return {
		getByName: (type) => types[type],
		getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(types[type], version),
		getKnownTypes: () => ({}),
	};
}

/** A node's credential references, one of each type in the run; `id` overrides the first's. */
export function nodeCredentials(credentials: Record<string, CredentialEntry>, id?: string): INode['credentials'] {
	return Object.fromEntries(
		Object.keys(credentials).map((type, index) => [type, { id: index === 0 && id !== undefined ? id : String(index + 1), name: type }]),
	);
}

export interface WorkflowDefinition {
	nodes: INode[];
	connections: IConnections;
	/** Node type name (as the nodes give it) → the type. */
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	credentials: Record<string, CredentialEntry>;
	/** The name of the node the run starts at. */
	startNode: string;
	/** Workflow settings, e.g. `executionOrder: 'v1'` (n8n's default for new workflows). */
	settings?: IWorkflowSettings;
	/** Stops the execution when aborted, as n8n's Stop button does. */
	stop?: AbortSignal;
}

/** Runs a workflow once through WorkflowExecute, with what n8n's server would supply. */
export async function runWorkflow(definition: WorkflowDefinition): Promise<IRun> {
	const { nodes, connections, settings } = definition;
	const workflowData = { id: 'harness', name: 'harness', nodes, connections, active: false, settings };
	const workflow = new Workflow({ ...workflowData, nodeTypes: registry(definition.nodeTypes) });
	const executionId = String(++executionCounter);
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		...workflowData,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	});
	const additionalData = {
		credentialsHelper: new RunCredentialsHelper(definition.credentials),
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		variables: {},
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;

	const execution = new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode(definition.startNode) ?? undefined,
	});
	const stop = () => execution.cancel();
	definition.stop?.addEventListener('abort', stop);
	try {
		return await execution;
	} finally {
		definition.stop?.removeEventListener('abort', stop);
	}
}

/** A runner for one node type: each call runs the two-node workflow once. */
export function createWorkflowRunner(target: TargetNode): (options: WorkflowRun) => Promise<EngineRun> {
	const name = target.name ?? DEFAULT_NODE_NAME;
	return async (options) => {
		const nodes: INode[] = [
			{ id: 'source', name: SOURCE_NAME, type: SOURCE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'target',
				name,
				type: target.typeName,
				typeVersion: target.typeVersion,
				position: [200, 0],
				parameters: options.parameters,
				credentials: nodeCredentials(options.credentials, options.credentialId),
				...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				...(options.retryOnFail ? { retryOnFail: true, maxTries: options.retryOnFail.maxTries } : {}),
			},
		];
		const run = await runWorkflow({
			nodes,
			connections: { [SOURCE_NAME]: { main: [[{ node: name, type: NodeConnectionTypes.Main, index: 0 }]] } },
			nodeTypes: { [target.typeName]: target.nodeType, [SOURCE_TYPE]: inputItemsNode(options.items) },
			credentials: options.credentials,
			startNode: SOURCE_NAME,
			stop: options.stop,
		});
		const task = run.data.resultData.runData[name]?.[0];
		return {
			output: task?.data?.main?.[0] ?? undefined,
			error: (task?.error ?? run.data.resultData.error ?? undefined) as EngineRun['error'],
			run,
		};
	};
}
