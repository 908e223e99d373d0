/**
 * Credential check: n8n's own credential test (`POST /rest/credentials/test`, what the editor
 * calls when a credential is saved or re-tested) against the sandbox, with the package installed
 * like a community package.
 *
 * The payload is `{ credentials: { id, name, type, data } }` (n8n 2.8.4,
 * CredentialsController.testCredentials): the id must be a stored credential the user can read;
 * values in `data` override the stored ones, which is how the editor tests unsaved edits.
 *
 *   npx tsx scripts/n8n/check-credential-test.ts     (after `npm run build`)
 */
import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { N8N_VERSION } from './lib/config';
import { sandboxCredential } from './lib/examples';
import { freePort } from './lib/process';
import { step } from './lib/stack';

async function body({ sandbox, stack, expect }: CheckContext): Promise<void> {
	const credential = sandboxCredential(sandbox.url, sandbox.apiKey);

	await step('right key', async () => {
		const before = sandbox.requests.length;
		const verdict = await stack.client.testCredential(credential);
		expect(verdict.status === 'OK', `right key → OK ("${verdict.message}")`, verdict);
		const probe = sandbox.requests.slice(before);
		expect(probe.length === 1 && probe[0].headers.authorization === sandbox.apiKey, 'the test reached the sandbox with the key as Authorization', probe);
		expect(probe.every((request) => !request.delivered), 'and delivered nothing');
	});

	await step('wrong key', async () => {
		const verdict = await stack.client.testCredential({ ...credential, data: { ...credential.data, apiKey: 'not-the-key' } });
		expect(verdict.status === 'Error', `wrong key → Error ("${verdict.message}")`, verdict);
		expect(/key/i.test(verdict.message), 'the message says the key was refused', verdict.message);
	});

	await step('service not reachable', async () => {
		const nowhere = `https://127.0.0.1:${await freePort()}`;
		const verdict = await stack.client.testCredential({ ...credential, data: { ...credential.data, baseUrl: nowhere } });
		expect(verdict.status === 'Error', `nothing listening at the Base URL → Error ("${verdict.message}")`, verdict);
	});

	await step('plain http to another machine', async () => {
		const verdict = await stack.client.testCredential({ ...credential, data: { ...credential.data, baseUrl: 'http://notification.example.com' } });
		expect(verdict.status === 'Error' && /https/.test(verdict.message), `non-loopback http:// Base URL → Error ("${verdict.message}")`, verdict);
	});
}

export const credentialCheck: Check = { name: `credential check, n8n ${N8N_VERSION}`, prepare: () => ({ run: body }) };

runIfMain(module, credentialCheck);
