/**
 * Self-hosted services check, in real n8n (2.8.4), with the package installed like a community
 * package: the credential's two switches against a sandbox on plain http and one on https with a
 * certificate from a second throwaway CA that this n8n does not trust.
 *
 *   - Allow Plain HTTP: n8n's credential test (`POST /rest/credentials/test`) says Error and
 *     names the switch while it is off, OK once it is on; a workflow sends over http with it on.
 *   - Ignore SSL Issues (Insecure): with it off the credential test names the switch and
 *     NODE_EXTRA_CA_CERTS; with it on the test says the key was NOT checked (never OK), and a
 *     workflow's send is delivered (n8n's request helper skips the certificate check).
 *   - The same send through a forward proxy (n8n's HTTPS_PROXY; NO_PROXY keeps 127.0.0.1 direct,
 *     so the service is reached by the name localhost to go through it): n8n 2.41.1 hands the
 *     switch to the tunnelled connection and the send is delivered through the proxy, which never
 *     sees the key; 2.8.4 and 1.123.x check the certificate anyway, and the send fails with an
 *     error that says so, nothing delivered.
 *
 * scripts/ci-e2e.sh runs it on n8n 2.8.4, 1.123.x and the newest 2.x.
 *
 *   npx tsx scripts/n8n/check-self-hosted.ts     (after `npm run build`)
 */
import { readFileSync } from 'node:fs';

import { startRecordingProxy } from '../../sandbox/proxy';
import { makeTlsFiles } from '../../sandbox/tls';
import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { CREDENTIAL_TYPE, N8N_VERSION } from './lib/config';
import { manualTrigger, packageNode, workflowFixture } from './lib/examples';
import type { CredentialFixture, N8nClient } from './lib/n8n';
import { firstJson } from './lib/n8n';
import { removeOnExit } from './lib/process';
import { startSandbox } from './lib/sandbox';
import { step } from './lib/stack';

function credential(id: string, name: string, data: CredentialFixture['data']): CredentialFixture {
	return { id, name, type: CREDENTIAL_TYPE, data };
}

/** Trigger → "Send": one SMS through the given credential. */
function smsWorkflow(id: string, { id: credentialId, name }: CredentialFixture) {
	const send = packageNode('Send', { resource: 'sms', operation: 'send', phoneNumber: '+6281234500001', message: `Sent by ${name}` });
	return workflowFixture(id, `Self-hosted: ${name}`, [manualTrigger(), { ...send, credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name } } }]);
}

/** Whether this n8n gives the credential's switch to the connection tunnelled through a proxy: 2.41.1 does, 2.8.4 and 1.123.x do not. */
const [major, minor] = N8N_VERSION.split('.').map(Number);
const SWITCH_REACHES_TUNNEL = major > 2 || (major === 2 && minor >= 41);

/** Whether the workflow's send succeeded, with what n8n says otherwise. */
async function sent(client: N8nClient, workflowId: string): Promise<{ ok: boolean; status: string; error?: string }> {
	const execution = await client.execute(workflowId, { deadlineMs: 90_000 });
	const run = execution.data.resultData.runData.Send?.[0];
	return { ok: execution.status === 'success' && firstJson(execution, 'Send')?.message === 'success', status: execution.status, error: run?.error?.description ?? run?.error?.message };
}

/** The two services, their credentials and the proxy, started before n8n (the credentials name their URLs). */
async function services() {
	const files = makeTlsFiles();
	removeOnExit(files.dir);
	const plain = await startSandbox({ port: 0, quiet: true, plainHttp: true });
	const untrusted = await startSandbox({ port: 0, quiet: true, tls: { cert: readFileSync(files.cert), key: readFileSync(files.key), ca: readFileSync(files.ca) } });
	const http = credential('mcnSelfHostedHttp1', 'Self-hosted (plain http)', { apiKey: plain.apiKey, baseUrl: plain.url, allowPlainHttp: true });
	const insecure = credential('mcnSelfHostedTls01', 'Self-hosted (untrusted certificate)', { apiKey: untrusted.apiKey, baseUrl: untrusted.url, ignoreSslIssues: true });
	const proxied = credential('mcnSelfHostedTls02', 'Self-hosted (untrusted certificate, through the proxy)', {
		apiKey: untrusted.apiKey,
		baseUrl: untrusted.url.replace('127.0.0.1', 'localhost'),
		ignoreSslIssues: true,
	});
	return { plain, untrusted, http, insecure, proxied, proxy: await startRecordingProxy() };
}

