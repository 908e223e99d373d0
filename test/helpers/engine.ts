import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MultiChannelNotificationApi } from '../../credentials/MultiChannelNotificationApi.credentials';
import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import type { EngineRun } from '../../harness/workflowRunner';
import { createWorkflowRunner } from '../../harness/workflowRunner';
import { useDedupStore } from './dedupStore';
import { testCredentialId } from './isolation';
import { checkParameters } from './nodeParameters';

export const NODE_TYPE = 'n8n-nodes-multichannel-notification.multiChannelNotification';
export const NODE_NAME = 'Multi-Channel Notification';

export interface RunNodeOptions {
	/** Our node's parameters (resource, operation, fields). */
	parameters: INodeParameters;
	/** Items fed into our node; default one empty item. */
	items?: IDataObject[];
	/** The credential's fields; its two switches (Allow Plain HTTP, Ignore SSL Issues) are off unless set. */
	credentials: { apiKey: string; baseUrl: string; allowPlainHttp?: boolean; ignoreSslIssues?: boolean };
	/** The node setting On Error → Continue (using regular output). */
	continueOnFail?: boolean;
	/** The node setting Retry On Fail with this many tries (n8n waits 1 s between tries). */
	retryOnFail?: { maxTries: number };
	/** The id of the node's credential reference. Default: one per test (test/helpers/isolation.ts). */
	credentialId?: string;
	/** Stops the execution when aborted, as n8n's Stop button does. */
	stop?: AbortSignal;
}

export type RunNodeResult = EngineRun;

const run = createWorkflowRunner({
	typeName: NODE_TYPE,
	typeVersion: 1,
	nodeType: new MultiChannelNotification(),
	name: NODE_NAME,
});
const credentialType = new MultiChannelNotificationApi();

/**
 * Runs a workflow (input items → our node, from source) through n8n's WorkflowExecute
 * (harness/workflowRunner.ts). Throws first if a parameter or option name is not in the node's
 * description (test/helpers/nodeParameters.ts): n8n would silently ignore it.
 */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	checkParameters(options.parameters);
	await useDedupStore();
	return await run({
		credentialId: testCredentialId(),
		...options,
		// Items cross a JSON boundary, as they do between n8n nodes.
		items: JSON.parse(JSON.stringify(options.items ?? [{}])) as IDataObject[],
		credentials: { [credentialType.name]: { type: credentialType, data: options.credentials } },
	});
}
