/**
 * The committed summary of the mutation runs, test/mutation/summary.json (written by
 * summarise.ts from Stryker's report): per file the counts, the score and a short sha256 of the
 * source as measured, per folder and overall totals, each surviving mutant with why it survives.
 * What the docs state is generated from it: README.md's figure for `npm run test:mutation` and the
 * table in docs/mutation-testing.md. This module reads and checks; it needs no Stryker package.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const SUMMARY_PATH = join('test', 'mutation', 'summary.json');
export const DOCS_PATH = join('docs', 'mutation-testing.md');
export const NOT_GONE_THROUGH = 'not gone through';
const SUMMARISE = 'npx tsx scripts/mutation/summarise.ts';
const TABLE_START = `<!-- mutation-summary: generated from ${SUMMARY_PATH} by \`${SUMMARISE}\`; do not edit by hand -->`;
const TABLE_END = '<!-- mutation-summary:end -->';
const CHANGED_START = `<!-- mutation-changed: written by \`${SUMMARISE}\` when it ran -->`;
const CHANGED_END = '<!-- mutation-changed:end -->';
const README_BULLET = '- `npm run test:mutation`';

/** Mutants by status, as Stryker counts them; the score is Stryker's, null when no mutant counts. */
export interface Counts {
	killed: number;
	timeout: number;
	survived: number;
	noCoverage: number;
	compileErrors: number;
	runtimeErrors: number;
	ignored: number;
	score: number | null;
}

export interface Survivor {
	line: number;
	mutator: string;
	replacement: string;
	/** The mutated line as measured, trimmed: with file, mutator and replacement, what names the mutant across runs. */
	code: string;
	/** Set for a mutant no test reached; a survivor has none. */
	status?: 'NoCoverage';
	reason: string;
}

export interface FileSummary extends Counts {
	date: string;
	machine: string;
	/** sha256 of the source as measured, first 12 hex digits. */
	sha256: string;
	survivors: Survivor[];
}

export type GroupSummary = Counts & { files: number };

export interface Summary {
	about: string;
	stryker: string;
	total: GroupSummary;
	folders: Record<string, GroupSummary>;
	files: Record<string, FileSummary>;
}

export const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** The folder a file is counted in: `nodes/MultiChannelNotification/<folder>/`, or its own folder. */
export function folderOf(file: string): string {
	const parts = file.split('/');
	const depth = parts[0] === 'nodes' ? 3 : 1;
	return `${parts.slice(0, Math.min(depth, parts.length - 1)).join('/')}/`;
}

export function readSummary(root = REPO_ROOT): Summary {
	return JSON.parse(readFileSync(join(root, SUMMARY_PATH), 'utf8')) as Summary;
}

const percent = (score: number | null) => (score === null ? '–' : `${score.toFixed(2)} %`);
const n = (value: number) => value.toLocaleString('en-US');

function tableRow(name: string, group: GroupSummary, strong = false): string {
	const score = strong ? `**${percent(group.score)}**` : percent(group.score);
	const counts = [group.killed, group.timeout, group.survived, group.noCoverage, group.compileErrors, group.runtimeErrors, group.ignored];
	return `| ${name} | ${group.files} | ${score} | ${counts.map(n).join(' | ')} |`;
}

/** When and where the files were measured: one entry per date and machine. */
function runsOf(summary: Summary): string[] {
	const runs = new Map<string, number>();
	for (const file of Object.values(summary.files)) {
		const key = `${file.date} on ${file.machine}`;
		runs.set(key, (runs.get(key) ?? 0) + 1);
	}
	return [...runs].sort().map(([run, files]) => `${run} (${files} file${files === 1 ? '' : 's'})`);
}

/** The generated part of docs/mutation-testing.md: when and where, the table, the survivors. */
export function docsTable(summary: Summary): string {
	const survivors = Object.values(summary.files).flatMap((file) => file.survivors);
	const explained = survivors.filter((survivor) => survivor.reason !== NOT_GONE_THROUGH).length;
	return [
		TABLE_START,
		`StrykerJS ${summary.stryker}, measured ${runsOf(summary).join('; ')}.`,
		'',
		'| Folder | Files | Score | Killed | Timed out | Survived | No coverage | Did not compile | Failed when loaded | Static (not run) |',
		'| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
		...Object.entries(summary.folders).map(([folder, group]) => tableRow(`\`${folder}\``, group)),
		tableRow('**all files**', summary.total, true),
		'',
		`Survivors and mutants no test reached: ${n(survivors.length)}; ${n(explained)} with a reason in the summary, ` +
			`${n(survivors.length - explained)} "${NOT_GONE_THROUGH}".`,
		TABLE_END,
	].join('\n');
}

