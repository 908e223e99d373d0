/**
 * Points the package at its public GitHub repository `<owner>/n8n-nodes-multichannel-notification`:
 * writes `repository`, `bugs` and `homepage` in package.json (the one place the owner is kept)
 * and rewrites the links of the Markdown files that ship in the package (README.md,
 * CHANGELOG.md) to absolute URLs into that repository — links into another owner's copy and
 * relative links alike, images to raw.githubusercontent.com — so they work on the npm page.
 *
 *   npx tsx scripts/release/set-repository.ts <owner>     set the owner, rewrite the links
 *   npx tsx scripts/release/set-repository.ts             rewrite the links for the owner package.json names
 *   npx tsx scripts/release/set-repository.ts --check     exit 1 if anything would change
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';

import type { PackageJson, Repository } from './repository';
import {
	blobUrl,
	markdownLinks,
	PACKAGE_JSON_PATH,
	rawUrl,
	readPackageJson,
	readRepository,
	REPO_ROOT,
	repositoryFields,
	repositoryOf,
	REPOSITORY_NAME,
} from './repository';

/** The Markdown files npm shows or ships: their links must work outside GitHub. */
export const SHIPPED_MARKDOWN = ['README.md', 'CHANGELOG.md'];

/** package.json with the three fields set, keeping the order of the keys it already has. */
export function withRepository(packageJson: PackageJson, repository: Repository): PackageJson {
	const fields = repositoryFields(repository);
	const result: PackageJson = { ...packageJson };
	for (const [key, value] of Object.entries(fields)) result[key] = value;
	return result;
}

/** A Markdown file's links made absolute and pointed at `repository` (its path is relative to the repository root). */
export function rewriteLinks(markdown: string, file: string, repository: Repository): string {
	const ownRepo = new RegExp(
		`https://(github\\.com|raw\\.githubusercontent\\.com)/[A-Za-z0-9-]+/${REPOSITORY_NAME}(?=[/#?)\\s]|$)`,
		'gi',
	);
	let text = markdown.replace(ownRepo, (_match, host: string) =>
		host.toLowerCase() === 'github.com' ? repository.base : `https://raw.githubusercontent.com/${repository.owner}/${REPOSITORY_NAME}`,
	);
	const lines = text.split('\n');
	for (const link of markdownLinks(text)) {
		const { target, image } = link;
		if (target.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
		const [pathPart, anchor] = target.split(/(?=#)/);
		const path = posix.normalize(posix.join(posix.dirname(file), pathPart));
		const absolute = (image ? rawUrl(repository, path) : blobUrl(repository, path)) + (anchor ?? '');
		const index = link.line - 1;
		lines[index] = lines[index].split(`](${target})`).join(`](${absolute})`).split(`](${target} `).join(`](${absolute} `);
	}
	text = lines.join('\n');
	return text;
}

function main(): number {
	const args = process.argv.slice(2);
	const check = args.includes('--check');
	const owner = args.find((arg) => !arg.startsWith('--'));
	if (owner !== undefined && !/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(owner)) {
		console.error(`Not a GitHub owner name: ${owner}`);
		return 2;
	}
	const packageJson = readPackageJson();
	const repository = owner === undefined ? readRepository(packageJson) : repositoryOf(owner);
	const changed: string[] = [];

	const packageText = readFileSync(PACKAGE_JSON_PATH, 'utf8');
	const indent = /^\{\n([ \t]+)"/.exec(packageText)?.[1] ?? '  ';
	const newPackageText = `${JSON.stringify(withRepository(packageJson, repository), null, indent)}\n`;
	if (newPackageText !== packageText) {
		changed.push('package.json');
		if (!check) writeFileSync(PACKAGE_JSON_PATH, newPackageText);
	}
	for (const file of SHIPPED_MARKDOWN) {
		const path = join(REPO_ROOT, file);
		if (!existsSync(path)) continue;
		const text = readFileSync(path, 'utf8');
		const rewritten = rewriteLinks(text, file, repository);
		if (rewritten !== text) {
			changed.push(file);
			if (!check) writeFileSync(path, rewritten);
		}
	}
	if (check) {
		if (changed.length > 0) {
			console.error(`Not pointed at ${repository.base} throughout: ${changed.join(', ')}. Run: npx tsx scripts/release/set-repository.ts`);
			return 1;
		}
		console.log(`package.json and ${SHIPPED_MARKDOWN.join(', ')} point at ${repository.base}`);
		return 0;
	}
	console.log(changed.length > 0 ? `Pointed ${changed.join(', ')} at ${repository.base}` : `Already pointing at ${repository.base}`);
	return 0;
}

if (require.main === module) process.exit(main());
