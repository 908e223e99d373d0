/**
 * The Markdown link rule (scripts/release/markdown-links.ts): relative links and images that name
 * files, folders and headings of the repository; no absolute link into this repository; no
 * placeholder owner. First the rule on a small made-up repository, then on every Markdown file of
 * this one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { LinkProblem } from '../../scripts/release/markdown-links';
import {
	checkMarkdownLinks,
	formatLinkProblem,
	headingAnchors,
	markdownFiles,
	repoFiles,
	repoFilesOf,
} from '../../scripts/release/markdown-links';
import { REPO_ROOT } from '../../scripts/release/repository';

const files: Record<string, string> = {
	'README.md': '# Title\n\n## Part two\n',
	'RELEASING.md': '# Releasing\n\n## Every release\n',
	'docs/guide.md': '# Guide\n\n## Running in queue mode\n',
	'docs/images/shot.png': '',
	'examples/flow.json': '{}',
};
const repo = repoFilesOf(Object.keys(files), (path) => {
	if (!(path in files)) throw new Error(`read of ${path}, which is not in the made-up repository`);
	return files[path];
});

/** The problems of `file` (of the made-up repository, with its headings) with the line `link` added. */
const problemsOf = (file: string, link: string): string[] =>
	checkMarkdownLinks(file, `${files[file] ?? ''}\n${link}`, repo).map((problem) => problem.problem);

describe('relative links and images', () => {
	it.each([
		['README.md', '[guide](docs/guide.md)'],
		['README.md', '[guide](./docs/guide.md)'],
		['README.md', '[queue mode](docs/guide.md#running-in-queue-mode)'],
		['README.md', '![shot](docs/images/shot.png)'],
		['README.md', '![shot](docs/images/shot.png "with a title")'],
		['README.md', '[docs folder](docs/) and [examples](examples)'],
		['README.md', '[part two](#part-two) [same file by name](README.md#part-two)'],
		['README.md', '[releasing](RELEASING.md#every-release)'],
		['docs/guide.md', '[readme](../README.md#title) ![shot](images/shot.png) [flow](../examples/flow.json) [top](#guide)'],
		['docs/guide.md', '<img src="images/shot.png" alt="shot" width="240"> <a href="../RELEASING.md">releasing</a>'],
	])('%s: %s is fine', (file, link) => {
		expect(problemsOf(file, link)).toEqual([]);
	});

	it.each([
		['README.md', '[missing](docs/missing.md)', 'docs/missing.md is not in the repository'],
		['README.md', '![missing](docs/images/missing.png)', 'docs/images/missing.png is not in the repository'],
		['README.md', '<img src="docs/images/missing.png">', 'docs/images/missing.png is not in the repository'],
		['README.md', '[case matters](docs/Guide.md)', 'docs/Guide.md is not in the repository'],
		// Resolved from the linking file's folder: docs/README.md, which does not exist.
		['docs/guide.md', '[readme](README.md)', 'docs/README.md is not in the repository'],
		['README.md', '[outside](../other/README.md)', 'points outside the repository'],
		['README.md', '[rooted](/docs/guide.md)', 'starts at /: write the path relative to this file'],
		['README.md', '[anchor](#nope)', 'no heading of this file gives #nope'],
		['README.md', '[anchor](README.md#nope)', 'no heading of this file gives #nope'],
		['README.md', '[anchor](docs/guide.md#nope)', 'no heading of docs/guide.md gives #nope'],
		['README.md', '[anchor](examples/flow.json#nope)', "#nope: only a Markdown file's headings give anchors"],
	])('%s: %s → %s', (file, link, problem) => {
		expect(problemsOf(file, link)).toEqual([problem]);
	});
});

describe('absolute links', () => {
	const absolute = 'an absolute link into this repository: make it relative to this file';

	it.each([
		'[n8n](https://n8n.io)',
		'[mail](mailto:maintainers@example.com)',
		'[another repository](https://github.com/n8n-io/n8n/blob/master/README.md)',
		'[a longer name](https://github.com/acme/n8n-nodes-multichannel-notification-extra/blob/main/README.md)',
		'<https://docs.n8n.io>',
	])('%s is fine', (link) => {
		expect(problemsOf('README.md', link)).toEqual([]);
	});

	it.each([
		'[guide](https://github.com/acme/n8n-nodes-multichannel-notification/blob/main/docs/guide.md)',
		'![shot](https://raw.githubusercontent.com/acme/n8n-nodes-multichannel-notification/main/docs/images/shot.png)',
		'[repository](https://github.com/acme/n8n-nodes-multichannel-notification)',
		'[issues](https://github.com/Acme/N8N-Nodes-Multichannel-Notification/issues)',
		'<https://github.com/acme/n8n-nodes-multichannel-notification#readme>',
		'[ref]: https://github.com/acme/n8n-nodes-multichannel-notification/blob/main/README.md',
	])('%s must be relative', (link) => {
		expect(problemsOf('README.md', link)).toEqual([absolute]);
	});

	it.each(['[plain](http://example.com)', '[ftp](ftp://example.com/file)', '[script](javascript:alert(1))'])('%s: only https: and mailto:', (link) => {
		expect(problemsOf('README.md', link)).toEqual(['only relative, https: and mailto: links']);
	});

	it('the placeholder owner is refused on every line it is on, inside code too', () => {
		const text = [
			'# Title',
			'[old](https://github.com/your-github-owner/n8n-nodes-multichannel-notification/blob/main/RELEASING.md)',
			'Run it for `your-github-owner`.',
			'```',
			'git clone https://github.com/Your-GitHub-Owner/n8n-nodes-multichannel-notification',
			'```',
		].join('\n');
		expect(checkMarkdownLinks('README.md', text, repo).map((problem) => `${problem.line} ${problem.problem}`)).toEqual([
			`2 ${absolute}`,
			'2 the placeholder owner: links into the repository are relative',
			'3 the placeholder owner: links into the repository are relative',
			'5 the placeholder owner: links into the repository are relative',
		]);
	});
});

