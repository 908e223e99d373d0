import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

import type { CredentialEntry } from './workflowRunner';

/**
 * The credential store of one run: hands out the run's credentials and applies a credential's
 * `authenticate` block as n8n's CredentialsHelper does (a function is called; a generic block's
 * header expressions are resolved through the workflow's expression engine).
 */
export class RunCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly credentials: Record<string, CredentialEntry>) {
		super();
	}

	private entry(typeName: string): CredentialEntry {
		const entry = this.credentials[typeName];
		if (!entry) throw new Error(`No credential of type ${typeName} in this run`);
		return entry;
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.entry(typeName).type?.authenticate;
		const options = { ...requestOptions } as IHttpRequestOptions;
		if (!authenticate) return options;
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
		throw new Error('not used by the nodes run here');
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
