/**
 * What a run leaves behind: every process it started, followed as they appear (also those that do
 * not inherit its environment, such as n8n's task runner, and those carrying the run's tag in
 * their environment, wherever they were reparented), and the files in its temp folder. Linux
 * only (/proc). Used by scripts/n8n/check-clean-stop.ts and test/package/clean-stop.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';

import { delay } from './process';

/**
 * Caches of the tools in the temp folder, each shared by every run and not a run's leftover:
 * tsx's compile cache (`tsx-<uid>/`) and gulp's list of V8 flags (`.v8flags-*.json`, written
 * there when ~/.cache is not writable).
 */
export const TOOL_CACHES = /^(tsx-\d+|\.v8flags-[\w.-]+\.json)$/;

/** The variable that tags every process of a run, inherited by whatever it starts. */
export const RUN_TAG_ENV = 'MCN_RUN_TAG';

/** The files and folders in `dir` a run left, the tools' caches aside. */
export function leftIn(dir: string): string[] {
	return readdirSync(dir).filter((name) => !TOOL_CACHES.test(name));
}

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

export function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 160);
	} catch {
		return '?';
	}
}

/** Every process that descends from `root`, and every one tagged with `tag`, as pid → start time. */
export class Tracker {
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
				if (readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`${RUN_TAG_ENV}=${this.tag}`)) this.seen.set(pid, table.get(pid)?.[1] ?? '');
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

export async function waitFor(what: () => boolean, ms: number): Promise<boolean> {
	const deadline = Date.now() + ms;
	while (!what()) {
		if (Date.now() > deadline) return false;
		await delay(250);
	}
	return true;
}

