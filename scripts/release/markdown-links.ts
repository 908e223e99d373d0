/**
 * The links of the repository's Markdown. They are relative (`docs/running-in-n8n.md`,
 * `docs/images/x.png`, `RELEASING.md#every-release`): that form works in a clone, on GitHub, and
 * on the npm page, where npm resolves it against the repository package.json names. An absolute
 * URL into this repository could only be right for one owner, and the owner is not known until
 * the public repository exists, so none is allowed.
 *
 * The rule, for every link and image (`[t](x)`, `![t](x)`, `[ref]: x`, `<https://…>`, and the
 * `src`/`href` of HTML `<img>` and `<a>`) outside code:
 * - `#anchor`: a heading of the same file gives it;
 * - a relative path (with an optional `#anchor`): it names a file or folder of the repository
 *   (tracked, or new and not ignored by git), from the linking file's folder and without leaving
 *   the repository; an anchor needs a Markdown file one of whose headings gives it;
 * - `https:` and `mailto:` links elsewhere are fine; an https link into github.com or
 *   raw.githubusercontent.com for any owner's `n8n-nodes-multichannel-notification` is not;
 *   other schemes are not.
 * And the placeholder owner appears nowhere in the file, code included.
 * Bare URLs in running text are not checked.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

import { PLACEHOLDER_OWNER, REPO_ROOT, REPOSITORY_NAME } from './repository';

/** The files of the repository a link may name; paths are relative to its root, `/`-separated. */
export interface RepoFiles {
	files: ReadonlySet<string>;
	folders: ReadonlySet<string>;
	read(path: string): string;
}

export function repoFilesOf(paths: Iterable<string>, read: (path: string) => string): RepoFiles {
	const files = new Set(paths);
	const folders = new Set<string>();
	for (const file of files) {
		for (let folder = posix.dirname(file); folder !== '.'; folder = posix.dirname(folder)) folders.add(folder);
	}
	return { files, folders, read };
}

/**
 * The repository as git sees it: tracked files that still exist plus new files git does not
 * ignore. A file that exists only here (dist/, .cache/, node_modules/) is not on GitHub, so a
 * link to it would be dead there and on npm.
 */
export function repoFiles(root = REPO_ROOT): RepoFiles {
	const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
	const paths = listed.split('\0').filter((path) => path !== '' && existsSync(join(root, path)));
	return repoFilesOf(paths, (path) => readFileSync(join(root, path), 'utf8'));
}

/** Every Markdown file of the repository. */
export function markdownFiles(repo: RepoFiles): string[] {
	return [...repo.files].filter((file) => file.endsWith('.md')).sort();
}

