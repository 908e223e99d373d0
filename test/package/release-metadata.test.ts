/**
 * What npm users see before they install: package.json metadata, and README / CHANGELOG links
 * that work on the npm page and all point at the one repository package.json names. Quick and
 * offline; the packed tarball itself is checked by scripts/release/check-pack.ts (CI).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	checkMarkdownLinks,
	headingAnchors,
	readPackageJson,
	readRepository,
	REPO_ROOT,
	repositoryFields,
	repositoryOf,
	REPOSITORY_NAME,
} from '../../scripts/release/repository';
import { rewriteLinks, SHIPPED_MARKDOWN } from '../../scripts/release/set-repository';

const packageJson = readPackageJson();
const repository = readRepository(packageJson);
const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');

describe('package.json', () => {
	it('main and types point at the compiled entry (index.ts → dist/index.js)', () => {
		expect(packageJson.main).toBe('dist/index.js');
		expect(packageJson.types).toBe('dist/index.d.ts');
		expect(existsSync(join(REPO_ROOT, 'index.ts')) ? 'index.ts' : 'missing').toBe('index.ts');
		const tsconfig = JSON.parse(read('tsconfig.json')) as { compilerOptions: Record<string, unknown>; include: string[] };
		expect(tsconfig.compilerOptions).toMatchObject({ outDir: './dist', rootDir: '.', declaration: true });
		expect(tsconfig.include).toContain('index.ts');
	});

	it('the build emits no source maps (they would point at sources the package does not ship)', () => {
		const tsconfig = JSON.parse(read('tsconfig.json')) as { compilerOptions: Record<string, unknown> };
		expect(tsconfig.compilerOptions.sourceMap).not.toBe(true);
		expect(tsconfig.compilerOptions.inlineSourceMap).not.toBe(true);
		expect(tsconfig.compilerOptions.declarationMap).not.toBe(true);
	});

	it('ships dist/ and CHANGELOG.md (npm adds package.json, README.md and LICENSE)', () => {
		expect(packageJson.files).toEqual(['dist', 'CHANGELOG.md']);
		expect(['README.md', 'LICENSE', 'CHANGELOG.md'].filter((file) => !existsSync(join(REPO_ROOT, file)))).toEqual([]);
	});

	it(`repository, bugs and homepage name the GitHub repository ${REPOSITORY_NAME}`, () => {
		expect(repository.name).toBe(REPOSITORY_NAME);
		const fields = repositoryFields(repository);
		expect({ repository: packageJson.repository, bugs: packageJson.bugs, homepage: packageJson.homepage }).toEqual(fields);
	});

	it('has the metadata npm and n8n show: description, keywords, license, author, engines', () => {
		expect(packageJson.description?.length).toBeGreaterThan(40);
		expect(packageJson.keywords).toContain('n8n-community-node-package');
		expect(packageJson.license).toBe('MIT');
		expect(packageJson.author).toBeDefined();
		expect(packageJson.engines).toEqual({ node: '>=20.19' });
		expect(packageJson.publishConfig).toEqual({ access: 'public', provenance: true });
	});

	it('no runtime dependencies; the only peer is n8n-workflow: *', () => {
		expect(packageJson.dependencies ?? {}).toEqual({});
		expect(packageJson.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});
});

describe.each(SHIPPED_MARKDOWN)('%s', (file) => {
	it('every link and image works on the npm page and points at the one repository', () => {
		expect(checkMarkdownLinks(read(file), repository)).toEqual([]);
	});

	it('is what set-repository.ts would write (no relative links, no other owner)', () => {
		expect(rewriteLinks(read(file), file, repository)).toBe(read(file));
	});
});

describe('README', () => {
	it('states the n8n versions CI proves (the three lines scripts/ci-e2e.sh names)', () => {
		const script = read('scripts/ci-e2e.sh');
		const versions = ['N8N_MAIN_VERSION', 'N8N_COMPAT_VERSION', 'N8N_NEWEST_VERSION'].map(
			(name) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(script)?.[1],
		);
		expect(versions).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
		const readme = read('README.md');
		const section = readme.slice(readme.indexOf('### Tested versions'), readme.indexOf('## Credential'));
		for (const version of versions) expect(section).toContain(`| **${version}**`);
	});
});

describe('CHANGELOG', () => {
	it('has an Unreleased section above the released versions', () => {
		const headings = read('CHANGELOG.md')
			.split('\n')
			.filter((line) => line.startsWith('## '));
		expect(headings[0]).toBe('## Unreleased');
		expect(headings).toContain('## 0.1.0 — 2026-11-21');
	});
});

describe('link tools', () => {
	const other = repositoryOf('someone-else');
	const ours = repositoryOf('acme');

	it('rewriteLinks makes relative links absolute (images from raw) and moves other owners to ours', () => {
		const text = [
			'See [docs](docs/running-in-n8n.md#running-in-queue-mode) and [top](#top).',
			'![shot](docs/images/editor-failover.png)',
			`[old](${other.base}/blob/main/BENCHMARKS.md) ![img](${other.rawBase}/docs/images/editor-failover.png)`,
			'```',
			'[not a link](inside/code.md)',
			'```',
		].join('\n');
		expect(rewriteLinks(text, 'README.md', ours).split('\n')).toEqual([
			`See [docs](${ours.base}/blob/main/docs/running-in-n8n.md#running-in-queue-mode) and [top](#top).`,
			`![shot](${ours.rawBase}/docs/images/editor-failover.png)`,
			`[old](${ours.base}/blob/main/BENCHMARKS.md) ![img](${ours.rawBase}/docs/images/editor-failover.png)`,
			'```',
			'[not a link](inside/code.md)',
			'```',
		]);
	});

	it('checkMarkdownLinks finds relative links, other owners, missing files and anchors, HTML pages as images', () => {
		const text = [
			'# Title',
			'[ok](#title) [ok](https://n8n.io) [ok](' + ours.base + '/blob/main/LICENSE) [ok](' + ours.base + '/issues)',
			'[bad anchor](#nope)',
			'[relative](docs/running-in-n8n.md)',
			`[other](${other.base}/blob/main/LICENSE)`,
			`[missing](${ours.base}/blob/main/NOPE.md)`,
			`[anchor](${ours.base}/blob/main/docs/running-in-n8n.md#no-such-heading)`,
			`![html](${ours.base}/blob/main/docs/images/editor-failover.png)`,
		].join('\n');
		const problems = checkMarkdownLinks(text, ours).map((problem) => problem.line);
		expect(problems).toEqual([3, 4, 5, 6, 7, 8]);
	});

	it('headingAnchors follows GitHub: punctuation dropped, repeats numbered', () => {
		const anchors = headingAnchors('## Options (every send)\n## Chat Message → Send Template\n## A\n## A\n## Compatibility: n8n 1.x and 2.x');
		expect([...anchors]).toEqual(['options-every-send', 'chat-message--send-template', 'a', 'a-1', 'compatibility-n8n-1x-and-2x']);
	});
});
