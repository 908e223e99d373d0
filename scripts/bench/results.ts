/**
 * Where a run of `npm run bench` goes: the line each leg prints, the facts of the machine and the
 * versions measured, the raw results (.cache/bench/, and for a full run BENCHMARKS.json), and
 * BENCHMARKS.md with its charts, which `--render` rewrites from BENCHMARKS.json alone.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { git, measuredLine } from '../release/measured';
import type { measuredNow } from '../release/measured';
import { N8N_VERSION } from '../n8n/lib/config';
import type { BurstResult, LegResult } from './common';
import { HTTP_REQUEST_VERSION, N8N_NODE_MODULES, RATE_LIMIT_PER_SECOND, REPO_ROOT, median, timelineText } from './common';
import { chartsOf } from './reportLimits';
import type { Measured } from './report';
import { renderReport } from './report';

/** Share of all cores' time spent busy over `ms` ms, from the kernel's counters (other processes included). */
async function busyShare(ms: number): Promise<number> {
	const total = () =>
		cpus().reduce(
			(sum, { times: { user, nice, sys, irq, idle } }) => ({ busy: sum.busy + user + nice + sys + irq, all: sum.all + user + nice + sys + irq + idle }),
			{ busy: 0, all: 0 },
		);
	const before = total();
	await new Promise((resolve) => setTimeout(resolve, ms));
	const after = total();
	return after.all > before.all ? (after.busy - before.busy) / (after.all - before.all) : 0;
}

const versionOf = (...path: string[]) => (JSON.parse(readFileSync(join(...path, 'package.json'), 'utf8')) as { version: string }).version;

export type Facts = Awaited<ReturnType<typeof machineFacts>>;

/**
 * The machine, its load (`busyBefore`: share of CPU time busy, any process, in the 3 s before the
 * start), the code and the versions measured (`n8n`: the burst legs' n8n, whose n8n-nodes-base gives
 * the HTTP Request node), the node's adaptive pacing at its defaults. `loadAfter`, `loadDuring` (the
 * 1-minute load average at the start of each leg) and `seconds` are filled in as the run goes.
 */
export async function machineFacts(reps: number) {
	const scheduler = join(REPO_ROOT, 'dist', 'nodes', 'MultiChannelNotification', 'helpers', 'scheduler.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { INITIAL_LIMIT, ADAPTIVE_CEILING } = require(scheduler) as { INITIAL_LIMIT: number; ADAPTIVE_CEILING: number };
	return {
		date: new Date().toISOString(),
		cpuModel: cpus()[0]?.model ?? 'unknown',
		cores: cpus().length,
		memoryGb: Math.round(totalmem() / 1024 ** 3),
		node: process.version,
		kernel: release(),
		loadBefore: loadavg(),
		busyBefore: await busyShare(3000),
		loadAfter: [] as number[],
		loadDuring: [] as number[],
		commit: `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain']) === '' ? '' : ' (with uncommitted changes)'}`,
		packageVersion: versionOf(REPO_ROOT),
		n8n: N8N_VERSION,
		n8nCore: versionOf(REPO_ROOT, 'node_modules', 'n8n-core'),
		n8nWorkflow: versionOf(REPO_ROOT, 'node_modules', 'n8n-workflow'),
		n8nNodesBase: versionOf(N8N_NODE_MODULES, 'n8n-nodes-base'),
		httpRequestVersion: HTTP_REQUEST_VERSION,
		adaptive: { initial: INITIAL_LIMIT, ceiling: ADAPTIVE_CEILING },
		rateLimitPerSecond: RATE_LIMIT_PER_SECOND,
		reps,
		seconds: 0,
	};
}

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
 * and, measured now (`raw`), BENCHMARKS.json.
 */
function report(saved: Saved, partial?: 'only' | 'quick', raw = true): string {
	const { console: table, markdown } = renderReport(saved.facts, saved.results, saved.bursts);
	console.log(table);
	if (partial) {
		writeFileSync(join(CACHE_DIR, `BENCHMARKS.${partial}.md`), markdown);
		return `${partial === 'only' ? 'Partial run (--only or --node-only)' : 'Quick run'}: wrote .cache/bench/${partial}.json and BENCHMARKS.${partial}.md`;
	}
	if (raw) writeFileSync(RAW_FILE, `${JSON.stringify(saved, null, 1)}\n`);
	const images = join(REPO_ROOT, 'docs', 'images', 'bench');
	rmSync(images, { recursive: true, force: true });
	mkdirSync(images, { recursive: true });
	for (const chart of chartsOf(saved.results, saved.bursts, saved.facts)) writeFileSync(join(REPO_ROOT, chart.file), chart.svg);
	const file = join(REPO_ROOT, 'BENCHMARKS.md');
	const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
	const kept = old.includes(KEPT_MARKER) ? old.slice(old.indexOf(KEPT_MARKER)) : '';
	const stamped = markdown.replace(/^# Benchmarks\n/, `# Benchmarks\n\n${measuredLine(saved.measured, 'BENCHMARKS.json')}\n`);
	writeFileSync(file, kept === '' ? stamped : `${stamped.trimEnd()}\n\n${kept}`);
	return 'Wrote BENCHMARKS.md and BENCHMARKS.json';
}

/** `--render`: rewrites BENCHMARKS.md from BENCHMARKS.json, measuring nothing. */
export function render(): void {
	const saved = JSON.parse(readFileSync(RAW_FILE, 'utf8')) as Saved;
	report(saved, undefined, false);
	console.log(`Rewrote BENCHMARKS.md from BENCHMARKS.json (measured ${saved.facts.date}).`);
}

/** A finished run: the raw figures first, so a report that fails to render loses nothing (see --render); then the report. */
export function save(saved: Saved, partial: 'only' | 'quick' | undefined): void {
	const { facts, results, bursts } = saved;
	mkdirSync(CACHE_DIR, { recursive: true });
	writeFileSync(join(CACHE_DIR, `${partial ?? 'results'}.json`), `${JSON.stringify({ facts, results, bursts }, null, 2)}\n`);
	console.log('');
	console.log(`${report(saved, partial)} (${facts.seconds} s in all).`);
}
