/**
 * The charts of the bench's rate-limited legs: one SVG per leg with each client measured against
 * that limit, and the page of docs/ that shows them all. Each chart shows the requests the service
 * admitted and refused (429) in each second, one colour per client, with the service's limit drawn
 * as a dashed line: plain SVG text, no library and no browser; GitHub shows it as an image.
 */
import { posix } from 'node:path';

import type { SecondCount } from './common';
import type { Facts } from './facts';
import type { Outcome } from './outcomes';
import { bulkOutcomes, burstOutcome } from './outcomes';
import type { BurstFigures, LegFigures } from './summary';

const WIDTH = 760;
/** Height of the titles, plot and axes; each series adds a legend row below. */
const BODY = 296;
const PAD = { left: 48, right: 16, top: 52, bottom: 44 };
const COLOURS = ['#5b5bd6', '#d9480f', '#2b8a3e', '#862e9c'];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round axis step (1, 2, 5, 10, 20 …) giving at most about six ticks up to `max`. */
function tickStep(max: number): number {
	const rough = max / 6;
	const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1)));
	return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= rough) ?? power * 10;
}

/** `subtitle` names the run (date, machine, n8n release), so the image says where it comes from. */
function timelineChart(title: string, subtitle: string, limit: number, series: Array<{ name: string; timeline: SecondCount[] }>): string {
	const height = BODY + series.length * 18;
	const seconds = Math.max(1, ...series.map((entry) => entry.timeline.length));
	const top = Math.max(limit * 1.25, ...series.flatMap((entry) => entry.timeline.map((s) => Math.max(s.delivered, s.refused))));
	const [right, bottom] = [WIDTH - PAD.right, BODY - PAD.bottom];
	const x = (second: number) => (PAD.left + (second / seconds) * (right - PAD.left)).toFixed(1);
	const y = (count: number) => (bottom - (count / top) * (bottom - PAD.top)).toFixed(1);
	const text = (at: string, content: string | number, attributes = '') => `<text ${at} ${attributes}>${escape(String(content))}</text>`;
	// A step outline: each second's count held flat from its start to its end.
	const steps = (values: number[]) => values.map((value, second) => `${x(second)},${y(value)} ${x(second + 1)},${y(value)}`).join(' ');
	const parts = [
		`<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
		text(`x="${PAD.left}" y="22"`, title, 'font-size="14" font-weight="600"'),
		text(`x="${PAD.left}" y="40"`, subtitle, 'fill="#5f5f6b"'),
	];
	const [yStep, xStep] = [tickStep(top), tickStep(seconds)];
	for (let value = 0; value <= top; value += yStep) {
		parts.push(`<line x1="${PAD.left}" x2="${right}" y1="${y(value)}" y2="${y(value)}" stroke="#e4e4ea"/>`, text(`x="${PAD.left - 6}" y="${Number(y(value)) + 4}"`, value, 'text-anchor="end"'));
	}
	for (let second = 0; second <= seconds; second += xStep) parts.push(text(`x="${x(second)}" y="${bottom + 16}"`, second, 'text-anchor="middle"'));
	parts.push(
		text(`x="${(PAD.left + right) / 2}" y="${bottom + 32}"`, 'seconds from the first request', 'text-anchor="middle"'),
		`<line x1="${PAD.left}" x2="${right}" y1="${y(limit)}" y2="${y(limit)}" stroke="#1f1f24" stroke-dasharray="6 4"/>`,
		text(`x="${right}" y="${Number(y(limit)) - 5}"`, `service limit ${limit}/s`, 'text-anchor="end"'),
	);
	series.forEach((entry, index) => {
		const [colour, legendY] = [COLOURS[index % COLOURS.length], BODY + index * 18];
		parts.push(
			`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${steps(entry.timeline.map((s) => s.delivered))}"/>`,
			`<polyline fill="none" stroke="${colour}" stroke-width="1.5" stroke-dasharray="2 3" points="${steps(entry.timeline.map((s) => s.refused))}"/>`,
			`<line x1="${PAD.left}" x2="${PAD.left + 18}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${colour}" stroke-width="2"/>`,
			text(`x="${PAD.left + 24}" y="${legendY}"`, `${entry.name}: admitted (solid), refused with 429 (dotted)`),
		);
	});
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui,sans-serif" font-size="12" fill="#1f1f24">`;
	return [svg, ...parts, '</svg>', ''].join('\n');
}

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
