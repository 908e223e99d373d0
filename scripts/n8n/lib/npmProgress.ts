/**
 * Long npm runs that are never silent: a heartbeat line every few seconds saying what npm is doing
 * and for how long, with the packages it has fetched read from its `--loglevel=http` log.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_DIR } from './config';
import { cleanEnv, QUIET, spawnGroup, stopGroup } from './process';

/** What npm's `--loglevel=http` log says so far: package metadata read, packages downloaded (or taken from npm's cache). */
export function fetchProgress(logFile: string): { metadata: number; fetched: number; fromCache: number; last?: string; bytes: number } {
	let text = '';
	try {
		text = readFileSync(logFile, 'utf8');
	} catch {
		// Not written yet.
	}
	// e.g. "npm http fetch GET 200 https://registry.example/@scope%2fname 45ms (cache miss)" (metadata)
	// and  "npm http fetch GET 200 https://registry.example/@scope/name/-/name-1.2.3.tgz 153ms (cache miss)"
	const fetches = [...text.matchAll(/^npm http fetch GET 200 (\S+) .*$/gm)];
	const tarballs = fetches.filter((match) => match[1].endsWith('.tgz'));
	const fromCache = tarballs.filter((match) => /\(cache (hit|revalidated|stale)\)/.test(match[0])).length;
	const url = fetches.at(-1)?.[1];
	const last = url?.endsWith('.tgz') ? url.split('/-/').at(-1)?.replace(/\.tgz$/, '') : url && decodeURIComponent(url.split('/').slice(3).join('/'));
	return { metadata: fetches.length - tarballs.length, fetched: tarballs.length, fromCache, last, bytes: text.length };
}

/** Waits for `work`, saying every 5 s what it is doing and for how long, so a long step is never silent. */
export async function withHeartbeat<T>(work: Promise<T>, started: number, log: (line: string) => void, what: () => string): Promise<T> {
	const timer = setInterval(() => log(`  … ${minutesAndSeconds(Date.now() - started)}: ${what()}`), 5000);
	try {
		return await work;
	} finally {
		clearInterval(timer);
	}
}

export function minutesAndSeconds(ms: number): string {
	const seconds = Math.round(ms / 1000);
	return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** Size of a folder in MB (`du`, in the background: node_modules holds some 100,000 files). */
function measureMegabytes(dir: string, done: (megabytes: number) => void): void {
	execFile('du', ['-sm', dir], (error, stdout) => done(error ? Number.NaN : Number.parseInt(stdout, 10)));
}

/**
 * Runs one npm command in the n8n folder and says what it is doing at least every 5 s: elapsed
 * time, packages fetched (from the network or npm's cache), the last one, and how much is in
 * node_modules; a line rewritten in place on a terminal, a new line in a log (and under CI).
 */
export async function npmInN8nDir(args: string[], logFile: string, started: number, log: (line: string) => void, env: Record<string, string> = {}): Promise<void> {
	const npm = spawnGroup(`npm ${args[0]}`, 'npm', args, { cwd: N8N_DIR, env: cleanEnv(env), logFile });
	const tty = process.stdout.isTTY === true && !QUIET;
	const modules = join(N8N_DIR, 'node_modules');
	let size = 0;
	let sizedAt = 0;
	let sizing = false;
	let lastLogBytes = -1;
	let quietSince = Date.now();
	const report = (): void => {
		// Measuring node_modules costs a moment: every 15 s is enough to see it grow.
		if (!sizing && Date.now() - sizedAt > 15_000) {
			sizing = true;
			measureMegabytes(modules, (megabytes) => {
				if (Number.isFinite(megabytes)) size = megabytes;
				sizedAt = Date.now();
				sizing = false;
			});
		}
		const { metadata, fetched, fromCache, last, bytes } = fetchProgress(logFile);
		if (bytes !== lastLogBytes) quietSince = Date.now();
		lastLogBytes = bytes;
		const what =
			Date.now() - quietSince > 10_000 && fetched > 0
				? `npm is unpacking and building (sqlite3 compiles from source where no prebuilt binary downloads; no output for ${minutesAndSeconds(Date.now() - quietSince)})`
				: `last: ${last ?? 'starting'}`;
		const line = `  … ${minutesAndSeconds(Date.now() - started)}: metadata of ${metadata} packages read, ${fetched} packages downloaded (${fromCache} of them from npm's cache), ${size} MB in node_modules; ${what}`;
		if (tty) process.stdout.write(`\r${line.slice(0, (process.stdout.columns || 160) - 1).padEnd((process.stdout.columns || 160) - 1)}`);
		else log(line);
	};
	const timer = setInterval(report, tty ? 1000 : 5000);
	let code: number | string;
	try {
		code = await npm.exited;
	} finally {
		clearInterval(timer);
		if (tty) process.stdout.write('\n');
		await stopGroup(npm, 1000);
	}
	if (code !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${code}) in ${N8N_DIR}; see ${logFile}:\n${npm.output().slice(-3000)}`);
}
