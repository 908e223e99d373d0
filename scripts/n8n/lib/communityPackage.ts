/**
 * Our package as n8n sees it once a user installs it: packed by `npm pack` from dist/, and
 * installed into an n8n user folder the way n8n installs a community package.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { PACKAGE_NAME, REPO_ROOT } from './config';
import { run } from './process';

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
