/**
 * Node 24 for the n8n versions that refuse older ones: installed from the npm registry into the
 * git-ignored `.cache/node-24/` on first use, and the `node` binary that runs this n8n.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { CACHE_DIR, N8N_NEEDS_NODE_24, N8N_VERSION } from './config';
import { withHeartbeat } from './npmProgress';
import { elapsed, removeOnExit, run } from './process';

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
export async function ensureNode24(log: (line: string) => void): Promise<string> {
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
 * `.cache/node-24/` for the versions that need it (installed with n8n by `ensureN8n` in install.ts).
 */
export function n8nNodeBinary(): string {
	if (!N8N_NEEDS_NODE_24) return process.execPath;
	const home = node24Home();
	if (!hasNode24(home)) throw new Error(`n8n ${N8N_VERSION} runs on Node 24, which is missing from .cache/: run scripts/n8n/install-n8n.ts`);
	return join(home, 'bin', 'node');
}
