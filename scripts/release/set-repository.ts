/**
 * Names the package's public GitHub repository `<owner>/n8n-nodes-multichannel-notification` in
 * package.json: writes `repository`, `bugs` and `homepage`, keeping the order of the keys and the
 * indentation package.json already has. Run once, when the public repository exists, and commit
 * the result: the publish workflow refuses to publish unless these fields name the repository it
 * runs in. Nothing else depends on the owner (the Markdown links are relative).
 *
 *   npx tsx scripts/release/set-repository.ts <owner>
 */
import { readFileSync, writeFileSync } from 'node:fs';

import type { PackageJson, Repository } from './repository';
import { PACKAGE_JSON_PATH, repositoryFields, repositoryOf } from './repository';

/** package.json with the three fields set for `repository`, keeping the order of its keys. */
export function withRepository(packageJson: PackageJson, repository: Repository): PackageJson {
	return { ...packageJson, ...repositoryFields(repository) };
}

function main(): number {
	const args = process.argv.slice(2);
	if (args.length !== 1) {
		console.error('usage: set-repository.ts <owner>');
		return 2;
	}
	let repository: Repository;
	try {
		repository = repositoryOf(args[0]);
	} catch (error) {
		console.error((error as Error).message);
		return 2;
	}
	const text = readFileSync(PACKAGE_JSON_PATH, 'utf8');
	const indent = /^\{\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
	const updated = `${JSON.stringify(withRepository(JSON.parse(text) as PackageJson, repository), null, indent)}\n`;
	if (updated === text) {
		console.log(`package.json already names ${repository.base}`);
		return 0;
	}
	writeFileSync(PACKAGE_JSON_PATH, updated);
	console.log(`package.json now names ${repository.base} (repository, bugs, homepage)`);
	return 0;
}

if (require.main === module) process.exit(main());
