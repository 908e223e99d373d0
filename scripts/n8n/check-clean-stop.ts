/**
 * Nothing outlives a stop and nothing is left behind. Runs the package's commands the way a user
 * does, each through `npm run` with TMPDIR pointed at a fresh folder:
 *
 *   - `npm run demo:fast` and `npm run demo` to their end;
 *   - `npm run sandbox`, then SIGINT to the top `npm` alone (what an IDE's stop button sends);
 *   - `npm start`, then SIGTERM to the top `npm` alone once the editor is up (a process manager);
 *   - `npm run demo`, its top `npm` killed outright while the examples run (their parent dies).
 *
 * After each: no process of the run is left and the temp folder is empty but for the tools'
 * shared caches (lib/leftovers.ts says how both are told). Needs n8n in .cache/
 * (`npx tsx scripts/n8n/install-n8n.ts`); `npm run` builds the package. test/package/clean-stop.test.ts
 * runs the sandbox case in `npm test`, which needs no n8n.
 *
 *   npx tsx scripts/n8n/check-clean-stop.ts [demo:fast|demo|sandbox|start|demo-killed]...
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { REPO_ROOT } from './lib/config';
import { commandLine, leftIn, RUN_TAG_ENV, Tracker, waitFor } from './lib/leftovers';
import { cleanEnv, delay, installCleanup, spawnGroup, tail } from './lib/process';
import type { Group } from './lib/process';

interface Case {
	name: string;
	args: string[];
	/** Without: the command runs to its end and must exit 0. With: once `ready` is in the output, `signal` goes to npm alone. */
	stop?: { ready: string; signal: NodeJS.Signals; afterMs?: number };
}

const CASES: Case[] = [
	{ name: 'demo:fast', args: ['run', 'demo:fast'] },
	{ name: 'demo', args: ['run', 'demo'] },
	{ name: 'sandbox', args: ['run', 'sandbox', '--', '--port', '0'], stop: { ready: 'Sandbox listening on', signal: 'SIGINT' } },
	{ name: 'start', args: ['start'], stop: { ready: 'Press Ctrl-C', signal: 'SIGTERM' } },
	{ name: 'demo-killed', args: ['run', 'demo'], stop: { ready: '✓ owner account and login', signal: 'SIGKILL', afterMs: 1500 } },
];
/** Time a stop may take: n8n's graceful shutdown, then the scripts' own grace before SIGKILL. */
const STOP_DEADLINE_MS = 30_000;
const RUN_DEADLINE_MS = 10 * 60_000;

async function runCase(test: Case): Promise<string[]> {
	const temp = mkdtempSync(join(tmpdir(), 'mcn-clean-stop-'));
	const tag = randomUUID();
	const problems: string[] = [];
	const started = Date.now();
	let npm: Group | undefined;
	let tracker: Tracker | undefined;
	try {
		npm = spawnGroup(`npm ${test.name}`, 'npm', test.args, { cwd: REPO_ROOT, env: cleanEnv({ TMPDIR: temp, [RUN_TAG_ENV]: tag, CI: 'true' }) });
		tracker = new Tracker(npm.pid, tag);
		const group = npm;
		let exit: number | string | undefined;
		void group.exited.then((code) => (exit = code));
		if (test.stop) {
			const { ready, signal, afterMs = 0 } = test.stop;
			if (!(await waitFor(() => group.output().includes(ready) || exit !== undefined, RUN_DEADLINE_MS)) || exit !== undefined) {
				return [`never printed "${ready}" (exit ${exit ?? 'none'}):\n${tail(group.output(), 20)}`];
			}
			await delay(afterMs);
			tracker.look();
			process.kill(group.pid, signal);
			console.log(`  ${signal} to npm (pid ${group.pid}) alone, ${((Date.now() - started) / 1000).toFixed(1)} s in; ${tracker.seen.size} processes tracked`);
		} else {
			if (!(await waitFor(() => exit !== undefined, RUN_DEADLINE_MS))) problems.push('did not finish in time');
			else if (exit !== 0) problems.push(`exited ${exit}:\n${tail(group.output(), 20)}`);
			else console.log(`  finished (exit 0) in ${((Date.now() - started) / 1000).toFixed(1)} s; ${tracker.seen.size} processes tracked`);
		}
		const stopAt = Date.now();
		const tracked = tracker;
		const allGone = await waitFor(() => tracked.alive().length === 0, STOP_DEADLINE_MS);
		if (!allGone) problems.push(`processes left after ${STOP_DEADLINE_MS / 1000} s:\n${tracked.alive().map((pid) => `    ${pid} ${commandLine(pid)}`).join('\n')}`);
		else if (test.stop) console.log(`  every process gone ${((Date.now() - stopAt) / 1000).toFixed(1)} s after the signal`);
		const left = leftIn(temp);
		if (left.length > 0) problems.push(`left in the temp folder: ${left.join(', ')}`);
		return problems;
	} finally {
		tracker?.stop();
		// Whatever the verdict, nothing of this case may linger into the next one.
		for (const pid of tracker?.alive() ?? []) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// Already gone.
			}
		}
		rmSync(temp, { recursive: true, force: true });
	}
}

async function main(): Promise<number> {
	installCleanup();
	const names = process.argv.slice(2);
	const cases = names.length ? CASES.filter((test) => names.includes(test.name)) : CASES;
	let failed = 0;
	for (const test of cases) {
		console.log(`\n${test.name}: npm ${test.args.join(' ')}${test.stop ? `, then ${test.stop.signal} to npm alone` : ''}`);
		const problems = await runCase(test);
		if (problems.length > 0) failed++;
		console.log(problems.length ? `✘ ${test.name}\n  ${problems.join('\n  ')}` : `✔ ${test.name}: no process, no temp file left`);
	}
	console.log(failed ? `\n${failed} of ${cases.length} failed` : `\nAll ${cases.length} passed.`);
	return failed ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
		process.exit(1);
	},
);
