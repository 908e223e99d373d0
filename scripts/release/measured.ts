/**
 * Which code a report's figures were measured on. BENCHMARKS.md and RELIABILITY.md each name the
 * commit and the fingerprint of the product code (nodes/ and credentials/, as the working tree
 * held them during the run) and keep the run's results beside them (BENCHMARKS.json: every figure
 * BENCHMARKS.md shows, the raw results staying in .cache/bench/; RELIABILITY.json: the raw results),
 * so every figure traces to a run. A figure whose fingerprint differs from the
 * checkout's was measured on other code: `npm test` reports it, the release step refuses it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');
const PRODUCT_FOLDERS = ['nodes', 'credentials'];

export interface Measured {
	commit: string;
	/** sha256 (first 12 hex) over the paths and contents of every file in nodes/ and credentials/. */
	code: string;
	date: string;
}

export function codeFingerprint(root = REPO_ROOT): string {
	const hash = createHash('sha256');
	const files = PRODUCT_FOLDERS.filter((folder) => existsSync(join(root, folder)))
		.flatMap((folder) => readdirSync(join(root, folder), { recursive: true, withFileTypes: true }))
		.filter((entry) => !entry.isDirectory())
		.map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
		.sort();
	for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
	return hash.digest('hex').slice(0, 12);
}

/** Runs git in the repository: its output, trimmed. */
export const git = (args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();

export function measuredNow(): Measured {
	const dirty = git(['status', '--porcelain', '--', ...PRODUCT_FOLDERS]) !== '';
	return {
		commit: `${git(['rev-parse', '--short', 'HEAD'])}${dirty ? ' (with uncommitted changes to the product code)' : ''}`,
		code: codeFingerprint(),
		date: new Date().toISOString(),
	};
}

/** The line each report carries under its title, naming what it measured and the file (`what` it holds) beside it. */
export function measuredLine(measured: Measured, file: string, what = 'raw results'): string {
	return `Measured on commit ${measured.commit}, product code fingerprint \`${measured.code}\` (nodes/ and credentials/), ${measured.date.slice(0, 10)}; ${what}: [${file}](${file}).`;
}

export interface FigureState {
	report: string;
	problem?: string;
	stale?: string;
}

/**
 * Each report's state against the checkout: a `problem` (no raw results, or a report that does
 * not name the run its raw results hold) or `stale` (measured on other product code).
 */
export function figureStates(root = REPO_ROOT): FigureState[] {
	const now = codeFingerprint(root);
	const reports = [
		{ report: 'BENCHMARKS.md', raw: 'BENCHMARKS.json', remake: 'npm run bench' },
		{ report: 'RELIABILITY.md', raw: 'RELIABILITY.json', remake: 'npm run reliability' },
	];
	return reports.map(({ report, raw, remake }) => {
		const rawPath = join(root, raw);
		if (!existsSync(rawPath)) return { report, problem: `${raw} is missing: ${report}'s figures trace to no run (${remake} writes both)` };
		const { measured } = JSON.parse(readFileSync(rawPath, 'utf8')) as { measured?: Measured };
		if (!measured?.code) return { report, problem: `${raw} names no measured code` };
		if (!readFileSync(join(root, report), 'utf8').includes(`\`${measured.code}\``)) {
			return { report, problem: `${report} does not name the fingerprint ${measured.code} that ${raw} was measured on` };
		}
		if (measured.code !== now) {
			return { report, stale: `${report} was measured on product code ${measured.code} (commit ${measured.commit}); the checkout's is ${now}: re-run ${remake}` };
		}
		return { report };
	});
}
