/**
 * A test run's temporary folder (made by test/global-setup.js) goes away however jest ends: jest
 * skips its global teardown when --bail stops it while other files still run, and when it is
 * interrupted or killed, so the folder would be left in the machine's temp folder each time
 * (test/tmpRoot.js removes it then).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { waitFor } from '../../scripts/n8n/lib/leftovers';

const REPO_ROOT = join(__dirname, '..', '..');
const JEST = join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

let work: string;
let temp: string;

beforeEach(() => {
	work = mkdtempSync(join(tmpdir(), 'mcn-test-run-folder-'));
	temp = join(work, 'temp');
	mkdirSync(temp);
	const config = {
		rootDir: work,
		testMatch: ['**/*.check.js'],
		testEnvironment: 'node',
		cacheDirectory: join(work, 'cache'),
		globalSetup: join(REPO_ROOT, 'test', 'global-setup.js'),
		globalTeardown: join(REPO_ROOT, 'test', 'global-teardown.js'),
	};
	writeFileSync(join(work, 'jest.config.json'), JSON.stringify(config));
	writeFileSync(join(work, 'fails.check.js'), "test('fails', () => { throw new Error('planned'); });\n");
	// Long enough to still be running when the other file fails or the signal comes; it says when
	// it has begun, so the signal comes while a test runs (the run's setup, which arranges the
	// folder's removal, long done).
	writeFileSync(
		join(work, 'slow.check.js'),
		`test('slow', () => { require('fs').writeFileSync(${JSON.stringify(join(work, 'begun'))}, ''); return new Promise((done) => setTimeout(done, 20000)); });\n`,
		'utf8',
	);
});

/** Process groups of the jests a test started: a worker can outlive its jest and write to `work` (its cache). */
const groups: number[] = [];
const groupAlive = (pid: number): boolean => {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
};

afterEach(async () => {
	for (const pid of groups.splice(0)) {
		if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
		await waitFor(() => !groupAlive(pid), 10_000);
	}
	rmSync(work, { recursive: true, force: true });
});

function runFolders(): string[] {
	return readdirSync(temp).filter((name) => name.startsWith('mcn-test-run-'));
}

function startJest(args: string[]) {
	const child = spawn(process.execPath, [JEST, '--config', join(work, 'jest.config.json'), '--maxWorkers=2', ...args], {
		cwd: work,
		// Its own process group, which a terminal's Ctrl-C signals as a whole.
		detached: true,
		env: { ...process.env, TMPDIR: temp },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	if (child.pid !== undefined) groups.push(child.pid);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const ended = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
	return { child, ended, output: () => output };
}

/**
 * How jest ended and what it left, with its output when that is not what is expected (to see
 * why). After a signal the folder is removed by another process once jest is gone: the bound is
 * for that process on a loaded machine.
 */
async function outcome(run: ReturnType<typeof startJest>, expected: NodeJS.Signals | number) {
	const ended = await run.ended;
	await waitFor(() => runFolders().length === 0, 20_000);
	const result = { ended, left: runFolders() };
	if (result.ended !== expected || result.left.length > 0) process.stderr.write(`jest's output:\n${run.output()}\n`);
	return result;
}

test('--bail with another file still running: the run fails and its folder is gone', async () => {
	expect(await outcome(startJest(['--bail']), 1)).toEqual({ ended: 1, left: [] });
}, 120_000);

async function startedJest(): Promise<ReturnType<typeof startJest>> {
	const run = startJest(['slow']);
	// A bound, not a timing claim: jest starting on a loaded 2-core machine (beside a mutation run
	// and other test files) took several seconds.
	expect(await waitFor(() => existsSync(join(work, 'begun')), 60_000)).toBe(true);
	expect(runFolders()).toHaveLength(1);
	return run;
}

test.each(['SIGINT', 'SIGTERM', 'SIGKILL'] as const)('%s to jest while a test runs: jest ends by the signal and its folder is gone', async (signal) => {
	const run = await startedJest();
	run.child.kill(signal);
	expect(await outcome(run, signal)).toEqual({ ended: signal, left: [] });
}, 120_000);

test('Ctrl-C in a terminal (SIGINT to the whole process group) while a test runs: the folder is gone', async () => {
	const run = await startedJest();
	process.kill(-(run.child.pid as number), 'SIGINT');
	expect(await outcome(run, 'SIGINT')).toEqual({ ended: 'SIGINT', left: [] });
}, 120_000);
