/**
 * n8n's package scanner, as n8n runs it before it verifies a community package:
 * `@n8n/scan-community-package` (pinned below) installed once into the git-ignored `.cache/`,
 * its `analyzePackage(dir, patterns)` called on
 *
 *   - the source: `package.json` and `{nodes,credentials}/**\/*.{js,ts,json}` (SOURCE_FILE_PATTERNS);
 *   - the packed tarball, unpacked: `**\/*.js` and `package.json`.
 *
 * The scanner passes a package with warnings; this check fails on any finding, warnings
 * included (the same files are linted a second time with the scanner's own exported config to
 * see them). The scanner's provenance and GitHub-source steps need a published package and are
 * covered by the publish workflow instead (see RELEASING.md).
 *
 *   npx tsx scripts/release/scan.ts            (npm run scan; after `npm run build`)
 *   npx tsx scripts/release/scan.ts --source   (only the source leg: no build needed)
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { elapsed, installCleanup, makeTempDir, run } from '../n8n/lib/process';
import { packAndUnpack } from './check-pack';
import { REPO_ROOT } from './repository';

const SCANNER_VERSION = '0.32.0';
const SCANNER_DIR = join(REPO_ROOT, '.cache', `scan-community-package-${SCANNER_VERSION}`);
const SCANNER_PACKAGE = join(SCANNER_DIR, 'node_modules', '@n8n', 'scan-community-package');
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

interface LintMessage {
	ruleId: string | null;
	severity: number;
	message: string;
	line: number;
	column: number;
}

interface ScannerModule {
	analyzePackage(dir: string, patterns: string[]): Promise<{ passed: boolean; message?: string; details?: string }>;
	buildScanConfig(): Promise<unknown>;
	SOURCE_FILE_PATTERNS: string[];
}

/**
 * Installs the scanner into `.cache/scan-community-package-<version>/` unless it is there. It is
 * installed into a folder of its own and renamed into place when complete, so an interrupted or
 * concurrent install never leaves a half-installed scanner behind.
 */
async function ensureScanner(): Promise<string> {
	const entry = join(SCANNER_PACKAGE, 'scanner', 'scanner.mjs');
	if (existsSync(entry)) return entry;
	const started = Date.now();
	mkdirSync(join(REPO_ROOT, '.cache'), { recursive: true });
	const staging = `${SCANNER_DIR}.tmp-${process.pid}`;
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging);
	writeFileSync(join(staging, 'package.json'), JSON.stringify({ private: true }, null, 2));
	console.log(`Installing @n8n/scan-community-package@${SCANNER_VERSION} into ${SCANNER_DIR} (once, about 30 s)…`);
	try {
		// --ignore-scripts: it pulls eslint-plugin-n8n-nodes-base, whose preinstall only works under pnpm.
		await run(
			'npm install scanner',
			'npm',
			['install', `@n8n/scan-community-package@${SCANNER_VERSION}`, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
			{ cwd: staging },
		);
		try {
			renameSync(staging, SCANNER_DIR);
		} catch (error) {
			// Someone else finished first: use theirs.
			if (!existsSync(entry)) throw error;
		}
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
	if (!existsSync(entry)) throw new Error(`The scanner was installed but ${entry} is missing`);
	console.log(`Scanner installed in ${elapsed(started)}.`);
	return entry;
}

/** The same lint as `analyzePackage` (same config, files and options), keeping warnings too. */
async function allFindings(scanner: ScannerModule, dir: string, patterns: string[]): Promise<Array<LintMessage & { file: string }>> {
	const requireFromScanner = createRequire(join(SCANNER_PACKAGE, 'package.json'));
	const { ESLint } = (await import(pathToFileURL(requireFromScanner.resolve('eslint')).href)) as {
		ESLint: new (options: Record<string, unknown>) => { lintFiles(files: string[]): Promise<Array<{ filePath: string; messages: LintMessage[] }>> };
	};
	const glob = requireFromScanner('fast-glob') as { sync(patterns: string[], options: Record<string, unknown>): string[] };
	const eslint = new ESLint({ cwd: dir, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: await scanner.buildScanConfig() });
	const files = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	if (files.length === 0) throw new Error(`No files match ${patterns.join(', ')} in ${dir}`);
	const results = await eslint.lintFiles(files);
	return results.flatMap((result) => result.messages.map((message) => ({ ...message, file: result.filePath.slice(dir.length + 1) })));
}

async function scan(scanner: ScannerModule, label: string, dir: string, patterns: string[]): Promise<boolean> {
	const started = Date.now();
	const verdict = await scanner.analyzePackage(dir, patterns);
	const findings = await allFindings(scanner, dir, patterns);
	const ok = verdict.passed && findings.length === 0;
	console.log(`${ok ? '✔' : '✘'} ${label}: analyzePackage ${verdict.passed ? 'passed' : `failed (${verdict.message})`}, ${findings.length} finding(s) [${patterns.join(' + ')}], ${elapsed(started)}`);
	for (const finding of findings) {
		console.log(`    ${finding.file}:${finding.line}:${finding.column}  ${finding.severity === 2 ? 'error' : 'warning'}  ${finding.message}  (${finding.ruleId ?? 'parse'})`);
	}
	if (!verdict.passed && verdict.details) console.log(verdict.details);
	return ok;
}

/**
 * Loads the scanner. It makes a temporary folder as it loads (the `tmp` package's `dirSync`) and
 * that package removes it only when the process opts in to its clean-up, which the scanner does
 * not: every scan left an empty `tmp-<pid>-<random>` folder in the temp folder. So it is loaded
 * with TMPDIR pointing into a folder of ours, removed when this process exits.
 */
async function loadScanner(entry: string): Promise<ScannerModule> {
	const own = makeTempDir('scan');
	const before = process.env.TMPDIR;
	process.env.TMPDIR = own;
	try {
		return (await import(pathToFileURL(entry).href)) as ScannerModule;
	} finally {
		if (before === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = before;
	}
}

async function main(): Promise<number> {
	installCleanup();
	const started = Date.now();
	const sourceOnly = process.argv.includes('--source');
	console.log(`=== n8n package scanner (@n8n/scan-community-package ${SCANNER_VERSION}) ===`);
	const entry = await ensureScanner();
	const scanner = await loadScanner(entry);
	let ok = await scan(scanner, 'source', REPO_ROOT, scanner.SOURCE_FILE_PATTERNS);

	if (!sourceOnly) {
		if (!existsSync(join(REPO_ROOT, 'dist', 'nodes'))) throw new Error('dist/ is missing: run `npm run build` first');
		const { filename, unpacked } = await packAndUnpack();
		ok = (await scan(scanner, `tarball ${filename}`, unpacked, TARBALL_PATTERNS)) && ok;
	}
	console.log(`\n${ok ? 'PASS' : 'FAIL'} — scanner, ${elapsed(started)}`);
	return ok ? 0 : 1;
}

if (require.main === module) {
	main().then(
		(code) => process.exit(code),
		(error: unknown) => {
			console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
			process.exitCode = 1;
		},
	);
}
