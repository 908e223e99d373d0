/**
 * The package as npm users get it. `npm pack` (of the current dist/: run `npm run build` first),
 * then:
 *
 * 1. The tarball holds only what a user needs: package.json, README.md, LICENSE, CHANGELOG.md and
 *    dist/ (compiled .js, their .d.ts, the icons, the node's codex .json). No source maps (they
 *    would point at .ts files the package does not contain) and no `sourceMappingURL` comments.
 * 2. The shipped package.json: `main`, `types` and every file of the `n8n` block are in the
 *    tarball; no dependencies; the only peer is n8n-workflow; `repository`, `bugs` and
 *    `homepage` name the same GitHub repository. The shipped README.md and CHANGELOG.md pass the
 *    link check (markdown-links.ts) against the repository, not the tarball: npm resolves their
 *    relative links against `repository`, so a linked file must be in the repository and need not
 *    be in the package.
 * 3. Installed into an empty folder with n8n-workflow (the version we develop against) as the only
 *    other package: `require('n8n-nodes-multichannel-notification')` works and gives the node
 *    and credential classes, and every file of the `n8n` block loads the way n8n loads it (the
 *    class named like the file), describes a node or credential, and has its icons next to it.
 *
 *   npx tsx scripts/release/check-pack.ts            (npm run pack:check)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { elapsed, installCleanup, makeTempDir, run } from '../n8n/lib/process';
import { checkMarkdownLinks, formatLinkProblem, repoFiles } from './markdown-links';
import type { PackageJson } from './repository';
import { readPackageJson, readRepository, REPO_ROOT, repositoryFields } from './repository';

/** What may be in the tarball; anything else fails the check. */
const ALLOWED = [/^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/, /^dist\/.+\.(js|d\.ts|svg|png)$/, /^dist\/nodes\/.+\.node\.json$/];
const REQUIRED = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];

let failures = 0;
function expect(ok: boolean, what: string, detail?: unknown): void {
	if (ok) {
		console.log(`  ✔ ${what}`);
		return;
	}
	failures++;
	console.log(`  ✘ ${what}${detail === undefined ? '' : `\n      ${JSON.stringify(detail, null, 2).split('\n').join('\n      ')}`}`);
}

/**
 * `npm pack` of the repository (its dist/ as built) into a temporary folder, and the tarball
 * unpacked as n8n's scanner unpacks a downloaded package: into a folder, without the top `package/`.
 */