describe('which links are read', () => {
	it('inline links and images, reference definitions, autolinks and HTML src/href, but nothing in code', () => {
		const text = [
			'# Title',
			'[a](missing-a.md) and ![b](missing-b.png)',
			'[c]: missing-c.md',
			'<https://github.com/acme/n8n-nodes-multichannel-notification>',
			'<img src="missing-d.png"> <a href="missing-e.md">e</a>',
			'Code span: `[f](missing-f.md)`',
			'```markdown',
			'[g](missing-g.md)',
			'```',
			'~~~',
			'![h](missing-h.png)',
			'~~~',
			'[i](missing-i.md)',
		].join('\n');
		expect(checkMarkdownLinks('README.md', text, repo).map((problem) => `${problem.line} ${problem.target}`)).toEqual([
			'2 missing-a.md',
			'2 missing-b.png',
			'3 missing-c.md',
			'4 https://github.com/acme/n8n-nodes-multichannel-notification',
			'5 missing-d.png',
			'5 missing-e.md',
			'13 missing-i.md',
		]);
	});

	it('a failure names the file, the line and the link', () => {
		const [problem] = checkMarkdownLinks('docs/guide.md', '# Guide\n\nSee [the flow](../examples/nope.json).', repo);
		expect(problem).toEqual<LinkProblem>({ file: 'docs/guide.md', line: 3, target: '../examples/nope.json', problem: 'examples/nope.json is not in the repository' });
		expect(formatLinkProblem(problem)).toBe('docs/guide.md:3: ../examples/nope.json: examples/nope.json is not in the repository');
	});

	it('headingAnchors follows GitHub: punctuation dropped, repeats numbered, links by their text, code ignored', () => {
		const anchors = headingAnchors(
			[
				'## Options (every send)',
				'## Chat Message → Send Template',
				'## A',
				'## A',
				'## Compatibility: n8n 1.x and 2.x',
				'## See [the guide](docs/guide.md)',
				'```',
				'# not a heading',
				'```',
			].join('\n'),
		);
		expect([...anchors]).toEqual(['options-every-send', 'chat-message--send-template', 'a', 'a-1', 'compatibility-n8n-1x-and-2x', 'see-the-guide']);
	});
});

describe('repoFiles: the repository as git sees it', () => {
	it('tracked files and new files git does not ignore, not ignored or deleted ones', () => {
		const root = mkdtempSync(join(tmpdir(), 'mcn-links-'));
		try {
			const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: 'pipe' });
			git('init', '--quiet');
			mkdirSync(join(root, 'docs'));
			mkdirSync(join(root, 'built'));
			writeFileSync(join(root, '.gitignore'), 'built/\n');
			writeFileSync(join(root, 'tracked.md'), '# Tracked\n');
			writeFileSync(join(root, 'gone.md'), '# Gone\n');
			writeFileSync(join(root, 'docs', 'new.md'), '# New\n');
			writeFileSync(join(root, 'built', 'out.js'), '');
			git('add', 'tracked.md', 'gone.md', '.gitignore');
			unlinkSync(join(root, 'gone.md'));

			const listed = repoFiles(root);
			expect([...listed.files].sort()).toEqual(['.gitignore', 'docs/new.md', 'tracked.md']);
			expect([...listed.folders]).toEqual(['docs']);
			expect(listed.read('docs/new.md')).toBe('# New\n');
			expect(checkMarkdownLinks('tracked.md', '[new](docs/new.md) [built](built/out.js) [gone](gone.md)', listed).map((p) => p.target)).toEqual([
				'built/out.js',
				'gone.md',
			]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});
});

describe("this repository's Markdown", () => {
	const here = repoFiles();
	const markdown = markdownFiles(here);

	it('is read from git: node_modules/ is on disk but not in the list', () => {
		expect(existsSync(join(REPO_ROOT, 'node_modules', 'jest', 'package.json'))).toBe(true);
		expect([...here.files].filter((file) => file.startsWith('node_modules/'))).toEqual([]);
		expect(markdown).toEqual(
			expect.arrayContaining(['README.md', 'CHANGELOG.md', 'RELEASING.md', 'docs/running-in-n8n.md', 'docs/ai-agents.md', 'examples/README.md']),
		);
	});

	it.each(markdown)('%s: every link and image follows the rule', (file) => {
		expect(checkMarkdownLinks(file, here.read(file), here).map(formatLinkProblem)).toEqual([]);
	});
});
