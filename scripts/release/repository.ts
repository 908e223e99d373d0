/**
 * The package's public GitHub repository. Its one source is the `repository` field of
 * package.json, with `bugs` and `homepage` derived from it; `scripts/release/set-repository.ts
 * <owner>` writes all three. Until the public repository exists the owner is
 * {@link PLACEHOLDER_OWNER}; the publish workflow refuses to publish unless package.json names
 * the GitHub repository it runs in.
 *
 * The Markdown does not depend on the owner: its links are relative (see markdown-links.ts), and
 * npm resolves them against this field.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const PACKAGE_JSON_PATH = join(REPO_ROOT, 'package.json');
/** The repository's name on GitHub: the package's name. */
export const REPOSITORY_NAME = 'n8n-nodes-multichannel-notification';
export const PLACEHOLDER_OWNER = 'your-github-owner';
/** The credential's source, whose `documentationUrl` n8n links from the credential dialog. */
export const CREDENTIAL_SOURCE_PATH = join(REPO_ROOT, 'credentials', 'MultiChannelNotificationApi.credentials.ts');
/** The node's codex file, whose documentation URLs n8n links from the node. */
export const CODEX_PATH = join(REPO_ROOT, 'nodes', 'MultiChannelNotification', 'MultiChannelNotification.node.json');

export interface PackageJson {
	name: string;
	version: string;
	description?: string;
	keywords?: string[];
	main?: string;
	types?: string;
	repository?: { type?: string; url?: string; directory?: string } | string;
	bugs?: { url?: string } | string;
	homepage?: string;
	n8n?: { credentials?: string[]; nodes?: string[] };
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	[key: string]: unknown;
}

export function readPackageJson(): PackageJson {
	return JSON.parse(readFileSync(PACKAGE_JSON_PATH, 'utf8')) as PackageJson;
}

export interface Repository {
	owner: string;
	name: string;
	/** `https://github.com/<owner>/<name>` */
	base: string;
}

/** A GitHub user or organisation name. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const REPOSITORY_URL = /^git\+https:\/\/github\.com\/([^/]+)\/([A-Za-z0-9_.-]+?)\.git$/;

/** The repository `<owner>/n8n-nodes-multichannel-notification`; throws if `owner` is not a GitHub owner name. */
export function repositoryOf(owner: string): Repository {
	if (!OWNER.test(owner)) throw new Error(`Not a GitHub owner name: ${JSON.stringify(owner)}`);
	return { owner, name: REPOSITORY_NAME, base: `https://github.com/${owner}/${REPOSITORY_NAME}` };
}

/** The repository package.json names; throws if its `repository.url` is not `git+https://github.com/<owner>/<name>.git`. */
export function readRepository(packageJson: PackageJson = readPackageJson()): Repository {
	const url = typeof packageJson.repository === 'string' ? packageJson.repository : packageJson.repository?.url;
	const match = REPOSITORY_URL.exec(url ?? '');
	if (!match) {
		throw new Error(`package.json repository.url must be git+https://github.com/<owner>/${REPOSITORY_NAME}.git, not ${JSON.stringify(url)}`);
	}
	if (match[2] !== REPOSITORY_NAME) {
		throw new Error(`package.json repository names ${match[2]}; the repository must be named ${REPOSITORY_NAME}`);
	}
	return repositoryOf(match[1]);
}

/** The package.json fields that name the repository, as they must read for `repository`. */
export function repositoryFields({ base }: Repository): Pick<PackageJson, 'repository' | 'bugs' | 'homepage'> {
	return { repository: { type: 'git', url: `git+${base}.git` }, bugs: { url: `${base}/issues` }, homepage: `${base}#readme` };
}

/**
 * The documentation links n8n shows, as they must read for `repository`: the README on GitHub
 * (which exists as soon as the public repository does; the npm page only once a version is
 * published), at its top for the node and at its Credential section for the credential dialog.
 */
export function documentationUrls({ base }: Repository): { credential: string; codexPrimary: string; codexCredential: string } {
	return { credential: `${base}#credential`, codexPrimary: `${base}#readme`, codexCredential: `${base}#credential` };
}
