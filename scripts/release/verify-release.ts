/**
 * The publish workflow's first step: refuses to publish unless the release is consistent.
 *
 * - the pushed tag is `v<version of package.json>`;
 * - package.json's `repository` is the GitHub repository the workflow runs in (n8n verifies a
 *   package only when its npm provenance, which names that repository, matches this field), so a
 *   placeholder owner can never be published; `bugs` and `homepage` name it too, and so do the
 *   documentation links n8n shows (the credential's `documentationUrl`, the codex file's URLs),
 *   so they point at a page that exists;
 * - CHANGELOG.md has a section for the version;
 * - BENCHMARKS.md and RELIABILITY.md were measured on the product code being published.
 *
 * The Markdown links do not depend on the repository (they are relative); `npm test` checks them
 * before the workflow publishes.
 *
 *   npx tsx scripts/release/verify-release.ts --tag v0.2.0 --repository <owner>/n8n-nodes-multichannel-notification
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { CODEX_PATH, CREDENTIAL_SOURCE_PATH, documentationUrls, PLACEHOLDER_OWNER, readPackageJson, readRepository, REPO_ROOT, repositoryFields } from './repository';
import { figureStates } from './measured';
import { documentationLinks } from './set-repository';

function releaseProblems(tag: string, githubRepository: string): string[] {
	const problems: string[] = [];
	const packageJson = readPackageJson();
	if (tag !== `v${packageJson.version}`) problems.push(`tag ${tag} is not v${packageJson.version} (package.json version)`);
	let repository;
	try {
		repository = readRepository(packageJson);
	} catch (error) {
		return [...problems, (error as Error).message];
	}
	const { owner, name } = repository;
	if (owner === PLACEHOLDER_OWNER) {
		problems.push(`package.json still names the placeholder owner ${PLACEHOLDER_OWNER}: run npx tsx scripts/release/set-repository.ts <owner> and commit`);
	}
	if (`${owner}/${name}`.toLowerCase() !== githubRepository.toLowerCase()) {
		problems.push(`package.json names ${owner}/${name}, but this runs in ${githubRepository}: npm provenance would not match`);
	}
	const fields = repositoryFields(repository);
	for (const key of ['repository', 'bugs', 'homepage'] as const) {
		if (JSON.stringify(packageJson[key]) !== JSON.stringify(fields[key])) problems.push(`package.json ${key} is not ${JSON.stringify(fields[key])}`);
	}
	const links = documentationLinks(readFileSync(CREDENTIAL_SOURCE_PATH, 'utf8'), readFileSync(CODEX_PATH, 'utf8'));
	for (const [key, url] of Object.entries(documentationUrls(repository)) as Array<[keyof typeof links, string]>) {
		if (links[key] !== url) {
			problems.push(`documentation link ${key} is ${JSON.stringify(links[key])}, not ${url}: run npx tsx scripts/release/set-repository.ts ${owner}`);
		}
	}
	const changelog = readFileSync(join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
	if (!new RegExp(`^## \\[?${packageJson.version.replace(/\./g, '\\.')}\\]?(\\s|$)`, 'm').test(changelog)) {
		problems.push(`CHANGELOG.md has no "## ${packageJson.version} — <date>" section`);
	}
	for (const state of figureStates()) {
		if (state.problem) problems.push(state.problem);
		if (state.stale) problems.push(state.stale);
	}
	return problems;
}

const { values } = parseArgs({ options: { tag: { type: 'string' }, repository: { type: 'string' } } });
if (!values.tag || !values.repository) {
	console.error('usage: verify-release.ts --tag v<version> --repository <owner>/<name>');
	process.exit(2);
}
const problems = releaseProblems(values.tag, values.repository);
if (problems.length > 0) {
	console.error(`Not releasable:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
	process.exit(1);
}
console.log(`${values.tag} of ${values.repository} is ready to publish`);
