/**
 * BENCHMARKS.json: what BENCHMARKS.md and its charts show of a full run, and nothing more — each
 * leg's smallest, median and largest figures, the counts of its rate-limited run, the per-second
 * counts the charts draw, and the facts of the machine and the run. The raw results (every run and
 * sample, each queue worker's own counts) stay in .cache/bench/results.json. The report renders
 * from this form only (report.ts); `summarise` makes it from a raw run.
 */
import type { measuredNow } from '../release/measured';
import type { BurstResult, BurstSpec, LegKind, Measured, SecondCount, SendOnceResult, ServiceSpec } from './common';
import { median } from './common';
import type { Facts } from './facts';

/** A full run's raw results, as run.ts collects them (.cache/bench/results.json; BENCHMARKS.json before it was summarised). */
export interface Saved {
	measured: ReturnType<typeof measuredNow>;
	facts: Facts;
	results: Measured[];
	bursts: BurstResult[];
	/** The Send Once leg, run last in a full run; absent when it did not run. */
	sendOnce?: SendOnceResult;
}

/** The smallest, median and largest of a leg's timed runs. */
export interface Spread {
	min: number;
	median: number;
	max: number;
}

/** Requests delivered and refused (429) in each second from a run's first request: [delivered, refused]. */
export type Timeline = Array<[number, number]>;

/** One measured configuration (a client at an item count against one sandbox), as the report shows it. */
export interface LegFigures {
	latencyMs: number;
	rateLimit?: ServiceSpec['rateLimit'];
	kind: LegKind;
	items: number;
	/** The raw client's requests in flight. */
	concurrency?: number;
	/** A memory leg: one run in a fresh process. */
	memoryLeg?: true;
	/** Timed runs that gave figures. */
	runs: number;
	itemsPerSecond?: Spread;
	seconds?: Spread;
	maxInFlight?: number;
	memory?: { baselineMb: number; peakMb: number; growthMb: number; peakHeapMb: number; retainedHeapMb: number };
	/** A rate-limited leg's (first) run: what the sandbox saw; `runError` is the first line of the run's error. */
	limited?: { seconds: number; delivered: number; refused: number; twice: number; failedItems: number; runError?: string; timeline: Timeline };
	/** The first line of what went wrong, if anything did. */
	problem?: string;
}

/** A burst leg's client, as the report shows it; `timeline` only against a limit (the charts'). */
export interface BurstFigures {
	spec: BurstSpec;
	client: BurstResult['client'];
	webhookStatuses: Record<string, number>;
	delivered: number;
	twice: number;
	rateLimited: number;
	firstToLastMs: number;
	timeline?: Timeline;
	problem?: string;
}

/** The Send Once leg: the node's executionTime (ms) of one-item keyed executions on each store. */
export interface SendOnceFigures {
	stored: number;
	runs: number;
	atBoundMs?: Spread;
	nearlyEmptyMs?: Spread;
	fillMs: number;
	problem?: string;
}

/** BENCHMARKS.json. */
export interface Summary {
	measured: Saved['measured'];
	facts: Facts;
	legs: LegFigures[];
	bursts: BurstFigures[];
	sendOnce?: SendOnceFigures;
}

export const spread = (values: number[]): Spread | undefined =>
	values.length ? { min: Math.min(...values), median: median(values), max: Math.max(...values) } : undefined;
const firstLine = (text: string | undefined) => (text === undefined ? {} : { problem: text.split('\n')[0] });
export const toTimeline = (timeline: SecondCount[]): Timeline => timeline.map((second) => [second.delivered, second.refused]);
export const fromTimeline = (timeline: Timeline): SecondCount[] => timeline.map(([delivered, refused], second) => ({ second, delivered, refused }));

function legFigures({ latencyMs, rateLimit, result }: Measured): LegFigures {
	const { spec, reps, memory } = result;
	const [first] = reps;
	const figures: LegFigures = {
		latencyMs,
		...(rateLimit ? { rateLimit } : {}),
		kind: spec.kind,
		items: spec.items,
		...(spec.concurrency === undefined ? {} : { concurrency: spec.concurrency }),
		...(spec.memory ? { memoryLeg: true as const } : {}),
		runs: reps.length,
		itemsPerSecond: spread(reps.map((rep) => rep.itemsPerSecond)),
		seconds: spread(reps.map((rep) => rep.ms / 1000)),
		...(reps.length ? { maxInFlight: Math.max(...reps.map((rep) => rep.maxInFlight)) } : {}),
		...firstLine(result.problem),
	};
	if (memory) {
		const { baselineMb, peakMb, growthMb, peakHeapMb, retainedHeapMb } = memory;
		figures.memory = { baselineMb, peakMb, growthMb, peakHeapMb, retainedHeapMb };
	}
	if (rateLimit && first) {
		const { delivered, rateLimited: refused, duplicates: twice, failedItems, runError } = first;
		const error = runError === undefined ? {} : { runError: runError.split('\n')[0] };
		figures.limited = { seconds: first.ms / 1000, delivered, refused, twice, failedItems, ...error, timeline: toTimeline(first.timeline ?? []) };
	}
	return figures;
}

export function burstFigures(r: BurstResult): BurstFigures {
	const { spec, client, webhookStatuses, delivered, twice, rateLimited, firstToLastMs } = r;
	const timeline = spec.perSecond === undefined ? {} : { timeline: toTimeline(r.timeline) };
	return { spec, client, webhookStatuses, delivered, twice, rateLimited, firstToLastMs, ...timeline, ...firstLine(r.problem) };
}

function sendOnceFigures({ spec, atBoundMs, nearlyEmptyMs, fillMs, problem }: SendOnceResult): SendOnceFigures {
	return { ...spec, atBoundMs: spread(atBoundMs), nearlyEmptyMs: spread(nearlyEmptyMs), fillMs, ...firstLine(problem) };
}

export function summarise({ measured, facts, results, bursts, sendOnce }: Saved): Summary {
	return { measured, facts, legs: results.map(legFigures), bursts: bursts.map(burstFigures), ...(sendOnce ? { sendOnce: sendOnceFigures(sendOnce) } : {}) };
}

/** BENCHMARKS.json as read: the summary, or an older file's raw results summarised. */
export function readSummary(text: string): Summary {
	const parsed = JSON.parse(text) as Summary | Saved;
	return 'results' in parsed ? summarise(parsed) : parsed;
}

/** The summary as text: one line for the facts, and one per leg and per burst client, so a new run's diff reads leg by leg. */
export function summaryText(summary: Summary): string {
	const entries = Object.entries(summary).map(([key, value]: [string, unknown]) => {
		const body = Array.isArray(value) && value.length ? `[\n${value.map((entry) => `  ${JSON.stringify(entry)}`).join(',\n')}\n ]` : JSON.stringify(value);
		return ` ${JSON.stringify(key)}: ${body}`;
	});
	return `{\n${entries.join(',\n')}\n}\n`;
}