async function body({ stack: { client }, expect }: CheckContext, { plain, untrusted, http, insecure, proxied, proxy }: Awaited<ReturnType<typeof services>>): Promise<void> {
	const targets = () => proxy.connects.map((opened) => opened.target);
	/** n8n's credential test of the stored credential with `change` applied, as the editor tests unsaved edits. */
	const test = async (fixture: CredentialFixture, change: Record<string, boolean> = {}) => await client.testCredential({ ...fixture, data: { ...fixture.data, ...change } });

	await step('credential test, plain http', async () => {
		const off = await test(http, { allowPlainHttp: false });
		expect(off.status === 'Error' && off.message.includes('Allow Plain HTTP'), `Allow Plain HTTP off → Error naming it ("${off.message}")`, off);
		expect(plain.requests.length === 0, 'and nothing reached the service');
		const on = await test(http);
		expect(on.status === 'OK', `Allow Plain HTTP on → OK ("${on.message}")`, on);
		expect(plain.requests.length === 1 && plain.requests[0].headers.authorization === plain.apiKey, 'the test reached the service over http with the key');
	});

	await step('credential test, untrusted certificate', async () => {
		const off = await test(insecure, { ignoreSslIssues: false });
		expect(
			off.status === 'Error' && off.message.includes('Ignore SSL Issues (Insecure)') && off.message.includes('NODE_EXTRA_CA_CERTS'),
			`Ignore SSL Issues off → Error naming the switch and NODE_EXTRA_CA_CERTS ("${off.message}")`,
			off,
		);
		const on = await test(insecure);
		expect(on.status === 'Error' && /NOT checked/.test(on.message), `Ignore SSL Issues on → Error, the key NOT checked ("${on.message}")`, on);
		expect(untrusted.requests.length === 0, 'and nothing reached the service');
	});

	await step('sends', async () => {
		const overHttp = await sent(client, 'selfHostedHttp01');
		expect(overHttp.ok, 'a send over plain http with Allow Plain HTTP on is delivered', overHttp);
		expect(plain.deliveries().length === 1, 'the http sandbox delivered it');
		const overTls = await sent(client, 'selfHostedTls001');
		expect(overTls.ok, 'a send to the untrusted certificate with Ignore SSL Issues on is delivered', overTls);
		expect(untrusted.deliveries().length === 1 && untrusted.deliveries()[0].headers.authorization === untrusted.apiKey, 'the https sandbox delivered it, with the key');
		expect(!targets().some((target) => target.endsWith(`:${new URL(untrusted.url).port}`)), 'both went direct: no tunnel to the service', targets());
	});

	await step('send through the proxy, Ignore SSL Issues on', async () => {
		const through = await sent(client, 'selfHostedTls002');
		const target = new URL(proxied.data.baseUrl as string).host;
		const tunnels = targets().filter((opened) => opened.endsWith(`:${new URL(untrusted.url).port}`));
		expect(tunnels.length === 1 && tunnels[0] === target, `n8n opened one tunnel to ${target} through its HTTPS_PROXY`, targets());
		expect(!proxy.received().includes(untrusted.apiKey), 'the proxy never saw the key');
		if (SWITCH_REACHES_TUNNEL) {
			expect(through.ok && untrusted.deliveries().length === 2, `n8n ${N8N_VERSION} skips the check on the tunnelled connection: delivered`, through);
		} else {
			const checked = through.error ?? '';
			expect(
				!through.ok && checked.includes('is on in the credential, yet n8n checked the certificate') && checked.includes('NO_PROXY'),
				`n8n ${N8N_VERSION} checks the certificate through the proxy anyway: the send fails, its error says so and names NO_PROXY`,
				through,
			);
			expect(untrusted.deliveries().length === 1, 'and nothing more was delivered');
		}
	});
	await proxy.stop();
}

export const selfHostedCheck: Check = {
	name: `self-hosted services check, n8n ${N8N_VERSION}`,
	prepare: async () => {
		const started = await services();
		const { http, insecure, proxied, proxy } = started;
		return {
			credentials: [http, insecure, proxied],
			workflows: [smsWorkflow('selfHostedHttp01', http), smsWorkflow('selfHostedTls001', insecure), smsWorkflow('selfHostedTls002', proxied)],
			// NO_PROXY keeps every other check's service (on 127.0.0.1) direct.
			env: { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' },
			run: async (context) => await body(context, started),
		};
	},
};

runIfMain(module, selfHostedCheck);
