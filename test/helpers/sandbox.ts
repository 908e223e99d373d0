import { readFileSync } from 'node:fs';

import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';
import type { TlsMaterial } from '../../sandbox/tls';
import { makeTlsFiles, removeTlsFiles } from '../../sandbox/tls';

/**
 * How long a test's last requests may take to close once it ends: a client that gave up (a
 * timeout, an abort) closes its socket at once, and the sandbox sees it a few event-loop turns
 * later. Ten seconds only matters on a machine too busy to turn its event loop; a request still
 * open after it was left open by the test.
 */
const IDLE_DEADLINE_MS = 10_000;

/** Fails the test that left API requests open: they would count against the next one. */
export async function expectIdle(sandbox: Sandbox): Promise<void> {
	const open = await sandbox.whenIdle(IDLE_DEADLINE_MS);
	if (open > 0) {
		throw new Error(`The test ended with ${open} request(s) to the sandbox still open: await, abort or close what it starts.`);
	}
}

/**
 * One sandbox per test file on 127.0.0.1, port 0, cleared before every test and checked idle
 * after it. Returns a getter, since the sandbox only exists once beforeAll has run.
 */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, apiKey: 'test-key-9f2c41d7', ...options });
	});
	beforeEach(() => sandbox?.reset());
	afterEach(async () => {
		if (sandbox) await expectIdle(sandbox);
	});
	afterAll(async () => {
		await sandbox?.stop();
	});
	return () => {
		if (!sandbox) throw new Error('sandbox not started');
		return sandbox;
	};
}

export function credentialsFor(sandbox: Sandbox): { apiKey: string; baseUrl: string } {
	return { apiKey: sandbox.apiKey, baseUrl: sandbox.url };
}

/**
 * A certificate nobody trusts: made like the run's (sandbox/tls.ts) but under a second throwaway
 * CA that is in no NODE_EXTRA_CA_CERTS, as a self-hosted service with its own internal CA is to
 * an n8n that was not told about it. Read into memory; the files are removed at once.
 */
export function untrustedTls(): TlsMaterial {
	const files = makeTlsFiles();
	try {
		return { cert: readFileSync(files.cert), key: readFileSync(files.key), ca: readFileSync(files.ca) };
	} finally {
		removeTlsFiles(files);
	}
}