/** The dated list of files changed since their run, as summarise.ts writes it into the docs. */
export function docsChanged(summary: Summary, today: string, root = REPO_ROOT): string {
	const changed = changedFiles(summary, root);
	const folders = [...new Set(changed.map(folderOf))];
	const inFolder = (folder: string) => changed.filter((file) => folderOf(file) === folder).map((file) => file.slice(folder.length));
	const unmeasured = changed.filter((line) => line.endsWith(NOT_MEASURED)).length;
	const files = Object.keys(summary.files).length;
	if (changed.length === 0) return [CHANGED_START, `On ${today}, all ${files} files had their scores measured on the code they have now.`, CHANGED_END].join('\n');
	return [
		CHANGED_START,
		`On ${today}, ${changed.length - unmeasured} of ${files} files differed from the code their scores were measured on, ` +
			`so those scores are of older code, and ${unmeasured} had no score yet:`,
		'',
		...folders.map((folder) => `- \`${folder}\`: ${inFolder(folder).join(', ')}`),
		CHANGED_END,
	].join('\n');
}

function blockBounds(text: string, start: string, end: string): [number, number] | undefined {
	const from = text.indexOf(start.slice(0, start.indexOf(':') + 1));
	const to = text.indexOf(end);
	return from < 0 || to < from ? undefined : [from, to + end.length];
}

/** The text with the block between `start` and `end` (matched by the start's name) replaced. */
export function replaceBlock(text: string, block: string): string {
	const [start, end] = block.startsWith(CHANGED_START) ? [CHANGED_START, CHANGED_END] : [TABLE_START, TABLE_END];
	const bounds = blockBounds(text, start, end);
	if (!bounds) throw new Error(`no block ${start.slice(0, start.indexOf(':'))} --> … ${end} to replace`);
	return `${text.slice(0, bounds[0])}${block}${text.slice(bounds[1])}`;
}

/** README.md's bullet on `npm run test:mutation`: its lines, from the first to the last. */
function readmeBullet(lines: string[]): [number, number] | undefined {
	const first = lines.findIndex((line) => line.startsWith(README_BULLET));
	if (first < 0) return undefined;
	let last = first;
	while (last + 1 < lines.length && lines[last + 1].startsWith(' ')) last++;
	return [first, last];
}

const FIGURE = /(\d+(?:\.\d+)?) %/;

/** The first score README.md's `npm run test:mutation` bullet states. */
export function readmeFigure(readme: string): string | undefined {
	const lines = readme.split('\n');
	const bullet = readmeBullet(lines);
	return bullet && FIGURE.exec(lines.slice(bullet[0], bullet[1] + 1).join('\n'))?.[1];
}

export function withReadmeFigure(readme: string, score: string): string {
	const lines = readme.split('\n');
	const bullet = readmeBullet(lines);
	if (!bullet || readmeFigure(readme) === undefined) throw new Error(`README.md has no score in its ${README_BULLET} bullet`);
	const text = lines.slice(bullet[0], bullet[1] + 1).join('\n').replace(FIGURE, `${score} %`);
	return [...lines.slice(0, bullet[0]), text, ...lines.slice(bullet[1] + 1)].join('\n');
}

/** Where README.md or the docs do not state what the summary holds. */
export function figureProblems(root = REPO_ROOT): string[] {
	const summary = readSummary(root);
	const score = percent(summary.total.score).replace(' %', '');
	const problems: string[] = [];
	const stated = readmeFigure(readFileSync(join(root, 'README.md'), 'utf8'));
	if (stated !== score) problems.push(`README.md states ${stated ?? 'no'} % for npm run test:mutation; ${SUMMARY_PATH} holds ${score} %`);
	const docs = readFileSync(join(root, DOCS_PATH), 'utf8');
	const bounds = blockBounds(docs, TABLE_START, TABLE_END);
	if (!bounds || docs.slice(...bounds) !== docsTable(summary)) {
		problems.push(`${DOCS_PATH}'s generated table differs from ${SUMMARY_PATH}: run ${SUMMARISE}`);
	}
	return problems;
}

const NOT_MEASURED = '(not measured yet)';

// The published code Stryker mutates: every .ts file under the folders of stryker.config.json's
// `mutate` patterns, each of the form `folder/**/*.ts`.
export function publishedFiles(root: string): string[] {
	const { mutate } = JSON.parse(readFileSync(join(root, 'stryker.config.json'), 'utf8')) as { mutate: string[] };
	return mutate.flatMap((pattern) => {
		const folder = /^([\w.-]+)\/\*\*\/\*\.ts$/.exec(pattern)?.[1];
		if (folder === undefined) throw new Error(`stryker.config.json: mutate pattern ${pattern} is not of the form folder/**/*.ts`);
		return existsSync(join(root, folder))
			? readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
					.filter((name) => name.endsWith('.ts'))
					.map((name) => `${folder}/${name.split(sep).join('/')}`)
			: [];
	});
}

/**
 * The files whose source today differs from the source their results were measured on, those no
 * longer there, and the published files with no results yet (new, or moved since their run).
 */
export function changedFiles(summary: Summary, root = REPO_ROOT): string[] {
	const measured = Object.entries(summary.files).flatMap(([file, { sha256 }]) => {
		const path = join(root, file);
		if (!existsSync(path)) return [`${file} (no longer there)`];
		return shortHash(readFileSync(path, 'utf8')) === sha256 ? [] : [file];
	});
	const unmeasured = publishedFiles(root)
		.filter((file) => !Object.hasOwn(summary.files, file))
		.sort()
		.map((file) => `${file} ${NOT_MEASURED}`);
	return [...measured, ...unmeasured];
}
