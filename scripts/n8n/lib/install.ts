/**
 * Real n8n, installed on first use into the git-ignored `.cache/n8n-<version>/` (2.8.4 unless
 * `N8N_VERSION` names another, e.g. `1.123.x`), with Node 24 in `.cache/node-24/` for the versions
 * that refuse older ones; and our package installed into an n8n user folder the way n8n installs a
 * community package.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { cleanEnv, delay, elapsed, QUIET, removeOnExit, run, spawnGroup, stopGroup } from './process';

/**
 * Which n8n this process drives: `N8N_VERSION` from the environment (an exact version such as
 * `2.8.4`, or a patch range such as `1.123.x`, which is resolved to the newest patch the registry
 * has when it is installed), else 2.8.4, the n8n every check runs on. Each spec has its own folder,
 * `.cache/n8n-<spec>/`.
 */
export const N8N_VERSION = process.env.N8N_VERSION?.trim() || '2.8.4';
if (!/^\d+\.\d+\.(\d+|x)$/.test(N8N_VERSION)) {
	throw new Error(`N8N_VERSION must be an exact version (2.8.4) or a patch range (1.123.x), not "${N8N_VERSION}"`);
}
/** n8n 1.x needs its own install recipe and environment on Node 20 (see {@link ensureN8n}). */
export const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
/** n8n 2.10 and newer refuse Node 20: they are installed and run on Node 24. */
const N8N_NEEDS_NODE_24 = N8N_MAJOR > 2 || (N8N_MAJOR === 2 && Number(N8N_VERSION.split('.')[1]) >= 10);
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const CACHE_DIR = join(REPO_ROOT, '.cache');
export const N8N_DIR = join(CACHE_DIR, `n8n-${N8N_VERSION}`);
export const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
export const PACKAGE_NAME = 'n8n-nodes-multichannel-notification';
export const NODE_TYPE = `${PACKAGE_NAME}.multiChannelNotification`;
export const CREDENTIAL_TYPE = 'multiChannelNotificationApi';

const MARKER = join(N8N_DIR, '.install-complete.json');
const LOCK = `${N8N_DIR}.lock`;
const NODE_24_DIR = join(CACHE_DIR, 'node-24');
/** The npm package holding this platform's `node` binary and headers (what the `node` package's install script would fetch). */
const NODE_24_PACKAGE = `node-${process.platform}-${process.arch}`;
const node24Home = (dir = NODE_24_DIR): string => join(dir, 'node_modules', NODE_24_PACKAGE);
/** Whether that package is complete in `home`: the binary, and the headers for native builds. */
const hasNode24 = (home: string): boolean => existsSync(join(home, 'bin', 'node')) && existsSync(join(home, 'include', 'node', 'node.h'));

/**
 * Node 24 from the npm registry into `.cache/node-24/` (189 MB; 15 to 21 s here, once), without scripts; returns
 * its package folder. The install goes into a private folder that is renamed into place when
 * complete, so two engineers (or two checks) installing at once never see a half-written one.
 */
async function ensureNode24(log: (line: string) => void): Promise<string> {
	const home = node24Home();
	if (hasNode24(home)) return home;
	const started = Date.now();
	const staging = `${NODE_24_DIR}.tmp-${process.pid}`;
	// Stopped half-way (Ctrl-C, SIGTERM), the half-written folder goes too.
	removeOnExit(staging);
	const platformPackage = `${NODE_24_PACKAGE}@24`;
	log(`Installing Node 24 (${platformPackage} from the npm registry) into ${NODE_24_DIR}…`);
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging, { recursive: true });
	try {
		// Its own package.json: npm reads no .npmrc of the repository from here.
		writeFileSync(join(staging, 'package.json'), JSON.stringify({ private: true }));
		const install = run('npm install node', 'npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', platformPackage], { cwd: staging });
		await withHeartbeat(install, started, log, () => 'downloading and unpacking Node 24 (about 190 MB)');
		if (!hasNode24(node24Home(staging))) throw new Error(`${platformPackage} installed without bin/node or its headers`);
		if (!hasNode24(home)) {
			rmSync(NODE_24_DIR, { recursive: true, force: true });
			renameSync(staging, NODE_24_DIR);
		}
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
	if (!hasNode24(home)) throw new Error(`Node 24 is missing from ${NODE_24_DIR} after its install`);
	const { version } = JSON.parse(readFileSync(join(home, 'package.json'), 'utf8')) as { version: string };
	log(`Node ${version} ready in ${elapsed(started)}.`);
	return home;
}

/**
 * The `node` that runs this n8n (its processes and CLI calls): the machine's, or Node 24 from
 * `.cache/node-24/` for the versions that need it (installed with n8n by {@link ensureN8n}).
 */
