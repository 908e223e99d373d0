/**
 * Long npm runs that are never silent: a heartbeat line every few seconds saying what npm is doing
 * and for how long, with the packages it has fetched read from its `--loglevel=http` log.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_DIR } from './config';
import { cleanEnv, QUIET, spawnGroup, stopGroup } from './process';

export interface NpmProgress {
	/** Package documents (metadata) read. */
	metadata: number;
	/** Packages downloaded. */
	fetched: number;
	/** Packages taken from npm's cache, not downloaded. */
	fromCache: number;
	/** The last package named in the log (name@version, or a package whose metadata was read). */
	last?: string;
	bytes: number;
}

// npm 11 (test/fixtures/npm11/):
//   "npm http fetch GET 200 https://registry.example/@scope%2fname 45ms (cache miss)"     metadata
//   "npm http fetch GET 200 https://registry.example/@scope/name/-/name-1.2.3.tgz 153ms (cache miss)"   a download
//   "npm http cache @scope/name@https://registry.example/@scope/name/-/name-1.2.3.tgz 0ms (cache hit)"  from the cache
// With an empty cache npm logs both a download and a cache line for each package: a tarball
// counts once, as downloaded if it was fetched.
const NPM_HTTP = /^npm http (?:fetch GET 200 (\S+)|cache (?:(?:@[^@\s]+|[^@\s]+)@)?(\S+\.tgz)) /gm;

/** `@scope/name@1.2.3` from a tarball URL `…/@scope/name/-/name-1.2.3.tgz`. */
function tarballName(url: string): string {
	const [path, file] = new URL(url).pathname.split('/-/');
	const name = decodeURIComponent(path.slice(1));
	const base = name.split('/').at(-1) ?? name;
	return `${name}@${file.slice(base.length + 1).replace(/\.tgz$/, '')}`;
}

/** What npm's `--loglevel=http` log says so far: package metadata read, packages downloaded or taken from npm's cache. */
export function fetchProgress(logFile: string): NpmProgress {
	let text = '';
	try {
		text = readFileSync(logFile, 'utf8');
	} catch {
		// Not written yet.
	}
	let metadata = 0;
	let last: string | undefined;
	const downloaded = new Set<string>();
	const cached = new Set<string>();
	for (const [, fetched, fromCache] of text.matchAll(NPM_HTTP)) {
		const url = fetched ?? fromCache;
		if (url.endsWith('.tgz')) (fetched ? downloaded : cached).add(url);
		else metadata += 1;
		last = url.endsWith('.tgz') ? tarballName(url) : decodeURIComponent(new URL(url).pathname.slice(1));
	}
	const fromCache = [...cached].filter((url) => !downloaded.has(url)).length;
	return { metadata, fetched: downloaded.size, fromCache, last, bytes: text.length };
}

const COLUMNS = 80;
const fit = (line: string) => (line.length <= COLUMNS ? line : `${line.slice(0, COLUMNS - 1)}…`);

/**
 * One progress line of an npm run, at most 80 columns: elapsed time, packages in (downloaded,
 * from the cache), the size of node_modules and the last package; once npm has been quiet for
 * over 10 s after its downloads, that it is unpacking and building.
 */
export function progressLine(elapsedMs: number, progress: NpmProgress, megabytes: number, quietMs: number): string {
	const time = `  … ${minutesAndSeconds(elapsedMs)}: `;
	const packages = progress.fetched + progress.fromCache;
	if (packages === 0) return fit(`${time}metadata of ${progress.metadata} packages read, ${megabytes} MB, last: ${progress.last ?? 'starting'}`);
	if (quietMs > 10_000) return fit(`${time}${packages} packages in; npm unpacks and builds (quiet for ${minutesAndSeconds(quietMs)})`);
	return fit(`${time}${progress.fetched} packages downloaded, ${progress.fromCache} from cache, ${megabytes} MB, last: ${progress.last ?? ''}`);
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
		const progress = fetchProgress(logFile);
		if (progress.bytes !== lastLogBytes) quietSince = Date.now();
		lastLogBytes = progress.bytes;
		const line = progressLine(Date.now() - started, progress, size, Date.now() - quietSince);
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
