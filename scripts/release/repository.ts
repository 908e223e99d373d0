/**
 * The package's public GitHub repository. Its one source is the `repository` field of
 * package.json: `bugs`, `homepage` and every README link are derived from it, changed together by
 * `scripts/release/set-repository.ts <owner>` and checked by test/package/readme-links.test.ts.
 *
 * Until the public repository exists the owner is {@link PLACEHOLDER_OWNER}; the publish workflow
 * refuses to publish unless the owner is the GitHub repository it runs in.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const PACKAGE_JSON_PATH = join(REPO_ROOT, 'package.json');
/** The repository's name on GitHub: the package's name. */
export const REPOSITORY_NAME = 'n8n-nodes-multichannel-notification';
/** The owner package.json names until the public repository exists. */
export const PLACEHOLDER_OWNER = 'your-github-owner';
/** The branch README links point into. */
export const BRANCH = 'main';

export interface PackageJson {
	name: string;
	version: string;
	description?: string;
	keywords?: string[];
	main?: string;
	types?: string;
	files?: string[];
	engines?: Record<string, string>;
	repository?: { type?: string; url?: string; directory?: string } | string;
	bugs?: { url?: string } | string;
	homepage?: string;
	n8n?: { credentials?: string[]; nodes?: string[] };
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	[key: string]: unknown;
}

export function readPackageJson(path = PACKAGE_JSON_PATH): PackageJson {
	return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
}

export interface Repository {
	owner: string;
	name: string;
	/** `https://github.com/<owner>/<name>` */
	base: string;
	/** `https://raw.githubusercontent.com/<owner>/<name>/<branch>` */
	rawBase: string;
}

const REPOSITORY_URL = /^git\+https:\/\/github\.com\/([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)\/([A-Za-z0-9_.-]+?)\.git$/;

export function repositoryOf(owner: string): Repository {
	return {
		owner,
		name: REPOSITORY_NAME,
		base: `https://github.com/${owner}/${REPOSITORY_NAME}`,
		rawBase: `https://raw.githubusercontent.com/${owner}/${REPOSITORY_NAME}/${BRANCH}`,
	};
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
export function repositoryFields(repository: Repository): Pick<PackageJson, 'repository' | 'bugs' | 'homepage'> {
	return {
		repository: { type: 'git', url: `git+${repository.base}.git` },
		bugs: { url: `${repository.base}/issues` },
		homepage: `${repository.base}#readme`,
	};
}

/** A link to a file or folder of the repository as GitHub shows it (`blob/main/<path>`; folders work too). */
export function blobUrl(repository: Repository, path: string): string {
	return `${repository.base}/blob/${BRANCH}/${path}`;
}

/** A link to a file's raw bytes, for images. */
export function rawUrl(repository: Repository, path: string): string {
	return `${repository.rawBase}/${path}`;
}

export interface MarkdownLink {
	/** 1-based line. */
	line: number;
	image: boolean;
	target: string;
}

/** Inline links and images (`[text](target)`, `![alt](target)`) outside code blocks and code spans. */
export function markdownLinks(markdown: string): MarkdownLink[] {
	const links: MarkdownLink[] = [];
	let fenced = false;
	markdown.split('\n').forEach((text, index) => {
		if (/^\s*(```|~~~)/.test(text)) {
			fenced = !fenced;
			return;
		}
		if (fenced) return;
		const withoutCode = text.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
		for (const match of withoutCode.matchAll(/(!?)\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
			links.push({ line: index + 1, image: match[1] === '!', target: match[2] });
		}
	});
	return links;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/<[^>]+>/g, '')
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** Every anchor a Markdown file's headings give, with GitHub's -1, -2 … for repeats. */
export function headingAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let fenced = false;
	for (const text of markdown.split('\n')) {
		if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
		if (fenced) continue;
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
		if (!heading) continue;
		const anchor = headingAnchor(heading[1].replace(/`/g, ''));
		const count = seen.get(anchor) ?? 0;
		seen.set(anchor, count + 1);
		anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
	}
	return anchors;
}

export interface LinkProblem {
	line: number;
	target: string;
	problem: string;
}

/**
 * What is wrong with a Markdown file's links on the npm page: every link must be an in-page
 * anchor that a heading gives, an absolute URL elsewhere, or an absolute URL into this package's
 * repository (`<base>/blob/main/<path>`, `<base>/tree/main/<path>`, images from
 * `<rawBase>/<path>`) naming a path that exists here. Links into any other owner's copy of the
 * repository, relative links and images that are not raw files are problems.
 */
export function checkMarkdownLinks(markdown: string, repository: Repository, root = REPO_ROOT): LinkProblem[] {
	const problems: LinkProblem[] = [];
	const anchors = headingAnchors(markdown);
	const repoUrl = new RegExp(`^https://(?:github\\.com|raw\\.githubusercontent\\.com)/([^/]+)/${REPOSITORY_NAME}(?=[/#?]|$)`, 'i');
	for (const { line, image, target } of markdownLinks(markdown)) {
		const problem = (text: string): void => {
			problems.push({ line, target, problem: text });
		};
		if (target.startsWith('#')) {
			if (!anchors.has(decodeURIComponent(target.slice(1)))) problem('no heading gives this anchor');
			continue;
		}
		if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) {
			problem(`relative link: it does not work on the npm page; use ${image ? rawUrl(repository, '<path>') : blobUrl(repository, '<path>')}`);
			continue;
		}
		const ours = repoUrl.exec(target);
		if (!ours) {
			if (!/^(https:|mailto:)/.test(target)) problem('only https: and mailto: links');
			continue;
		}
		if (ours[1] !== repository.owner) {
			problem(`points at owner ${ours[1]}, but package.json names ${repository.owner}`);
			continue;
		}
		const rest = target.replace(/[?#].*$/, '');
		let path: string | undefined;
		if (image) {
			if (!rest.startsWith(`${repository.rawBase}/`)) {
				problem(`images must come from ${repository.rawBase}/<path> (a blob/ page is HTML, not the image)`);
				continue;
			}
			path = rest.slice(repository.rawBase.length + 1);
		} else if (rest === repository.base) {
			continue;
		} else {
			for (const kind of ['blob', 'tree', 'raw']) {
				const prefix = `${repository.base}/${kind}/${BRANCH}/`;
				if (rest.startsWith(prefix)) path = rest.slice(prefix.length);
			}
			if (path === undefined && rest.startsWith(`${repository.rawBase}/`)) path = rest.slice(repository.rawBase.length + 1);
			if (path === undefined) {
				if (!/^\/(issues|pulls|releases|actions|discussions|security)(\/|$)/.test(rest.slice(repository.base.length))) {
					problem(`links into the repository must be ${repository.base}/blob/${BRANCH}/<path>`);
				}
				continue;
			}
		}
		const file = decodeURIComponent(path).replace(/\/$/, '');
		if (file === '' || !existsSync(join(root, file))) {
			problem(`${file || '(empty path)'} does not exist in the repository`);
			continue;
		}
		const anchor = /#(.+)$/.exec(target)?.[1];
		if (anchor && file.endsWith('.md') && !headingAnchors(readFileSync(join(root, file), 'utf8')).has(decodeURIComponent(anchor))) {
			problem(`no heading in ${file} gives #${anchor}`);
		}
	}
	return problems;
}
