/**
 * Names the package's public GitHub repository `<owner>/n8n-nodes-multichannel-notification`:
 * writes `repository`, `bugs` and `homepage` in package.json (keeping the order of its keys and
 * its indentation), and the documentation links n8n shows, which point at the README on GitHub:
 * the credential's `documentationUrl` (…#credential) and the codex file's primary and credential
 * documentation (…#readme, …#credential). Run once, when the public repository exists, and
 * commit the result: the publish workflow refuses to publish unless all of them name the
 * repository it runs in. Nothing else depends on the owner (the Markdown links are relative).
 *
 *   npx tsx scripts/release/set-repository.ts <owner>
 */
import { readFileSync, writeFileSync } from 'node:fs';

import type { PackageJson, Repository } from './repository';
import { CODEX_PATH, CREDENTIAL_SOURCE_PATH, documentationUrls, PACKAGE_JSON_PATH, repositoryFields, repositoryOf } from './repository';

/** package.json with the three fields set for `repository`, keeping the order of its keys. */
export function withRepository(packageJson: PackageJson, repository: Repository): PackageJson {
	return { ...packageJson, ...repositoryFields(repository) };
}

const codexUrl = (key: string): RegExp => new RegExp(`("${key}"\\s*:\\s*\\[\\s*\\{\\s*"url"\\s*:\\s*")([^"]*)(")`);
const CREDENTIAL_URL = /(\bdocumentationUrl\s*=\s*')([^']*)(')/;
const CODEX_PRIMARY = codexUrl('primaryDocumentation');
const CODEX_CREDENTIAL = codexUrl('credentialDocumentation');

/** The documentation links of the credential's source and of the codex file, as they read now. */
export function documentationLinks(credentialSource: string, codex: string): Partial<ReturnType<typeof documentationUrls>> {
	return {
		credential: CREDENTIAL_URL.exec(credentialSource)?.[2],
		codexPrimary: CODEX_PRIMARY.exec(codex)?.[2],
		codexCredential: CODEX_CREDENTIAL.exec(codex)?.[2],
	};
}

/** The credential's source and the codex file with their documentation links set for `repository`. */
export function withDocumentationUrls(credentialSource: string, codex: string, repository: Repository): { credentialSource: string; codex: string } {
	if (Object.values(documentationLinks(credentialSource, codex)).some((link) => link === undefined)) {
		throw new Error("Cannot find the credential's documentationUrl or the codex file's documentation URLs");
	}
	const urls = documentationUrls(repository);
	return {
		credentialSource: credentialSource.replace(CREDENTIAL_URL, `$1${urls.credential}$3`),
		codex: codex.replace(CODEX_PRIMARY, `$1${urls.codexPrimary}$3`).replace(CODEX_CREDENTIAL, `$1${urls.codexCredential}$3`),
	};
}

/** Writes `text` to `path` unless it already holds it; says what it did. */
function write(path: string, text: string, what: string): void {
	if (readFileSync(path, 'utf8') === text) return;
	writeFileSync(path, text);
	console.log(`wrote ${what}`);
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
	write(PACKAGE_JSON_PATH, `${JSON.stringify(withRepository(JSON.parse(text) as PackageJson, repository), null, indent)}\n`, 'package.json (repository, bugs, homepage)');
	const docs = withDocumentationUrls(readFileSync(CREDENTIAL_SOURCE_PATH, 'utf8'), readFileSync(CODEX_PATH, 'utf8'), repository);
	write(CREDENTIAL_SOURCE_PATH, docs.credentialSource, "the credential's documentationUrl");
	write(CODEX_PATH, docs.codex, "the codex file's documentation URLs");
	console.log(`The package names ${repository.base}`);
	return 0;
}

if (require.main === module) process.exit(main());
