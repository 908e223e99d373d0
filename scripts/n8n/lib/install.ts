/**
 * Real n8n, installed on first use into the git-ignored `.cache/n8n-<version>/` (2.8.4 unless
 * `N8N_VERSION` names another, e.g. `1.123.x`; see config.ts), with Node 24 from node24.ts for the
 * versions that refuse older ones. One installer at a time, and an install that did not finish is
 * started over.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { CACHE_DIR, N8N_BIN, N8N_DIR, N8N_MAJOR, N8N_NEEDS_NODE_24, N8N_VERSION } from './config';
import { ensureNode24 } from './node24';
import { minutesAndSeconds, npmInN8nDir } from './npmProgress';
import { delay, run } from './process';

const MARKER = join(N8N_DIR, '.install-complete.json');
const LOCK = `${N8N_DIR}.lock`;

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
