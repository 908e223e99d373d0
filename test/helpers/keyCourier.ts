/**
 * A node that sends one GET with the Multi-Channel Notification API credential to the URL it is
 * given, the way n8n's HTTP Request node 4.x does (`uri`, redirects followed, credentials sent on
 * a cross-origin redirect) or through n8n's newer helper (`url`): another node using the
 * credential, for the tests of where the key goes.
 */
import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { MultiChannelNotificationApi } from '../../credentials/MultiChannelNotificationApi.credentials';
import { createWorkflowRunner } from '../../harness/workflowRunner';

export const CREDENTIAL = new MultiChannelNotificationApi();

/** A node that sends one GET with the credential to the URL it is given. */
const courier: INodeType = {
	description: {
		displayName: 'Key Courier',
		name: 'test.keyCourier',
		group: ['transform'],
		version: 1,
		description: 'Sends one request with the Multi-Channel Notification API credential',
		defaults: { name: 'Key Courier' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL.name, required: true }],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Helper', name: 'helper', type: 'string', default: 'legacy' },
			{ displayName: 'Ignore SSL Issues', name: 'ignoreSsl', type: 'boolean', default: false },
		],
	},
	async execute(this: IExecuteFunctions) {
		const url = this.getNodeParameter('url', 0) as string;
		const ignoreSsl = this.getNodeParameter('ignoreSsl', 0) as boolean;
		const answer: unknown =
			this.getNodeParameter('helper', 0) === 'legacy'
				? await this.helpers.requestWithAuthentication.call(this, CREDENTIAL.name, {
						method: 'GET',
						uri: url,
						followRedirect: true,
						followAllRedirects: true,
						sendCredentialsOnCrossOriginRedirect: true,
						resolveWithFullResponse: true,
						simple: false,
						rejectUnauthorized: !ignoreSsl,
					})
				: await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL.name, {
						method: 'GET',
						url,
						returnFullResponse: true,
						ignoreHttpStatusErrors: true,
						skipSslCertificateValidation: ignoreSsl,
					});
		const { statusCode } = answer as { statusCode: number };
		return [[{ json: { statusCode }, pairedItem: { item: 0 } }]];
	},
};

export const runCourier = createWorkflowRunner({ typeName: 'test.keyCourier', typeVersion: 1, nodeType: courier });