/** The lines of a Markdown text with fenced code blocks blanked. */
export function linesOutsideFences(markdown: string): string[] {
	let fenced = false;
	return markdown.split('\n').map((text) => {
		if (/^\s*(```|~~~)/.test(text)) {
			fenced = !fenced;
			return '';
		}
		return fenced ? '' : text;
	});
}

/** Links and images of a Markdown text (the kinds listed at the top), outside fenced blocks and code spans. */
function markdownLinks(markdown: string): Array<{ line: number; target: string }> {
	return linesOutsideFences(markdown).flatMap((line, index) => {
		const text = line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
		const targets = [
			...[...text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
			/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(text)?.[1],
			...[...text.matchAll(/<([a-z][a-z0-9+.-]*:[^\s<>]+)>/gi)].map((match) => match[1]),
			...[...text.matchAll(/<(?:img|a)\s[^>]*?\b(?:src|href)\s*=\s*"([^"]*)"/gi)].map((match) => match[1]),
		];
		return targets.filter((target) => target !== undefined).map((target) => ({ line: index + 1, target }));
	});
}

/**
 * Every anchor a Markdown file's headings give, as GitHub makes them: a link counts by its text,
 * lower case, punctuation dropped, spaces to hyphens, and -1, -2 … for repeats.
 */
export function headingAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const text of linesOutsideFences(markdown)) {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
		if (!heading) continue;
		const anchor = heading[1]
			.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
			.replace(/`/g, '')
			.trim()
			.toLowerCase()
			.replace(/<[^>]+>/g, '')
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(anchor) ?? 0;
		seen.set(anchor, count + 1);
		anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
	}
	return anchors;
}

export interface LinkProblem {
	/** The Markdown file, relative to the repository root. */
	file: string;
	/** 1-based line. */
	line: number;
	target: string;
	problem: string;
}

export function formatLinkProblem({ file, line, target, problem }: LinkProblem): string {
	return `${file}:${line}: ${target}: ${problem}`;
}

const THIS_REPOSITORY = new RegExp(
	`^https://(?:www\\.)?(?:github\\.com|raw\\.githubusercontent\\.com)/[^/]+/${REPOSITORY_NAME.replace(/[.-]/g, '\\$&')}(?:\\.git)?(?=[/#?]|$)`,
	'i',
);

/** `text` percent-decoded, or undefined when it is not valid percent-encoding. */
function decoded(text: string): string | undefined {
	try {
		return decodeURIComponent(text);
	} catch {
		return undefined;
	}
}

/**
 * What is wrong with one link of `file` (a path relative to the repository root), or undefined.
 * `ownAnchors` are the anchors of `file` itself, which may be a copy outside the repository.
 */
function linkProblem(file: string, target: string, repo: RepoFiles, ownAnchors: Set<string>): string | undefined {
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
		if (THIS_REPOSITORY.test(target)) return 'an absolute link into this repository: make it relative to this file';
		if (!/^(https|mailto):/i.test(target)) return 'only relative, https: and mailto: links';
		return undefined;
	}
	const hash = target.indexOf('#');
	const pathPart = (hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
	let linked = file;
	if (pathPart !== '') {
		if (pathPart.startsWith('/')) return 'starts at /: write the path relative to this file';
		const path = decoded(pathPart);
		if (path === undefined) return 'the path is not valid percent-encoding';
		linked = posix.normalize(posix.join(posix.dirname(file), path)).replace(/\/$/, '');
		if (linked === '..' || linked.startsWith('../')) return 'points outside the repository';
		if (linked !== '.' && !repo.files.has(linked) && !repo.folders.has(linked)) return `${linked} is not in the repository`;
	}
	if (hash === -1) return undefined;
	const anchor = decoded(target.slice(hash + 1));
	if (anchor === undefined) return 'the anchor is not valid percent-encoding';
	if (linked === file) return ownAnchors.has(anchor) ? undefined : `no heading of this file gives #${anchor}`;
	if (!linked.endsWith('.md') || !repo.files.has(linked)) return `#${anchor}: only a Markdown file's headings give anchors`;
	return headingAnchors(repo.read(linked)).has(anchor) ? undefined : `no heading of ${linked} gives #${anchor}`;
}

/**
 * Every broken or disallowed link of one Markdown file, and every line naming the placeholder
 * owner. `file` is the file's path relative to the repository root: relative links are resolved
 * from its folder, and the problems name it.
 */
export function checkMarkdownLinks(file: string, markdown: string, repo: RepoFiles): LinkProblem[] {
	const problems: LinkProblem[] = [];
	const ownAnchors = headingAnchors(markdown);
	for (const { line, target } of markdownLinks(markdown)) {
		const problem = linkProblem(file, target, repo, ownAnchors);
		if (problem) problems.push({ file, line, target, problem });
	}
	markdown.split('\n').forEach((text, index) => {
		if (text.toLowerCase().includes(PLACEHOLDER_OWNER)) {
			problems.push({ file, line: index + 1, target: PLACEHOLDER_OWNER, problem: 'the placeholder owner: links into the repository are relative' });
		}
	});
	return problems.sort((a, b) => a.line - b.line);
}
