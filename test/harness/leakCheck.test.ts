/**
 * The test environment (test/environment.js) turns a leak into a failure instead of a jest that
 * never exits: a jest of its own runs a fixture whose tests leave a timer, an interval and a
 * listening server, and must exit on its own, failing exactly those tests by name.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

test(
	'each test that leaves something running fails by name, and jest exits on its own',
	async () => {
		const cache = mkdtempSync(path.join(tmpdir(), 'mcn-leak-check-'));
		const child = spawn(
			process.execPath,
			[
				require.resolve('jest/bin/jest'),
				'--ci',
				'--colors=false',
				`--cacheDirectory=${cache}`,
				'--testMatch=**/test/fixtures/leaks/*.fixture.ts',
				'test/fixtures/leaks',
			],
			{ cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const code = await new Promise<number | null>((exited) => child.on('exit', exited));
		rmSync(cache, { recursive: true, force: true });

		expect(code).toBe(1);
		expect(output).toMatch(/The test "leaves a timer" left 1 thing\(s\) running .*a setTimeout of 3600000 ms/);
		expect(output).toMatch(/The test "leaves an interval" left 1 thing\(s\) running .*a setInterval of 100 ms/);
		expect(output).toMatch(/The test "leaves a listening server" left 1 thing\(s\) running .*a listening server/);
		expect(output).toContain('Tests:       3 failed, 1 passed, 4 total');
	},
	// A jest of its own starts, compiles the fixture and waits out three grace periods.
	120_000,
);