export function n8nNodeBinary(): string {
	if (!N8N_NEEDS_NODE_24) return process.execPath;
	const home = node24Home();
	if (!hasNode24(home)) throw new Error(`n8n ${N8N_VERSION} runs on Node 24, which is missing from .cache/: run scripts/n8n/install-n8n.ts`);
	return join(home, 'bin', 'node');
}

/** Whether the marker the install writes last is there, for this spec (markers written before specs existed only have `version`). */
function installed(): boolean {
	if (!existsSync(MARKER) || !existsSync(N8N_BIN)) return false;
	const marker = JSON.parse(readFileSync(MARKER, 'utf8')) as { spec?: string; version?: string };
	return (marker.spec ?? marker.version) === N8N_VERSION;
}

/** The exact n8n version in `.cache/n8n-<spec>/` (`1.123.81` for `1.123.x`), read from its package.json. */
export function installedN8nVersion(): string {
	return (JSON.parse(readFileSync(join(N8N_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8')) as { version: string }).version;
}

/** A patch range becomes the newest version the registry has in it (one `npm view`). */
async function resolveVersion(spec: string): Promise<string> {
	if (!spec.endsWith('.x')) return spec;
	const { output } = await run(`npm view n8n@${spec}`, 'npm', ['view', `n8n@${spec}`, 'version', '--json'], { cwd: CACHE_DIR });
	// The output may start with npm's warnings (stderr): the JSON starts on the first line opening with [ or ".
	const json = output.slice(output.search(/^\s*[["]/m));
	const parsed = JSON.parse(json) as string | string[];
	const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((version) => /^\d+\.\d+\.\d+$/.test(version));
	if (versions.length === 0) throw new Error(`The registry has no n8n ${spec}`);
	const patch = (version: string): number => Number(version.split('.')[2]);
	return versions.reduce((newest, version) => (patch(version) > patch(newest) ? version : newest));
}

function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** One installer at a time: a lock folder holding the installer's pid; a dead owner's lock is taken over. */
async function withLock<T>(work: () => Promise<T>, log: (line: string) => void): Promise<T> {
	mkdirSync(CACHE_DIR, { recursive: true });
	let waitingSaid = false;
	const waitingSince = Date.now();
	let waitingLine = 0;
	for (;;) {
		try {
			mkdirSync(LOCK);
			writeFileSync(join(LOCK, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const owner = Number(existsSync(join(LOCK, 'pid')) ? readFileSync(join(LOCK, 'pid'), 'utf8') : '0');
			if (owner > 0 && pidAlive(owner)) {
				if (!waitingSaid) log(`Another process (pid ${owner}) is installing n8n ${N8N_VERSION}; waiting for it…`);
				else if (Date.now() - waitingLine >= 8000) log(`  … still waiting for pid ${owner}, ${minutesAndSeconds(Date.now() - waitingSince)}`);
				if (!waitingSaid || Date.now() - waitingLine >= 8000) waitingLine = Date.now();
				waitingSaid = true;
				await delay(2000);
				continue;
			}
			rmSync(LOCK, { recursive: true, force: true });
		}
	}
	try {
		return await work();
	} finally {
		rmSync(LOCK, { recursive: true, force: true });
	}
}

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
async function withHeartbeat<T>(work: Promise<T>, started: number, log: (line: string) => void, what: () => string): Promise<T> {
	const timer = setInterval(() => log(`  … ${minutesAndSeconds(Date.now() - started)}: ${what()}`), 5000);
	try {
		return await work;
	} finally {
		clearInterval(timer);
	}
}

function minutesAndSeconds(ms: number): string {
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
async function npmInN8nDir(args: string[], logFile: string, started: number, log: (line: string) => void, env: Record<string, string> = {}): Promise<void> {
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

/**
 * Makes sure `.cache/n8n-<spec>/` holds a complete n8n install and returns the path of its
 * `n8n` executable. A marker file is written last, so an interrupted install is started over.
 *
 * n8n 2.x: a plain `npm install` (sqlite3 builds from source). n8n 1.x: `npm install
 * --ignore-scripts` (isolated-vm does not build on Node 20, and 1.x runs without it with the
 * legacy expression engine), then `npm rebuild sqlite3`. n8n 2.10 and newer: the same on Node
 * 24 (a Kafka client's install script would download a binary; isolated-vm ships prebuilds).
 * All override n8n-nodes-base's xlsx, which it asks for by URL and which this registry-only
 * network cannot fetch.
 */
export async function ensureN8n(log: (line: string) => void = console.log): Promise<string> {
	// Node 24 first, also when n8n is cached but .cache/node-24/ is not.
	const node24 = N8N_NEEDS_NODE_24 ? await ensureNode24(log) : undefined;
	if (installed()) return N8N_BIN;
	return await withLock(async () => {
		if (installed()) return N8N_BIN;
		const started = Date.now();
		mkdirSync(N8N_DIR, { recursive: true });
		const version = await resolveVersion(N8N_VERSION);
		log(
			`Installing n8n ${version}${version === N8N_VERSION ? '' : ` (newest ${N8N_VERSION})`} into ${N8N_DIR}: once, about 2.4 GB on disk, ` +
				'some 1,500 packages from your npm registry. How long it takes depends on your network and on what npm has cached; ' +
				'progress follows every few seconds.',
		);
		// A previous attempt that did not finish may have left a broken tree behind.
		rmSync(join(N8N_DIR, 'node_modules'), { recursive: true, force: true });
		rmSync(join(N8N_DIR, 'package-lock.json'), { force: true });
		const packageJson = { private: true, dependencies: { n8n: version }, overrides: { xlsx: '0.18.5' } };
		writeFileSync(join(N8N_DIR, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
		const logFile = join(N8N_DIR, 'install.log');
		writeFileSync(logFile, '');
		const install = ['install', '--no-audit', '--no-fund', '--loglevel=http'];
		if (N8N_MAJOR < 2 || node24) {
			// npm and node-gyp on Node 24: its bin/ first on PATH, its headers for native builds.
			const env: Record<string, string> = node24 ? { PATH: `${node24}/bin:${process.env.PATH ?? ''}`, npm_config_nodedir: node24 } : {};
			await npmInN8nDir([...install, '--ignore-scripts'], logFile, started, log, env);
			await npmInN8nDir(['rebuild', 'sqlite3'], logFile, started, log, env);
		} else {
			await npmInN8nDir(install, logFile, started, log);
		}
		if (!existsSync(N8N_BIN)) throw new Error(`npm finished but ${N8N_BIN} is missing; see ${logFile}`);
		// What was asked for (`1.123.x`), the exact version installed, and when.
		const marker = { spec: N8N_VERSION, version: installedN8nVersion(), seconds: Math.round((Date.now() - started) / 1000), at: new Date().toISOString() };
		writeFileSync(MARKER, `${JSON.stringify(marker, null, 2)}\n`);
		log(`n8n ${marker.version} installed in ${marker.seconds} s.`);
		return N8N_BIN;
	}, log);
}

/** A fresh folder outside the repository, so module resolution cannot find the repo's node_modules. */
export function makeTempDir(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), `mcn-e2e-${prefix}-`));
	removeOnExit(dir);
	return dir;
}

/** `npm pack` of the built package (dist/ must be current); returns the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
	if (!existsSync(join(REPO_ROOT, 'dist', 'nodes'))) throw new Error('dist/ is missing: run `npm run build` first');
	const { output } = await run('npm pack', 'npm', ['pack', '--json', '--pack-destination', destination], { cwd: REPO_ROOT });
	const [packed] = JSON.parse(output.slice(output.indexOf('['))) as Array<{ filename: string }>;
	return join(destination, packed.filename);
}

/**
 * Installs the tarball into `<userFolder>/.n8n/nodes` the way n8n installs a community package
 * (CommunityPackagesService.downloadPackage, the same in 2.8.4 and 1.123.x): unpack it into `node_modules/<name>`, drop
 * its dev, peer and optional dependencies from its package.json, `npm install` what is left
 * there without scripts, and record it in the folder's package.json. Returns the package folder.
 */
export async function installPackageInto(userFolder: string, tarball: string): Promise<string> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const packageDir = join(nodesDir, 'node_modules', PACKAGE_NAME);
	const manifestPath = join(nodesDir, 'package.json');
	mkdirSync(nodesDir, { recursive: true });
	if (!existsSync(manifestPath)) writeFileSync(manifestPath, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	await run('unpack package', 'tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	const packageJsonPath = join(packageDir, 'package.json');
	const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as Record<string, unknown>;
	delete packageJson.devDependencies;
	delete packageJson.peerDependencies;
	delete packageJson.optionalDependencies;
	writeFileSync(packageJsonPath, JSON.stringify(packageJson, null, 2));
	const install = ['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'];
	await run('npm install (package)', 'npm', install, { cwd: packageDir });
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string> };
	manifest.dependencies = { ...manifest.dependencies, [PACKAGE_NAME]: String(packageJson.version) };
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	if (!statSync(join(packageDir, 'dist')).isDirectory()) throw new Error(`${PACKAGE_NAME} was not unpacked`);
	return packageDir;
}
