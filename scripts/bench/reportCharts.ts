/**
 * The charts of the bench's rate-limited legs: one SVG per leg with each client measured against
 * that limit (chart.ts draws it), and the page of docs/ that shows them all.
 */
import { posix } from 'node:path';

import { timelineChart } from './chart';
import type { Facts } from './facts';
import type { Outcome } from './outcomes';
import { bulkOutcomes, burstOutcome } from './outcomes';
import type { BurstFigures, LegFigures } from './summary';

/** The date, machine and n8n release of the run, under each chart's title and above the charts on their page. */
const runLabel = (facts: Facts) => `Run of ${facts.date.slice(0, 10)} on ${facts.cpuModel}, ${facts.cores} cores; n8n ${facts.n8n}`;

/** One chart per rate-limited leg: each client measured against that limit, side by side; `file` from the repository root. */
export function chartsOf(measured: LegFigures[], bursts: BurstFigures[], facts: Facts) {
	const legs = new Map<string, Outcome[]>();
	for (const o of [...bulkOutcomes(measured), ...bursts.map(burstOutcome)]) {
		if (o.timeline?.length && o.limit !== undefined) legs.set(o.leg, [...(legs.get(o.leg) ?? []), o]);
	}
	return [...legs].map(([leg, runs]) => ({
		file: `docs/images/bench/${leg.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.svg`,
		title: leg,
		clients: runs.length,
		svg: timelineChart(leg, runLabel(facts), runs[0].limit ?? 0, runs.map((o) => ({ name: o.client, timeline: o.timeline ?? [] }))),
	}));
}

/** Where the charts' own page is, from the repository root; BENCHMARKS.md's rate-limit section links to it. */
export const CHARTS_PAGE = 'docs/benchmarks-charts.md';

/**
 * The charts' page: every rate-limited leg's chart, under the run they come from. Its links are
 * relative to the page's own folder.
 */
export function chartsPage(measured: LegFigures[], bursts: BurstFigures[], facts: Facts): string {
	const charts = chartsOf(measured, bursts, facts).map((chart) => `![${chart.title}](${posix.relative(posix.dirname(CHARTS_PAGE), chart.file)})`);
	return `# Benchmarks: per second, admitted and refused (429)

The charts of the rate-limited legs in [BENCHMARKS.md](../BENCHMARKS.md#rate-limits), from the same run.

${runLabel(facts)}. Counted at the sandbox from each run's first request (each second's counts are in
BENCHMARKS.json); the dashed line is the service's limit.

${charts.join('\n\n')}
`;
}
