/**
 * Real n8n, installed on first use into the git-ignored `.cache/`, and our package installed into
 * an n8n user folder the way n8n installs a community package.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { cleanEnv, delay, elapsed, removeOnExit, run, spawnGroup, stopGroup } from './process';

export const N8N_VERSION = '2.8.4';
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const CACHE_DIR = join(REPO_ROOT, '.cache');
export const N8N_DIR = join(CACHE_DIR, `n8n-${N8N_VERSION}`);
export const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
export const PACKAGE_NAME = 'n8n-nodes-multichannel-notification';
export const NODE_TYPE = `${PACKAGE_NAME}.multiChannelNotification`;
export const CREDENTIAL_TYPE = 'multiChannelNotificationApi';

const MARKER = join(N8N_DIR, '.install-complete.json');
const LOCK = `${N8N_DIR}.lock`;

// n8n-nodes-base asks for xlsx by URL, which this registry-only network cannot fetch.
const N8N_PACKAGE_JSON = { private: true, dependencies: { n8n: N8N_VERSION }, overrides: { xlsx: '0.18.5' } };

function installed(): boolean {
	if (!existsSync(MARKER) || !existsSync(N8N_BIN)) return false;
	const marker = JSON.parse(readFileSync(MARKER, 'utf8')) as { version?: string };
	return marker.version === N8N_VERSION;
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
	for (;;) {
		try {
			mkdirSync(LOCK);
			writeFileSync(join(LOCK, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const owner = Number(existsSync(join(LOCK, 'pid')) ? readFileSync(join(LOCK, 'pid'), 'utf8') : '0');
			if (owner > 0 && pidAlive(owner)) {
				if (!waitingSaid) log(`Another process (pid ${owner}) is installing n8n; waiting for it…`);
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

function countEntries(dir: string): number {
	try {
		return readdirSync(dir).length;
	} catch {
		return 0;
	}
}

/**
 * Makes sure `.cache/n8n-<version>/` holds a complete n8n install and returns the path of its
 * `n8n` executable. A marker file is written last, so an interrupted install is started over.
 */
export async function ensureN8n(log: (line: string) => void = console.log): Promise<string> {
	if (installed()) return N8N_BIN;
	return await withLock(async () => {
		if (installed()) return N8N_BIN;
		const started = Date.now();
		log(`Installing n8n ${N8N_VERSION} into ${N8N_DIR} (first run only: 4–8 minutes, 2.3 GB)…`);
		// A previous attempt that did not finish may have left a broken tree behind.
		rmSync(join(N8N_DIR, 'node_modules'), { recursive: true, force: true });
		rmSync(join(N8N_DIR, 'package-lock.json'), { force: true });
		mkdirSync(N8N_DIR, { recursive: true });
		writeFileSync(join(N8N_DIR, 'package.json'), `${JSON.stringify(N8N_PACKAGE_JSON, null, 2)}\n`);
		const logFile = join(N8N_DIR, 'install.log');
		writeFileSync(logFile, '');
		const npm = spawnGroup('npm install n8n', 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=http'], {
			cwd: N8N_DIR,
			env: cleanEnv(),
			logFile,
		});
		const tty = process.stdout.isTTY === true && process.env.CI !== 'true';
		const timer = setInterval(() => {
			const line = `  … ${elapsed(started)}, ${countEntries(join(N8N_DIR, 'node_modules'))} packages in node_modules (log: ${logFile})`;
			if (tty) process.stdout.write(`\r${line}   `);
			else log(line);
		}, tty ? 1000 : 15_000);
		let code: number | string;
		try {
			code = await npm.exited;
		} finally {
			clearInterval(timer);
			if (tty) process.stdout.write('\n');
			await stopGroup(npm, 1000);
		}
		if (code !== 0 || !existsSync(N8N_BIN)) {
			throw new Error(`Installing n8n failed (npm exited with ${code}); see ${logFile}:\n${npm.output().slice(-3000)}`);
		}
		const seconds = Math.round((Date.now() - started) / 1000);
		writeFileSync(MARKER, `${JSON.stringify({ version: N8N_VERSION, seconds, at: new Date().toISOString() }, null, 2)}\n`);
		log(`n8n ${N8N_VERSION} installed in ${seconds} s.`);
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
	const { output } = await run('npm pack', 'npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: REPO_ROOT,
	});
	const json = output.slice(output.indexOf('['));
	const [packed] = JSON.parse(json) as Array<{ filename: string }>;
	return join(destination, packed.filename);
}

/**
 * Installs the tarball into `<userFolder>/.n8n/nodes` the way n8n 2.8.4 installs a community
 * package (CommunityPackagesService.downloadPackage): unpack it into `node_modules/<name>`, drop
 * its dev, peer and optional dependencies from its package.json, `npm install` what is left
 * there without scripts, and record it in the folder's package.json. Returns the package folder.
 */
export async function installPackageInto(userFolder: string, tarball: string): Promise<string> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const packageDir = join(nodesDir, 'node_modules', PACKAGE_NAME);
	const manifestPath = join(nodesDir, 'package.json');
	mkdirSync(nodesDir, { recursive: true });
	if (!existsSync(manifestPath)) {
		writeFileSync(manifestPath, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	}
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	await run('unpack package', 'tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	const packageJsonPath = join(packageDir, 'package.json');
	const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as Record<string, unknown>;
	delete packageJson.devDependencies;
	delete packageJson.peerDependencies;
	delete packageJson.optionalDependencies;
	writeFileSync(packageJsonPath, JSON.stringify(packageJson, null, 2));
	await run(
		'npm install (package)',
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		{ cwd: packageDir },
	);
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string> };
	manifest.dependencies = { ...manifest.dependencies, [PACKAGE_NAME]: String(packageJson.version) };
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	if (!statSync(join(packageDir, 'dist')).isDirectory()) throw new Error(`${PACKAGE_NAME} was not unpacked`);
	return packageDir;
}
