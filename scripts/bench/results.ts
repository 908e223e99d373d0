/**
 * Where a run of `npm run bench` goes: the line each leg prints, the raw results (.cache/bench/),
 * and for a full run its summary (BENCHMARKS.json, summary.ts) and BENCHMARKS.md with its charts
 * and their page (docs/benchmarks-charts.md), which `--render` rewrites from BENCHMARKS.json alone.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { measuredLine } from '../release/measured';
import type { LegResult } from './common';
import { REPO_ROOT, median, timelineText } from './common';
import { renderReport } from './report';
import { CHARTS_PAGE, chartsOf, chartsPage } from './reportCharts';
import type { Saved, Summary } from './summary';
import { readSummary, summarise, summaryText } from './summary';

/** A leg's line for one item count: rates, times, 429s, in flight, failures, memory, timeline, problem. */
export function resultText({ spec, reps, memory, problem }: LegResult): string {
	const rates = reps.map((rep) => Math.round(rep.itemsPerSecond));
	const list = (figure: (rep: LegResult['reps'][number]) => number | string) => reps.map(figure).join(', ');
	const timeline = reps[0]?.timeline;
	return [
		`${spec.items.toLocaleString('en-US')} items: ${rates.length ? `${Math.round(median(rates))} items/s (${rates.join(', ')})` : 'no result'}`,
		...(reps.length
			? [`${list((rep) => (rep.ms / 1000).toFixed(2))} s`, `429s ${list((rep) => rep.rateLimited)}`, `max in flight ${Math.max(...reps.map((rep) => rep.maxInFlight))}`]
			: []),
		...(reps.some((rep) => rep.failedItems > 0) ? [`failed items ${list((rep) => rep.failedItems)}, delivered ${list((rep) => rep.delivered)}`] : []),
		...(memory ? [`RSS ${memory.baselineMb} → ${memory.peakMb} MB (+${memory.growthMb})`] : []),
		...(timeline ? [`delivered/429 per second: ${timelineText(timeline)}`] : []),
		...(problem ? [`PROBLEM: ${problem.split('\n')[0]}`] : []),
	].join(' · ');
}

/**
 * The part of BENCHMARKS.md from KEPT_MARKER on is measured by other scripts (the Send and Wait
 * figures come from a queue-mode check of real n8n): a rewrite keeps it as it is.
 */
const KEPT_MARKER = '<!-- Measured by other scripts: npm run bench keeps everything from here on. -->';
/** A full run's summary, kept beside BENCHMARKS.md so every figure in it traces to a run. */
const SUMMARY_FILE = join(REPO_ROOT, 'BENCHMARKS.json');
const CACHE_DIR = join(REPO_ROOT, '.cache', 'bench');
const CHARTS_FOLDER = join('docs', 'images', 'bench');

/**
 * A full run's report as files (paths from the repository root): BENCHMARKS.md (the report, the
 * line naming the code it measured, then the kept part of `oldReport`), its charts and their page;
 * and the console's tables.
 */
export function reportFiles(summary: Summary, oldReport: string): { files: Record<string, string>; console: string } {
	const { console: tables, markdown } = renderReport(summary);
	const { legs, bursts, facts } = summary;
	const kept = oldReport.includes(KEPT_MARKER) ? oldReport.slice(oldReport.indexOf(KEPT_MARKER)) : '';
	const stamped = markdown.replace(/^# Benchmarks\n/, `# Benchmarks\n\n${measuredLine(summary.measured, 'BENCHMARKS.json', 'its figures')}\n`);
	const files: Record<string, string> = { 'BENCHMARKS.md': kept === '' ? stamped : `${stamped.trimEnd()}\n\n${kept}`, [CHARTS_PAGE]: chartsPage(legs, bursts, facts) };
	for (const chart of chartsOf(legs, bursts, facts)) files[chart.file] = chart.svg;
	return { files, console: tables };
}

/**
 * Prints the tables; then writes the report: only to .cache/bench/ for a partial run, else
 * BENCHMARKS.md, its charts and their page (replacing the charts folder) and, measured now
 * (`write`), the summary as BENCHMARKS.json.
 */
function report(summary: Summary, partial?: 'only' | 'quick', write = true): string {
	if (partial) {
		const { console: tables, markdown } = renderReport(summary);
		console.log(tables);
		writeFileSync(join(CACHE_DIR, `BENCHMARKS.${partial}.md`), markdown);
		writeFileSync(join(CACHE_DIR, `benchmarks-charts.${partial}.md`), chartsPage(summary.legs, summary.bursts, summary.facts));
		const wrote = `.cache/bench/${partial}.json, BENCHMARKS.${partial}.md and benchmarks-charts.${partial}.md`;
		return `${partial === 'only' ? 'Partial run (--only or --node-only)' : 'Quick run'}: wrote ${wrote}`;
	}
	const file = join(REPO_ROOT, 'BENCHMARKS.md');
	const { files, console: tables } = reportFiles(summary, existsSync(file) ? readFileSync(file, 'utf8') : '');
	console.log(tables);
	if (write) writeFileSync(SUMMARY_FILE, summaryText(summary));
	rmSync(join(REPO_ROOT, CHARTS_FOLDER), { recursive: true, force: true });
	mkdirSync(join(REPO_ROOT, CHARTS_FOLDER), { recursive: true });
	for (const [path, text] of Object.entries(files)) writeFileSync(join(REPO_ROOT, path), text);
	return `Wrote BENCHMARKS.md, ${CHARTS_PAGE} and BENCHMARKS.json`;
}

/**
 * `--render`: rewrites BENCHMARKS.md and its charts' page from BENCHMARKS.json, measuring nothing.
 * An older BENCHMARKS.json holding a run's raw results is rewritten as that run's summary.
 */
export function render(): void {
	const text = readFileSync(SUMMARY_FILE, 'utf8');
	const summary = readSummary(text);
	const raw = text !== summaryText(summary);
	report(summary, undefined, raw);
	console.log(`Rewrote BENCHMARKS.md and ${CHARTS_PAGE}${raw ? ', and BENCHMARKS.json as its summary,' : ''} from BENCHMARKS.json (measured ${summary.facts.date}).`);
}

/** A finished run: the raw results first, so a report that fails to render loses nothing; then the summary and the report. */
export function save(saved: Saved, partial: 'only' | 'quick' | undefined): void {
	mkdirSync(CACHE_DIR, { recursive: true });
	writeFileSync(join(CACHE_DIR, `${partial ?? 'results'}.json`), `${JSON.stringify(saved, null, 2)}\n`);
	console.log('');
	console.log(`${report(summarise(saved), partial)} (${saved.facts.seconds} s in all).`);
}
