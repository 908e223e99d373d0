import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';

/**
 * One sandbox per test file on 127.0.0.1, port 0, cleared before every test. Returns a getter,
 * since the sandbox only exists once beforeAll has run.
 */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, apiKey: 'test-key-9f2c41d7', ...options });
	});
	beforeEach(() => sandbox?.reset());
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
