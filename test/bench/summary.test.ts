/**
 * BENCHMARKS.json holds what BENCHMARKS.md shows, not every run (scripts/bench/summary.ts): the
 * committed report, its charts' page and its charts are exactly what the committed summary renders
 * to, and summarising a raw run keeps the figures the report uses and drops the rest.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { BurstResult, Measured } from '../../scripts/bench/common';
import type { Facts } from '../../scripts/bench/facts';
import { reportFiles } from '../../scripts/bench/results';
import type { Saved } from '../../scripts/bench/summary';
import { readSummary, summarise, summaryText } from '../../scripts/bench/summary';
import { REPO_ROOT } from '../../scripts/release/measured';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

describe('BENCHMARKS.json and the report rendered from it', () => {
	test('BENCHMARKS.md, its charts page and every chart are what BENCHMARKS.json renders to', () => {
		const { files } = reportFiles(readSummary(read('BENCHMARKS.json')), read('BENCHMARKS.md'));
		const charts = readdirSync(join(REPO_ROOT, 'docs', 'images', 'bench')).map((name) => `docs/images/bench/${name}`);

		expect(Object.keys(files).filter((path) => path.endsWith('.svg')).sort()).toEqual(charts.sort());
		for (const [path, text] of Object.entries(files)) expect({ path, text: read(path) }).toEqual({ path, text });
	});

	test('BENCHMARKS.json is in the summary form, one line a leg: no raw runs or samples', () => {
		const text = read('BENCHMARKS.json');

		expect(JSON.parse(text)).not.toHaveProperty('results');
		expect(text).toBe(summaryText(readSummary(text)));
	});
});

const facts = { date: '2026-12-01T00:00:00.000Z' } as Facts;
const rep = (ms: number, extra: Partial<Measured['result']['reps'][number]> = {}): Measured['result']['reps'][number] => ({
	ms, wallMs: ms + 3, itemsPerSecond: 2000 / (ms / 1000), received: 2000, delivered: 2000, duplicates: 0, maxInFlight: ms / 100, peakRssMb: 300, rateLimited: 0, failedItems: 0, ...extra,
});
const spec = { kind: 'node' as const, warmup: 100, url: 'https://127.0.0.1:1', items: 2000, reps: 3 };
const burst = (perSecond: number | undefined): BurstResult => ({
	spec: { mode: 'queue', events: 300, latencyMs: 50, retryAfter: 'seconds', workers: 2, perSecond },
	client: 'node', webhookStatuses: { 200: 300 }, requests: 310, delivered: 300, twice: 0, rateLimited: 10,
	firstToLastMs: 15_000, startToLastMs: 15_500, allAnsweredMs: 15_600, load: 1.5,
	timeline: [{ second: 0, delivered: 20, refused: 4 }, { second: 1, delivered: 19, refused: 0 }],
	senders: { 'worker 1': [{ second: 0, delivered: 10, refused: 2 }] },
});

describe('summarising a raw run', () => {
	const saved: Saved = {
		measured: { commit: 'abc1234', code: 'aaaaaaaaaaaa', date: facts.date },
		facts,
		results: [
			{ latencyMs: 0, result: { spec, reps: [rep(8000), rep(10_000), rep(9000)] } },
			{
				latencyMs: 0,
				rateLimit: { perSecond: 100, shape: 'fixedWindow', retryAfter: 'none' },
				result: {
					spec: { ...spec, reps: 1, rateLimited: true },
					reps: [rep(21_000, { delivered: 1990, rateLimited: 12, failedItems: 10, runError: 'Too many requests\n    at stack', timeline: [{ second: 0, delivered: 100, refused: 12 }] })],
					problem: 'against the rate limit: 1990 of 2000 delivered\nsecond line',
				},
			},
			{
				latencyMs: 0,
				result: {
					spec: { ...spec, items: 10_000, reps: 1, memory: true },
					reps: [rep(50_000)],
					memory: { baselineMb: 160, peakMb: 350, growthMb: 190, endMb: 340, peakHeapMb: 180, retainedHeapMb: 6, samples: 2500 },
				},
			},
		],
		bursts: [burst(20), burst(undefined)],
	};
	const { legs, bursts } = summarise(saved);

	test('a leg keeps its runs as smallest, median and largest, and the most in flight', () => {
		expect(legs[0]).toEqual({
			latencyMs: 0, kind: 'node', items: 2000, runs: 3, maxInFlight: 100,
			itemsPerSecond: { min: 200, median: 2000 / 9, max: 250 },
			seconds: { min: 8, median: 9, max: 10 },
		});
	});

	test('a rate-limited leg keeps its run’s counts and per-second figures; problems and errors their first line', () => {
		expect(legs[1].limited).toEqual({ seconds: 21, delivered: 1990, refused: 12, twice: 0, failedItems: 10, runError: 'Too many requests', timeline: [[100, 12]] });
		expect(legs[1].problem).toBe('against the rate limit: 1990 of 2000 delivered');
	});

	test('a memory leg keeps the memory figures the report shows, not the sample count or the end RSS', () => {
		expect(legs[2]).toMatchObject({ memoryLeg: true, memory: { baselineMb: 160, peakMb: 350, growthMb: 190, peakHeapMb: 180, retainedHeapMb: 6 } });
		expect(legs[2].memory).not.toHaveProperty('samples');
	});

	test('a burst keeps its counts, and its per-second figures only against a limit (what the charts draw); no worker’s own', () => {
		expect(bursts[0]).toEqual({
			spec: saved.bursts[0].spec, client: 'node', webhookStatuses: { 200: 300 }, delivered: 300, twice: 0, rateLimited: 10, firstToLastMs: 15_000,
			timeline: [[20, 4], [19, 0]],
		});
		expect(bursts[1]).not.toHaveProperty('timeline');
	});
});
