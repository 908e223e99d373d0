/**
 * Where a run of `npm run bench` goes: the line each leg prints, the raw results (.cache/bench/,
 * and for a full run BENCHMARKS.json), and BENCHMARKS.md with its charts and their page
 * (docs/benchmarks-charts.md), which `--render` rewrites from BENCHMARKS.json alone.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { measuredLine } from '../release/measured';
import type { measuredNow } from '../release/measured';
import type { BurstResult, LegResult, Measured } from './common';
import { REPO_ROOT, median, timelineText } from './common';
import type { Facts } from './facts';
import { renderReport } from './report';
import { CHARTS_PAGE, chartsOf, chartsPage } from './reportCharts';

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
/** The full run's raw results, kept beside BENCHMARKS.md so every figure in it traces to a run. */
const RAW_FILE = join(REPO_ROOT, 'BENCHMARKS.json');
const CACHE_DIR = join(REPO_ROOT, '.cache', 'bench');

interface Saved {
	measured: ReturnType<typeof measuredNow>;
	facts: Facts;
	results: Measured[];
	bursts: BurstResult[];
}

/**
 * Prints the tables; then writes the report: only to .cache/bench/ for a partial run, else
 * BENCHMARKS.md (the report, the line naming the code it measured, then the kept part), its charts
 * and their page and, measured now (`raw`), BENCHMARKS.json.
 */
function report(saved: Saved, partial?: 'only' | 'quick', raw = true): string {
	const { console: table, markdown } = renderReport(saved.facts, saved.results, saved.bursts);
	const page = chartsPage(saved.results, saved.bursts, saved.facts);
	console.log(table);
	if (partial) {
		writeFileSync(join(CACHE_DIR, `BENCHMARKS.${partial}.md`), markdown);
		writeFileSync(join(CACHE_DIR, `benchmarks-charts.${partial}.md`), page);
		const wrote = `.cache/bench/${partial}.json, BENCHMARKS.${partial}.md and benchmarks-charts.${partial}.md`;
		return `${partial === 'only' ? 'Partial run (--only or --node-only)' : 'Quick run'}: wrote ${wrote}`;
	}
	if (raw) writeFileSync(RAW_FILE, `${JSON.stringify(saved, null, 1)}\n`);
	const images = join(REPO_ROOT, 'docs', 'images', 'bench');
	rmSync(images, { recursive: true, force: true });
	mkdirSync(images, { recursive: true });
	for (const chart of chartsOf(saved.results, saved.bursts, saved.facts)) writeFileSync(join(REPO_ROOT, chart.file), chart.svg);
	writeFileSync(join(REPO_ROOT, CHARTS_PAGE), page);
	const file = join(REPO_ROOT, 'BENCHMARKS.md');
	const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
	const kept = old.includes(KEPT_MARKER) ? old.slice(old.indexOf(KEPT_MARKER)) : '';
	const stamped = markdown.replace(/^# Benchmarks\n/, `# Benchmarks\n\n${measuredLine(saved.measured, 'BENCHMARKS.json')}\n`);
	writeFileSync(file, kept === '' ? stamped : `${stamped.trimEnd()}\n\n${kept}`);
	return `Wrote BENCHMARKS.md, ${CHARTS_PAGE} and BENCHMARKS.json`;
}

/** `--render`: rewrites BENCHMARKS.md and its charts' page from BENCHMARKS.json, measuring nothing. */
export function render(): void {
	const saved = JSON.parse(readFileSync(RAW_FILE, 'utf8')) as Saved;
	report(saved, undefined, false);
	console.log(`Rewrote BENCHMARKS.md and ${CHARTS_PAGE} from BENCHMARKS.json (measured ${saved.facts.date}).`);
}

/** A finished run: the raw figures first, so a report that fails to render loses nothing (see --render); then the report. */
export function save(saved: Saved, partial: 'only' | 'quick' | undefined): void {
	const { facts, results, bursts } = saved;
	mkdirSync(CACHE_DIR, { recursive: true });
	writeFileSync(join(CACHE_DIR, `${partial ?? 'results'}.json`), `${JSON.stringify({ facts, results, bursts }, null, 2)}\n`);
	console.log('');
	console.log(`${report(saved, partial)} (${facts.seconds} s in all).`);
}