export async function packAndUnpack() {
	const work = makeTempDir('pack');
	const { output } = await run('npm pack', 'npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO_ROOT });
	const [packed] = JSON.parse(output.slice(output.search(/^\[/m))) as Array<{ filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> }>;
	const unpacked = join(work, 'package');
	mkdirSync(unpacked);
	await run('unpack', 'tar', ['-xzf', join(work, packed.filename), '-C', unpacked, '--strip-components=1']);
	if (readdirSync(unpacked).length === 0) throw new Error('The tarball unpacked to nothing');
	return { ...packed, files: packed.files.map((file) => file.path).sort(), tarball: join(work, packed.filename), unpacked };
}

/** Runs in the empty install folder's own node: what `require` gives there. */
const PROBE = `'use strict';
const path = require('node:path');
const fs = require('node:fs');
const name = process.argv[2];  // node probe.cjs <package name>
const packageDir = path.dirname(require.resolve(name + '/package.json'));
const pkg = require(name + '/package.json');
const report = { packageDir, main: {}, files: [] };
try {
	const entry = require(name);
	report.main = Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, typeof value]));
} catch (error) {
	report.mainError = String(error && error.message || error).split(String.fromCharCode(10))[0];
}
const iconFiles = (icon) => {
	if (!icon) return [];
	const list = typeof icon === 'string' ? [icon] : Object.values(icon);
	return list.filter((value) => typeof value === 'string' && value.startsWith('file:')).map((value) => value.slice(5));
};
for (const kind of ['nodes', 'credentials']) {
	for (const file of pkg.n8n[kind] || []) {
		const result = { kind, file };
		try {
			const full = path.join(packageDir, file);
			const className = path.basename(file).replace(/\\.(node|credentials)\\.js$/, '');
			const loaded = require(full);
			const Class = loaded[className];
			result.className = className;
			result.exported = typeof Class;
			const instance = new Class();
			const description = kind === 'nodes' ? instance.description : instance;
			result.name = description.name;
			result.displayName = description.displayName;
			result.credentials = kind === 'nodes' ? (description.credentials || []).map((c) => c.name) : undefined;
			result.icons = iconFiles(description.icon).map((icon) => ({ icon, exists: fs.existsSync(path.join(path.dirname(full), icon)) }));
		} catch (error) {
			result.error = String(error && error.stack || error);
		}
		report.files.push(result);
	}
}
process.stdout.write(JSON.stringify(report));
`;

async function main(): Promise<void> {
	installCleanup();
	const started = Date.now();
	if (!existsSync(join(REPO_ROOT, 'dist', 'nodes'))) throw new Error('dist/ is missing: run `npm run build` first');

	console.log('=== pack check ===');
	const { filename, size, unpackedSize, files, tarball, unpacked } = await packAndUnpack();
	console.log(`→ npm pack: ${filename}, ${files.length} files, ${(size / 1024).toFixed(1)} kB (${(unpackedSize / 1024).toFixed(1)} kB unpacked), ${elapsed(started)}`);

	console.log('→ contents');
	const unexpected = files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
	expect(unexpected.length === 0, 'only package.json, README.md, LICENSE, CHANGELOG.md and built dist/ files (.js, .d.ts, icons, codex)', unexpected);
	const missing = REQUIRED.filter((file) => !files.includes(file));
	expect(missing.length === 0, `${REQUIRED.join(', ')} are in it`, missing);
	expect(!files.some((file) => file.endsWith('.map')), 'no source maps');

	const mappingComments = files.filter(
		(file) => file.endsWith('.js') && /^\/\/# sourceMappingURL=/m.test(readFileSync(join(unpacked, file), 'utf8')),
	);
	expect(mappingComments.length === 0, 'no sourceMappingURL comments in the .js files', mappingComments);
	const sources = files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
	expect(sources.length === 0, 'no TypeScript sources', sources);

	console.log('→ package.json as shipped');
	const shipped = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as PackageJson;
	const declared = [shipped.main, shipped.types, ...(shipped.n8n?.nodes ?? []), ...(shipped.n8n?.credentials ?? [])];
	const absent = declared.filter((file) => !file || !files.includes(file));
	expect(absent.length === 0, `main (${shipped.main}), types (${shipped.types}) and every file of the n8n block are in the tarball`, absent);
	expect((shipped.n8n?.nodes?.length ?? 0) > 0 && (shipped.n8n?.credentials?.length ?? 0) > 0, 'the n8n block names nodes and credentials');
	expect(Object.keys(shipped.dependencies ?? {}).length === 0, 'no dependencies', shipped.dependencies);
	expect(JSON.stringify(shipped.peerDependencies) === JSON.stringify({ 'n8n-workflow': '*' }), 'the only peer dependency is n8n-workflow: *', shipped.peerDependencies);
	const repository = readRepository(shipped);
	const fields = repositoryFields(repository);
	const got = { repository: shipped.repository, bugs: shipped.bugs, homepage: shipped.homepage };
	const same = JSON.stringify(got) === JSON.stringify(fields);
	expect(same, `repository, bugs and homepage all name ${repository.base}`, { expected: fields, got });
	for (const key of ['description', 'keywords', 'license', 'author', 'engines'] as const) {
		expect(shipped[key] !== undefined, `${key} is set`);
	}
	expect((shipped.keywords ?? []).includes('n8n-community-node-package'), 'keywords include n8n-community-node-package');
	const repo = repoFiles();
	for (const file of ['README.md', 'CHANGELOG.md']) {
		const problems = checkMarkdownLinks(file, readFileSync(join(unpacked, file), 'utf8'), repo).map(formatLinkProblem);
		expect(problems.length === 0, `${file}: links are relative and name anchors and files of the repository, other links https: or mailto:`, problems);
	}

	console.log('→ installed into an empty folder with n8n-workflow as the only peer');
	const installDir = makeTempDir('pack-install');
	writeFileSync(join(installDir, 'package.json'), JSON.stringify({ name: 'pack-check', private: true }, null, 2));
	const workflowVersion = readPackageJson().devDependencies?.['n8n-workflow'];
	if (!workflowVersion) throw new Error('package.json has no n8n-workflow devDependency to install as the peer');
	const installStarted = Date.now();
	await run(
		'npm install (tarball)',
		'npm',
		['install', tarball, `n8n-workflow@${workflowVersion}`, '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'],
		{ cwd: installDir },
	);
	console.log(`    npm install: ${elapsed(installStarted)}`);
	writeFileSync(join(installDir, 'probe.cjs'), PROBE);
	const { output: probeOutput } = await run('require probe', process.execPath, ['probe.cjs', shipped.name], { cwd: installDir });
	const report = JSON.parse(probeOutput.slice(probeOutput.indexOf('{'))) as {
		packageDir: string;
		main: Record<string, string>;
		mainError?: string;
		files: Array<{
			kind: string;
			file: string;
			className?: string;
			exported?: string;
			name?: string;
			displayName?: string;
			credentials?: string[];
			icons?: Array<{ icon: string; exists: boolean }>;
			error?: string;
		}>;
	};
	expect(
		report.packageDir.startsWith(installDir) && report.packageDir.includes('node_modules'),
		`require.resolve finds the installed copy (${relative(installDir, report.packageDir)})`,
	);
	expect(
		report.main.MultiChannelNotification === 'function' && report.main.MultiChannelNotificationApi === 'function',
		`require('${shipped.name}') gives the node and credential classes`,
		report.mainError ?? report.main,
	);
	const credentialNames = report.files.filter((file) => file.kind === 'credentials').map((file) => file.name);
	for (const file of report.files) {
		if (file.error) {
			expect(false, `${file.file} loads`, file.error.split('\n').slice(0, 6));
			continue;
		}
		expect(
			file.exported === 'function' && typeof file.name === 'string' && typeof file.displayName === 'string',
			`${file.file} loads; exports ${file.className}, a ${file.kind === 'nodes' ? 'node' : 'credential'} named ${file.name} ("${file.displayName}")`,
		);
		const icons = file.icons ?? [];
		expect(icons.length > 0 && icons.every((icon) => icon.exists), `${file.file}: its icons are next to it (${icons.map((icon) => icon.icon).join(', ')})`, icons);
		if (file.kind === 'nodes') {
			const unknown = (file.credentials ?? []).filter((name) => !credentialNames.includes(name));
			expect(unknown.length === 0, `${file.file}: the credentials it uses (${(file.credentials ?? []).join(', ')}) are in the package`, unknown);
		}
	}

	console.log(`\n${failures === 0 ? 'PASS' : 'FAIL'} — pack check, ${elapsed(started)}`);
	process.exitCode = failures === 0 ? 0 : 1;
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
		process.exitCode = 1;
	});
}
