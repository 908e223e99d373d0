/**
 * What npm users see before they install: package.json metadata naming one repository, and the
 * tool that writes it. Quick and offline; the Markdown links are checked by
 * markdown-links.test.ts, the packed tarball by scripts/release/check-pack.ts (CI).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { PackageJson } from '../../scripts/release/repository';
import {
	CODEX_PATH,
	CREDENTIAL_SOURCE_PATH,
	readPackageJson,
	readRepository,
	REPO_ROOT,
	repositoryFields,
	repositoryOf,
	REPOSITORY_NAME,
} from '../../scripts/release/repository';
import { documentationLinks, withDocumentationUrls, withRepository } from '../../scripts/release/set-repository';

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

describe('set-repository', () => {
	it('writes repository, bugs and homepage for the owner and keeps the order of the keys', () => {
		const before: PackageJson = { name: 'x', version: '1.0.0', homepage: 'old', repository: { type: 'git', url: 'old' }, bugs: { url: 'old' }, license: 'MIT' };
		const after = withRepository(before, repositoryOf('acme'));
		expect(Object.keys(after)).toEqual(['name', 'version', 'homepage', 'repository', 'bugs', 'license']);
		expect(after).toMatchObject({
			homepage: `https://github.com/acme/${REPOSITORY_NAME}#readme`,
			repository: { type: 'git', url: `git+https://github.com/acme/${REPOSITORY_NAME}.git` },
			bugs: { url: `https://github.com/acme/${REPOSITORY_NAME}/issues` },
		});
		expect(readRepository(after).owner).toBe('acme');
	});

	it("points the credential's and the codex file's documentation links at the README on GitHub", () => {
		const credential = "export class X {\n\tdocumentationUrl = 'https://www.npmjs.com/package/x#credential';\n}\n";
		const codex = '{\n\t"resources": {\n\t\t"credentialDocumentation": [\n\t\t\t{\n\t\t\t\t"url": "old"\n\t\t\t}\n\t\t],\n\t\t"primaryDocumentation": [{ "url": "old" }]\n\t}\n}\n';
		const after = withDocumentationUrls(credential, codex, repositoryOf('acme'));
		expect(documentationLinks(after.credentialSource, after.codex)).toEqual({
			credential: `https://github.com/acme/${REPOSITORY_NAME}#credential`,
			codexPrimary: `https://github.com/acme/${REPOSITORY_NAME}#readme`,
			codexCredential: `https://github.com/acme/${REPOSITORY_NAME}#credential`,
		});
		expect(after.codex.replace(/"url": "[^"]*"/g, '"url": "old"')).toBe(codex);
	});

	it("finds the documentation links in this repository's credential and codex file", () => {
		const links = documentationLinks(readFileSync(CREDENTIAL_SOURCE_PATH, 'utf8'), readFileSync(CODEX_PATH, 'utf8'));
		expect(links).toEqual({ credential: expect.any(String), codexPrimary: expect.any(String), codexCredential: expect.any(String) });
	});

	it.each(['', 'two words', '-leading-hyphen', 'acme/other', 'acme.org'])('refuses %j as an owner', (owner) => {
		expect(() => repositoryOf(owner)).toThrow(/Not a GitHub owner name/);
	});

	it('readRepository refuses a repository with another name', () => {
		expect(() => readRepository({ name: 'x', version: '1.0.0', repository: { url: 'git+https://github.com/acme/other.git' } })).toThrow(
			`the repository must be named ${REPOSITORY_NAME}`,
		);
	});
});
