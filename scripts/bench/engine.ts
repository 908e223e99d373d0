/**
 * The bench's engine runner: a two-node workflow (an input-items source → the node measured)
 * run by n8n-core's WorkflowExecute, exactly as test/helpers/workflowRunner.ts does for our node,
 * but for any node type, so our node and n8n's own HTTP Request node run through the same code.
 * Only what n8n's server would supply is stood in for: the node-type registry, the credential
 * store (applying a credential's generic `authenticate` block as n8n's CredentialsHelper does)
 * and `additionalData`.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	Workflow as WorkflowType,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

const SOURCE_TYPE = 'bench.inputItems';
const SOURCE_NAME = 'Input Items';
export const TARGET_NAME = 'Measured Node';

/** Outputs the items handed to the runner (held in memory, not in a parameter). */
function inputItemsNode(items: () => IDataObject[]): INodeType {
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
		execute: async () => [items().map((json, index) => ({ json, pairedItem: { item: index } }))],
	};
}

export interface CredentialEntry {
	/** The credential type's class, when it has an `authenticate` block to apply. */
	type?: ICredentialType;
	data: ICredentialDataDecryptedObject;
}

class BenchCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly credentials: Record<string, CredentialEntry>) {
		super();
	}

	private entry(typeName: string): CredentialEntry {
		const entry = this.credentials[typeName];
		if (!entry) throw new Error(`No credential of type ${typeName} in this bench run`);
		return entry;
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: WorkflowType,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.entry(typeName).type?.authenticate;
		const options = { ...requestOptions } as IHttpRequestOptions;
		if (!authenticate) return options;
		// A function is called directly, as n8n's CredentialsHelper does.
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		if (authenticate.type !== 'generic') throw new Error('Only generic authenticate blocks and functions are supported here');
		const headers = { ...(options.headers ?? {}) } as IDataObject;
		for (const [name, value] of Object.entries(authenticate.properties.headers ?? {})) {
			headers[name] = workflow.expression.getParameterValue(
				value as string,
				null,
				0,
				0,
				node.name,
				[],
				'internal',
				{ $credentials: credentials },
				undefined,
				false,
			) as string;
		}
		options.headers = headers;
		return options;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by the nodes measured');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		return { ...this.entry(type).data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.entry(type).type?.properties ?? [];
	}
}

export interface TargetNode {
	/** Node type name as a workflow stores it, e.g. `n8n-nodes-base.httpRequest`. */
	typeName: string;
	typeVersion: number;
	nodeType: INodeType | IVersionedNodeType;
	parameters: INodeParameters;
	/** Credential type name → the credential; the node gets one of each. */
	credentials: Record<string, CredentialEntry>;
}

export interface EngineRun {
	output: INodeExecutionData[] | undefined;
	error: Error | undefined;
	run: IRun;
}

let executionCounter = 0;

/** A runner for one target node: each call runs the workflow once over the items given. */
export function createEngineRunner(target: TargetNode): (items: IDataObject[]) => Promise<EngineRun> {
	let currentItems: IDataObject[] = [];
	const nodeTypeMap: Record<string, INodeType | IVersionedNodeType> = {
		[target.typeName]: target.nodeType,
		[SOURCE_TYPE]: inputItemsNode(() => currentItems),
	};
	const nodeTypes: INodeTypes = {
		getByName: (type) => nodeTypeMap[type],
		getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(nodeTypeMap[type], version),
		getKnownTypes: () => ({}),
	};
	const credentialsHelper = new BenchCredentialsHelper(target.credentials);

	return async (items) => {
		currentItems = items;
		const nodes: INode[] = [
			{
				id: 'source',
				name: SOURCE_NAME,
				type: SOURCE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'target',
				name: TARGET_NAME,
				type: target.typeName,
				typeVersion: target.typeVersion,
				position: [200, 0],
				parameters: target.parameters,
				credentials: Object.fromEntries(
					Object.keys(target.credentials).map((type, index) => [type, { id: String(index + 1), name: type }]),
				),
			},
		];
		const connections = {
			[SOURCE_NAME]: { main: [[{ node: TARGET_NAME, type: NodeConnectionTypes.Main, index: 0 }]] },
		};
		const workflow = new Workflow({ id: 'bench', name: 'bench', nodes, connections, active: false, nodeTypes });
		const executionId = String(++executionCounter);
		const hooks = new ExecutionLifecycleHooks('manual', executionId, {
			id: 'bench',
			name: 'bench',
			nodes,
			connections,
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
		});
		const additionalData = {
			credentialsHelper,
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

		const run = await new WorkflowExecute(additionalData, 'manual').run({
			workflow,
			startNode: workflow.getNode(SOURCE_NAME) ?? undefined,
		});
		currentItems = [];
		const task = run.data.resultData.runData[TARGET_NAME]?.[0];
		return {
			output: task?.data?.main?.[0] ?? undefined,
			error: (task?.error ?? run.data.resultData.error ?? undefined) as Error | undefined,
			run,
		};
	};
}
