import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	IDataObject,
	IExecuteFunctions,
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

import { useDedupStore } from './dedupStore';

/**
 * Runs real workflows through n8n-core's WorkflowExecute — the engine n8n itself uses — with
 * our node and credential (from source in tests, from dist/ in the quick demo). Only what n8n's server would supply is stood in for: the node-type
 * registry, the credential store (which applies the credential's `authenticate` block the way
 * n8n's CredentialsHelper does, by resolving its expressions), and `additionalData`.
 */

export const NODE_TYPE = 'n8n-nodes-multichannel-notification.multiChannelNotification';
export const NODE_NAME = 'Multi-Channel Notification';
const SOURCE_TYPE = 'test.inputItems';
const SOURCE_NAME = 'Input Items';

/** Stand-in for whatever node feeds ours: outputs the items given in its `items` parameter. */
class InputItems implements INodeType {
	description = {
		displayName: 'Input Items',
		name: SOURCE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Outputs fixed items',
		defaults: { name: SOURCE_NAME },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' } as INodeProperties],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json, index) => ({ json, pairedItem: { item: index } }))];
	}
}

/** Applies the credential's generic `authenticate` block as n8n's CredentialsHelper does. */
class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentialType: ICredentialType,
		private readonly data: ICredentialDataDecryptedObject,
	) {
		super();
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
		if (typeName !== this.credentialType.name) throw new Error(`Unknown credential type ${typeName}`);
		const options = { ...requestOptions } as IHttpRequestOptions;
		const authenticate = this.credentialType.authenticate;
		// A function is called directly, as n8n's CredentialsHelper does.
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		const headers = { ...(options.headers ?? {}) } as IDataObject;
		if (!authenticate || authenticate.type !== 'generic') {
			throw new Error('Only generic authenticate blocks and functions are supported here');
		}
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
		throw new Error('not used by the node');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		if (type !== this.credentialType.name) throw new Error(`Unknown credential type ${type}`);
		return { ...this.data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(): INodeProperties[] {
		return this.credentialType.properties;
	}
}

export interface RunNodeOptions {
	/** Our node's parameters (resource, operation, fields). */
	parameters: INodeParameters;
	/** Items fed into our node; default one empty item. */
	items?: IDataObject[];
	credentials: { apiKey: string; baseUrl: string };
	/** The node setting On Error → Continue (using regular output). */
	continueOnFail?: boolean;
	/** The node setting Retry On Fail with this many tries (n8n waits 1 s between tries). */
	retryOnFail?: { maxTries: number };
}

export interface RunNodeResult {
	/** Our node's first output, or undefined when it failed. */
	output: INodeExecutionData[] | undefined;
	/**
	 * The error our node raised, when it failed — as the engine stores it: a plain copy whose
	 * `name` is the class (NodeOperationError, NodeApiError), as n8n itself reads it back.
	 */
	error: (Error & { description?: string; httpCode?: string | null; context?: IDataObject }) | undefined;
	run: IRun;
}

let executionCounter = 0;

export type RunNode = (options: RunNodeOptions) => Promise<RunNodeResult>;

/** A runner for the given node and credential types. */
export function createRunNode(nodeType: INodeType, credentialType: ICredentialType): RunNode {
	const nodeTypeMap: Record<string, INodeType | IVersionedNodeType> = {
		[NODE_TYPE]: nodeType,
		[SOURCE_TYPE]: new InputItems(),
	};
	const nodeTypes: INodeTypes = {
		getByName: (type) => nodeTypeMap[type],
		getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(nodeTypeMap[type], version),
		getKnownTypes: () => ({}),
	};
	return async (options) => await runWorkflow(nodeTypes, credentialType, options);
}

async function runWorkflow(
	nodeTypes: INodeTypes,
	credentialType: ICredentialType,
	options: RunNodeOptions,
): Promise<RunNodeResult> {
	await useDedupStore();
	const nodes: INode[] = [
		{
			id: 'source',
			name: SOURCE_NAME,
			type: SOURCE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(options.items ?? [{}]) },
		},
		{
			id: 'notification',
			name: NODE_NAME,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: options.parameters,
			credentials: { multiChannelNotificationApi: { id: '1', name: 'Sandbox' } },
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			...(options.retryOnFail ? { retryOnFail: true, maxTries: options.retryOnFail.maxTries } : {}),
		},
	];
	const connections = {
		[SOURCE_NAME]: { main: [[{ node: NODE_NAME, type: NodeConnectionTypes.Main, index: 0 }]] },
	};
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'test',
		nodes,
		connections,
		active: false,
		nodeTypes,
	});

	const executionId = String(++executionCounter);
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: 'test-workflow',
		name: 'test',
		nodes,
		connections,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	});
	const additionalData = {
		credentialsHelper: new TestCredentialsHelper(credentialType, options.credentials),
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
	const task = run.data.resultData.runData[NODE_NAME]?.[0];
	return {
		output: task?.data?.main?.[0] ?? undefined,
		error: (task?.error ?? undefined) as RunNodeResult['error'],
		run,
	};
}
