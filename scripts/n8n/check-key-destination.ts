/**
 * Where the key goes when another node uses the credential: n8n offers it to the HTTP Request node
 * (a predefined credential type, or "Custom API Call"). A second https service on this machine
 * stands for someone else's host: an HTTP Request node with the sandbox's credential aimed at it
 * must fail without that service ever seeing the key (or any request), while the same node aimed
 * at the Base URL works, with the key.
 *
 *   npx tsx scripts/n8n/check-key-destination.ts     (after `npm run build`)
 */
import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { N8N_VERSION } from './lib/config';
import type { ExampleWorkflow } from './lib/examples';
import { CREDENTIAL_ID, CREDENTIAL_NAME, manualTrigger, workflowFixture } from './lib/examples';
import { outputOf } from './lib/n8n';
import type { Sandbox } from './lib/sandbox';
import { SMS_PATH, startSandbox } from './lib/sandbox';
import { step } from './lib/stack';

const SMS = { phone_number: '+6281234567890', message: 'Sent by an HTTP Request node with the credential' };

/** Trigger → an HTTP Request node that POSTs the SMS body to `url` with this package's credential. */
const httpRequestWorkflow = (id: string, name: string, url: string): ExampleWorkflow =>
	workflowFixture(id, name, [
		manualTrigger(),
		{
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'POST',
				url,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'multiChannelNotificationApi',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: JSON.stringify(SMS),
				options: {},
			},
			credentials: { multiChannelNotificationApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
		},
	]);

async function body(elsewhere: Sandbox, workflows: { away: ExampleWorkflow; home: ExampleWorkflow }, { sandbox, stack, expect, verify }: CheckContext): Promise<void> {
	try {
		const away = await step('HTTP Request node with the credential, aimed at another origin', async () => await stack.client.execute(workflows.away.id));
		const error = away.data.resultData.error as { message?: string } | undefined;
		verify(away.status === 'error', `the execution failed (execution ${away.id})`, away.status);
		verify(String(error?.message ?? '').includes(new URL(sandbox.url).origin), "its error names the Base URL's origin", error?.message);
		expect(elsewhere.requests.length === 0, 'the other origin received no request (so never the key)', elsewhere.requests.map((request) => request.headers));

		const before = sandbox.requests.length;
		const home = await step('the same node aimed at the Base URL', async () => await stack.client.execute(workflows.home.id));
		const reached = sandbox.requests.slice(before);
		verify(home.status === 'success', `the execution succeeded (execution ${home.id})`, home.data.resultData.error);
		verify(reached.length === 1 && reached[0].headers.authorization === sandbox.apiKey && reached[0].delivered, 'the sandbox got it with the key and delivered it', reached.map((request) => request.status));
		verify(outputOf(home, 'HTTP Request')[0]?.json.message === 'success', "the node's output is the service's answer");
	} finally {
		await elsewhere.stop();
	}
}

export const keyDestinationCheck: Check = {
	name: `key destination check (HTTP Request node with the credential), n8n ${N8N_VERSION}`,
	prepare: async (sandbox) => {
		const elsewhere = await startSandbox({ port: 0, apiKey: 'someone-elses-service' });
		const workflows = {
			away: httpRequestWorkflow('mcnKeyElsewhere1', 'Key destination: another origin', `${elsewhere.url}${SMS_PATH}`),
			home: httpRequestWorkflow('mcnKeyHome00001', 'Key destination: the Base URL', `${sandbox.url}${SMS_PATH}`),
		};
		return { workflows: [workflows.away, workflows.home], run: async (context) => await body(elsewhere, workflows, context) };
	},
};

runIfMain(module, keyDestinationCheck);
