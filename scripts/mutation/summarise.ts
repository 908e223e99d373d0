/**
 * Writes test/mutation/summary.json from a Stryker report, then the figures the docs state from it
 * (README.md's score for `npm run test:mutation`, the table and the list of changed files in
 * docs/mutation-testing.md).
 *
 *   npx tsx scripts/mutation/summarise.ts [report.json] [--date YYYY-MM-DD] [--machine TEXT] [--root DIR] [--reasons FILE]…
 *
 * The report is Stryker's JSON (default: its incremental file, .cache/mutation/stryker-incremental.json;
 * reports/mutation/mutation.json after a run holds the same). Only the files the run mutated (the
 * report's `mutate` patterns) replace their entries; the others keep theirs, with their own date.
 * A file the run mutated with nothing in it to mutate is entered with no mutants.
 * The date defaults to the report's, the machine to this one's. Counts and scores are Stryker's
 * own (mutation-testing-metrics, the package its reporters use).
 *
 * `--reasons` files (JSON arrays of `{ file, mutator, replacement, code, reason }`, `code` being
 * the mutated line's text) give the reasons of survivors gone through since: each replaces the
 * reason of the same mutant, in any file of the summary.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, matchesGlob } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';

import { calculateMetrics } from 'mutation-testing-metrics';

import type { Counts, FileSummary, GroupSummary, Summary, Survivor } from './summary';
import {
	docsChanged,
	docsTable,
	DOCS_PATH,
	folderOf,
	NOT_GONE_THROUGH,
	publishedFiles,
	readSummary,
	replaceBlock,
	REPO_ROOT,
	shortHash,
	SUMMARY_PATH,
	withReadmeFigure,
} from './summary';

type ReportFiles = Parameters<typeof calculateMetrics>[0];
type ReportFile = ReportFiles[string];
type ReportMutant = ReportFile['mutants'][number];
interface Report {
	files: ReportFiles;
	config?: { mutate?: string[] };
	framework?: { version?: string };
}

const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const CODE_LENGTH = 160;

function countsOf(files: ReportFiles): Counts {
	const m = calculateMetrics(files).metrics;
	const score = Number.isNaN(m.mutationScore) ? null : Math.round(m.mutationScore * 100) / 100;
	const { killed, timeout, survived, noCoverage, compileErrors, runtimeErrors, ignored } = m;
	return { killed, timeout, survived, noCoverage, compileErrors, runtimeErrors, ignored, score };
}

/** Whether the run mutated the file: Stryker's `mutate` patterns, `!` to leave out, `:lines` ranges. */
function mutatedBy(patterns: string[] | undefined, file: string): boolean {
	if (!patterns) return true;
	const hits = (pattern: string) => matchesGlob(file, pattern.replace(/:\d+(:\d+)?-\d+(:\d+)?$/, '').replace(/^\.\//, ''));
	return patterns.some((p) => !p.startsWith('!') && hits(p)) && !patterns.some((p) => p.startsWith('!') && hits(p.slice(1)));
}

const keyOf = (file: string, s: Pick<Survivor, 'mutator' | 'replacement' | 'code'>) => JSON.stringify([file, s.mutator, s.replacement, s.code]);

/** The previous reasons by mutant, several per key when several alike mutants share a line. */
function reasonsOf(previous: Summary | undefined): Map<string, string[]> {
	const reasons = new Map<string, string[]>();
	for (const [file, entry] of Object.entries(previous?.files ?? {})) {
		for (const survivor of entry.survivors) reasons.set(keyOf(file, survivor), [...(reasons.get(keyOf(file, survivor)) ?? []), survivor.reason]);
	}
	return reasons;
}

function survivorsOf(file: string, result: ReportFile, reasons: Map<string, string[]>): Survivor[] {
	const lines = result.source.split('\n');
	const order = (m: ReportMutant) => (m.status === 'Survived' ? 0 : 1) * 1e9 + m.location.start.line;
	return result.mutants
		.filter((m) => UNDETECTED.has(m.status))
		.sort((a, b) => order(a) - order(b))
		.map((m) => {
			const line = m.location.start.line;
			const found = { line, mutator: m.mutatorName, replacement: m.replacement ?? m.mutatorName, code: (lines[line - 1] ?? '').trim().slice(0, CODE_LENGTH) };
			const reason = reasons.get(keyOf(file, found))?.shift() ?? NOT_GONE_THROUGH;
			return { ...found, ...(m.status === 'NoCoverage' ? { status: 'NoCoverage' as const } : {}), reason };
		});
}

type GivenReason = Pick<Survivor, 'mutator' | 'replacement' | 'code' | 'reason'> & { file: string };

/**
 * The summary's files with the given reasons in place of those of the same mutants. Alike mutants
 * of one line take the reasons given for them in turn, the last one for all that remain.
 */
function withGivenReasons(files: Record<string, FileSummary>, given: GivenReason[]): Record<string, FileSummary> {
	const reasons = new Map<string, string[]>();
	for (const { file, reason, ...mutant } of given) {
		const key = keyOf(file, { ...mutant, code: mutant.code.trim().slice(0, CODE_LENGTH) });
		reasons.set(key, [...(reasons.get(key) ?? []), reason]);
	}
	return Object.fromEntries(
		Object.entries(files).map(([file, entry]) => [
			file,
			{
				...entry,
				survivors: entry.survivors.map((survivor) => {
					const given = reasons.get(keyOf(file, survivor)) ?? [];
					return { ...survivor, reason: (given.length > 1 ? given.shift() : given[0]) ?? survivor.reason };
				}),
			},
		]),
	);
}

/** Counts back into mutants, so Stryker's own metrics add up the folders and the whole. */
function asReportFiles(entries: [string, Counts][]): ReportFiles {
	const statuses = [
		['Killed', 'killed'],
		['Timeout', 'timeout'],
		['Survived', 'survived'],
		['NoCoverage', 'noCoverage'],
		['CompileError', 'compileErrors'],
		['RuntimeError', 'runtimeErrors'],
		['Ignored', 'ignored'],
	] as const;
	const location = { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
	return Object.fromEntries(
		entries.map(([file, counts]) => [
			file,
			{
				language: 'typescript',
				source: '',
				mutants: statuses.flatMap(([status, field]) =>
					Array.from({ length: counts[field] }, (_, at) => ({ id: `${status}${at}`, mutatorName: '', location, status })),
				),
			},
		]),
	);
}

const group = (entries: [string, Counts][]): GroupSummary => ({ files: entries.length, ...countsOf(asReportFiles(entries)) });

/**
 * The summary after this run. A file no longer in the tree (`present` says) is left out, whatever
 * an earlier run or the report holds of it: its code is gone or moved, and a moved file is
 * measured again at its new path.
 */
export function summarise(
	report: Report,
	previous: Summary | undefined,
	run: { date: string; machine: string },
	present: (file: string) => boolean,
	given: GivenReason[] = [],
): Summary {
	const reasons = reasonsOf(previous);
	let files: Record<string, FileSummary> = Object.fromEntries(Object.entries(previous?.files ?? {}).filter(([file]) => present(file)));
	for (const [file, result] of Object.entries(report.files)) {
		const before = previous?.files[file];
		if (!present(file) || (before && !mutatedBy(report.config?.mutate, file))) continue;
		const measured = { sha256: shortHash(result.source), ...countsOf({ [file]: result }), survivors: survivorsOf(file, result, reasons) };
		// The same source and results: Stryker reused them, so they keep the date and machine they were measured on.
		const same = before && isDeepStrictEqual({ ...before, ...run }, { ...run, ...measured });
		files[file] = same ? before : { ...run, ...measured };
	}
	files = withGivenReasons(files, given);
	const sorted = Object.keys(files).sort();
	const folders = [...new Set(sorted.map(folderOf))].sort();
	const entries = (names: string[]) => names.map((name): [string, Counts] => [name, files[name]]);
	return {
		about: `Written by scripts/mutation/summarise.ts from Stryker's reports: see ${DOCS_PATH}.`,
		stryker: report.framework?.version ?? previous?.stryker ?? 'unknown',
		total: group(entries(sorted)),
		folders: Object.fromEntries(folders.map((folder) => [folder, group(entries(sorted.filter((file) => folderOf(file) === folder)))])),
		files: Object.fromEntries(sorted.map((file) => [file, files[file]])),
	};
}

/** Pretty JSON with one line per survivor, so the file stays small and a diff shows each mutant. */
export function formatSummary(summary: Summary): string {
	const pretty = JSON.stringify(summary, null, '\t');
	return `${pretty.replace(/\n\t{4}\{\n[\s\S]*?\n\t{4}\}/g, (object) => `\n\t\t\t\t${JSON.stringify(JSON.parse(object))}`)}\n`;
}

function main(): void {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: { date: { type: 'string' }, machine: { type: 'string' }, root: { type: 'string' }, reasons: { type: 'string', multiple: true } },
	});
	const root = values.root ?? REPO_ROOT;
	const reportPath = positionals[0] ?? join(root, '.cache', 'mutation', 'stryker-incremental.json');
	const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
	// Stryker leaves out a file it found nothing to mutate in (types, a constant table): mutated
	// by the run all the same, it is measured, with no mutant.
	const mutate = report.config?.mutate;
	for (const file of mutate ? publishedFiles(root) : []) {
		if (!Object.hasOwn(report.files, file) && mutatedBy(mutate, file)) {
			report.files[file] = { language: 'typescript', source: readFileSync(join(root, file), 'utf8'), mutants: [] };
		}
	}
	let previous: Summary | undefined;
	try {
		previous = readSummary(root);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
	}
	const date = values.date ?? statSync(reportPath).mtime.toISOString().slice(0, 10);
	const machine = values.machine ?? `a ${cpus().length}-core ${cpus()[0]?.model.trim() ?? 'machine'} (${Math.round(totalmem() / 2 ** 30)} GB)`;
	const given = (values.reasons ?? []).flatMap((path) => JSON.parse(readFileSync(path, 'utf8')) as GivenReason[]);
	const summary = summarise(report, previous, { date, machine }, (file) => existsSync(join(root, file)), given);

	mkdirSync(dirname(join(root, SUMMARY_PATH)), { recursive: true });
	writeFileSync(join(root, SUMMARY_PATH), formatSummary(summary));
	const readme = join(root, 'README.md');
	writeFileSync(readme, withReadmeFigure(readFileSync(readme, 'utf8'), summary.total.score?.toFixed(2) ?? '–'));
	const docs = join(root, DOCS_PATH);
	let text = replaceBlock(readFileSync(docs, 'utf8'), docsTable(summary));
	if (text.includes('<!-- mutation-changed:')) text = replaceBlock(text, docsChanged(summary, new Date().toISOString().slice(0, 10), root));
	writeFileSync(docs, text);
	console.log(`${SUMMARY_PATH}: ${Object.keys(summary.files).length} files, ${summary.total.score?.toFixed(2) ?? '–'} % over all`);
}

main();
