/**
 * Nothing outlives a stop and nothing is left behind. Runs the package's commands the way a user
 * does, each through `npm run` with TMPDIR pointed at a fresh folder:
 *
 *   - `npm run demo:fast` and `npm run demo` to their end;
 *   - `npm run sandbox`, then SIGINT to the top `npm` alone (what an IDE's stop button sends);
 *   - `npm start`, then SIGTERM to the top `npm` alone once the editor is up (a process manager);
 *   - `npm run demo`, its top `npm` killed outright while the examples run (their parent dies).
 *
 * After each: no process of the run is left (every process started is tracked as it appears,
 * also those that do not inherit the environment, such as n8n's task runner; and every process
 * carrying the run's tag in its environment counts), and the temp folder is empty but for two
 * caches of the tools, each shared by every run and not a run's leftover: tsx's compile cache
 * (`tsx-<uid>/`) and gulp's list of V8 flags (`.v8flags-*.json`, there when ~/.cache is not
 * writable). Needs n8n in
 * .cache/ (`npx tsx scripts/n8n/install-n8n.ts`) and a built package; `npm run` builds it too.
 *
 *   npx tsx scripts/n8n/check-clean-stop.ts [demo:fast|demo|sandbox|start|demo-killed]...
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { REPO_ROOT } from './lib/install';
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
/** The tools' own caches (see above). */
const TOOL_CACHES = /^(tsx-\d+|\.v8flags-[\w.-]+\.json)$/;

/** pid → [parent pid, start time] for every process, from /proc. */
function processTable(): Map<number, [number, string]> {
	const table = new Map<number, [number, string]>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			table.set(Number(entry), [Number(fields[1]), fields[19]]);
		} catch {
			// Gone meanwhile.
		}
	}
	return table;
}

function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 160);
	} catch {
		return '?';
	}
}

/** Every process that descends from `root`, and every one tagged with `tag`, as pid → start time. */
class Tracker {
	readonly seen = new Map<number, string>();
	private readonly timer: NodeJS.Timeout;

	constructor(private readonly root: number, private readonly tag: string) {
		this.timer = setInterval(() => this.look(), 200);
	}

	look(): void {
		const table = processTable();
		const ours = new Set<number>([this.root, ...this.seen.keys()]);
		for (const [pid, [parent, started]] of table) {
			if (ours.has(parent) && !this.seen.has(pid)) this.seen.set(pid, started);
		}
		for (const pid of table.keys()) {
			if (this.seen.has(pid) || pid === process.pid) continue;
			try {
				if (readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`MCN_RUN_TAG=${this.tag}`)) this.seen.set(pid, table.get(pid)?.[1] ?? '');
			} catch {
				// Gone, or not ours to read.
			}
		}
	}

	/** The tracked processes still running (same pid and start time). */
	alive(): number[] {
		const table = processTable();
		return [...this.seen].filter(([pid, started]) => table.get(pid)?.[1] === started && !/^Z/.test(readState(pid))).map(([pid]) => pid);
	}

	stop(): void {
		clearInterval(this.timer);
	}
}

function readState(pid: number): string {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
	} catch {
		return 'Z';
	}
}

async function waitFor(what: () => boolean, ms: number): Promise<boolean> {
	const deadline = Date.now() + ms;
	while (!what()) {
		if (Date.now() > deadline) return false;
		await delay(250);
	}
	return true;
}

async function runCase(test: Case): Promise<string[]> {
	const temp = mkdtempSync(join(tmpdir(), 'mcn-clean-stop-'));
	const tag = randomUUID();
	const problems: string[] = [];
	const started = Date.now();
	let npm: Group | undefined;
	let tracker: Tracker | undefined;
	try {
		npm = spawnGroup(`npm ${test.name}`, 'npm', test.args, { cwd: REPO_ROOT, env: cleanEnv({ TMPDIR: temp, MCN_RUN_TAG: tag, CI: 'true' }) });
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
		const left = readdirSync(temp).filter((name) => !TOOL_CACHES.test(name));
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
