/**
 * The mutation score the docs state is the one test/mutation/summary.json holds
 * (scripts/mutation/summary.ts): README.md's figure and docs/mutation-testing.md's table. Files
 * whose code changed since their run are listed (their scores are of older code). Stryker's
 * incremental file, a cache of every mutant, stays out of git.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { changedFiles, figureProblems, readSummary, REPO_ROOT, SUMMARY_PATH } from '../../scripts/mutation/summary';

const DOCS = join('docs', 'mutation-testing.md');

describe('the mutation summary in the checkout', () => {
	it('README.md and docs/mutation-testing.md state the figures of test/mutation/summary.json', () => {
		expect(figureProblems()).toEqual([]);
	});

	it('names the files whose code changed since their run', () => {
		const summary = readSummary();
		const changed = changedFiles(summary);
		if (changed.length > 0) console.warn(`Changed since their mutation run (their scores are of older code):\n${changed.join('\n')}`);
		// A changed or vanished file has results; a file with none is published code not measured yet.
		expect(changed.filter((line) => !(line.split(' ')[0] in summary.files) && !line.endsWith(' (not measured yet)'))).toEqual([]);
	});

	it('keeps Stryker’s incremental file in the git-ignored .cache/, not in git', () => {
		const config = JSON.parse(readFileSync(join(REPO_ROOT, 'stryker.config.json'), 'utf8')) as { incrementalFile: string };
		const tracked = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' });

		expect(config.incrementalFile).toBe('.cache/mutation/stryker-incremental.json');
		// .cache itself, since it may be a link to another checkout's, whose inside git does not look at.
		expect(execFileSync('git', ['check-ignore', '.cache'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim()).toBe('.cache');
		expect(tracked).not.toContain('stryker-incremental');
	});
});

describe('the mutation summary on a copy', () => {
	let copy: string;
	const edit = (file: string, change: (text: string) => string) =>
		writeFileSync(join(copy, file), change(readFileSync(join(copy, file), 'utf8')));

	beforeEach(() => {
		copy = mkdtempSync(join(tmpdir(), 'mcn-mutation-summary-'));
		for (const folder of ['nodes', 'credentials']) cpSync(join(REPO_ROOT, folder), join(copy, folder), { recursive: true });
		mkdirSync(join(copy, 'docs'));
		mkdirSync(join(copy, 'test', 'mutation'), { recursive: true });
		for (const file of ['README.md', 'stryker.config.json', DOCS, SUMMARY_PATH]) cpSync(join(REPO_ROOT, file), join(copy, file));
	});

	afterEach(() => rmSync(copy, { recursive: true, force: true }));

	it('refuses README’s figure edited without the summary', () => {
		const score = readSummary(copy).total.score?.toFixed(2);
		edit('README.md', (text) => text.replace(`${score} %`, '99.99 %'));

		expect(figureProblems(copy)).toEqual([`README.md states 99.99 % for npm run test:mutation; ${SUMMARY_PATH} holds ${score} %`]);
	});

	it('refuses the docs table edited without the summary, and the summary edited without the docs', () => {
		edit(DOCS, (text) => text.replace('| **all files** |', '| **every file** |'));
		expect(figureProblems(copy)).toEqual([`${DOCS}'s generated table differs from ${SUMMARY_PATH}: run npx tsx scripts/mutation/summarise.ts`]);

		cpSync(join(REPO_ROOT, DOCS), join(copy, DOCS));
		edit(SUMMARY_PATH, (text) => text.replace(/"killed": \d+/, '"killed": 100000'));
		expect(figureProblems(copy)).toEqual([`${DOCS}'s generated table differs from ${SUMMARY_PATH}: run npx tsx scripts/mutation/summarise.ts`]);
	});

	it('lists a file edited after its run as changed, a deleted one as gone, and a new one as not measured yet', () => {
		const summary = readSummary(copy);
		const [first, second] = Object.keys(summary.files).filter((file) => !changedFiles(summary, copy).some((line) => line.startsWith(file)));
		edit(first, (text) => `${text}\n`);
		rmSync(join(copy, second));
		const added = 'nodes/MultiChannelNotification/helpers/brandNew.ts';
		writeFileSync(join(copy, added), 'export const brandNew = 1;\n');

		const changed = changedFiles(summary, copy);

		expect(changed).toContain(first);
		expect(changed).toContain(`${second} (no longer there)`);
		expect(changed).toContain(`${added} (not measured yet)`);
	});

	it('looks for files not measured yet where stryker.config.json says it mutates', () => {
		const summary = readSummary(copy);
		mkdirSync(join(copy, 'shared'));
		writeFileSync(join(copy, 'shared', 'extra.ts'), 'export const extra = 1;\n');
		expect(changedFiles(summary, copy)).not.toContain('shared/extra.ts (not measured yet)');

		edit('stryker.config.json', (text) => text.replace('"credentials/**/*.ts"', '"credentials/**/*.ts", "shared/**/*.ts"'));
		expect(changedFiles(summary, copy)).toContain('shared/extra.ts (not measured yet)');

		edit('stryker.config.json', (text) => text.replace('"shared/**/*.ts"', '"shared/*.ts"'));
		expect(() => changedFiles(summary, copy)).toThrow('mutate pattern shared/*.ts is not of the form folder/**/*.ts');
	});
});
