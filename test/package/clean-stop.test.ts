/**
 * `npm run sandbox` stops cleanly when only its top `npm` is signalled or dies, as an IDE's stop
 * button or a process manager does it: every process of the run ends and its temp folder is left
 * empty (the tools' shared caches aside). The same for `npm start` and the demos, which need real
 * n8n, is scripts/n8n/check-clean-stop.ts, in the real-n8n CI. Linux only (/proc).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { commandLine, leftIn, RUN_TAG_ENV, Tracker, waitFor } from '../../scripts/n8n/lib/leftovers';
import { cleanEnv } from '../../scripts/n8n/lib/process';

const REPO_ROOT = join(__dirname, '..', '..');
const linux = process.platform === 'linux' ? describe : describe.skip;

async function stopSandboxWith(signal: NodeJS.Signals): Promise<{ alive: string[]; left: string[]; tracked: number }> {
	const temp = mkdtempSync(join(tmpdir(), 'mcn-clean-stop-'));
	const tag = `clean-stop-${process.pid}-${signal}`;
	// A user's shell: without this test run's npm script details and its TLS material, so the
	// sandbox's run makes (and must remove) its own certificates in the temp folder.
	const env = cleanEnv({ TMPDIR: temp, [RUN_TAG_ENV]: tag });
	delete env.SANDBOX_TLS_DIR;
	delete env.NODE_EXTRA_CA_CERTS;
	const npm = spawn('npm', ['run', 'sandbox', '--', '--port', '0'], {
		cwd: REPO_ROOT,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const tracker = new Tracker(npm.pid as number, tag);
	let output = '';
	npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	try {
		// Generous: on a loaded 2-core machine npm and two TypeScript starts took over 30 s.
		if (!(await waitFor(() => output.includes('Sandbox listening on'), 90_000))) throw new Error(`the sandbox did not start:\n${output}`);
		tracker.look();
		process.kill(npm.pid as number, signal);
		await waitFor(() => tracker.alive().length === 0, 30_000);
		const alive = tracker.alive().map((pid) => `${pid} ${commandLine(pid)}`);
		return { alive, left: leftIn(temp), tracked: tracker.seen.size };
	} finally {
		tracker.stop();
		for (const pid of tracker.alive()) process.kill(pid, 'SIGKILL');
		rmSync(temp, { recursive: true, force: true });
	}
}

linux('npm run sandbox, stopped through its top npm alone', () => {
	test.each(['SIGINT', 'SIGTERM', 'SIGKILL'] as const)('%s to npm: no process and no temp file left', async (signal) => {
		const { alive, left, tracked } = await stopSandboxWith(signal);
		// npm, the TLS wrapper (its shell's exec), the sandbox: a chain, not one process.
		expect(tracked).toBeGreaterThanOrEqual(3);
		expect(alive).toEqual([]);
		expect(left).toEqual([]);
	}, 180_000);
});
