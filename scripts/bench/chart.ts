/**
 * One SVG chart per rate-limited leg: requests the service admitted and refused (429) in each
 * second, one colour per client, with the service's limit drawn as a line. Plain SVG text, no
 * library and no browser; GitHub and the registry's page show it as an image.
 */
import type { SecondCount } from './common';

export interface Series {
	name: string;
	timeline: SecondCount[];
}

const WIDTH = 760;
const PLOT_AND_AXES = 280;
const PAD = { left: 48, right: 16, top: 36, bottom: 44 };
const LEGEND_ROW = 18;
const COLOURS = ['#5b5bd6', '#d9480f', '#2b8a3e', '#862e9c'];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A step outline of `values` (one per second) through the plot's scales. */
function steps(values: number[], x: (second: number) => number, y: (count: number) => number): string {
	return values.map((value, second) => `${x(second).toFixed(1)},${y(value).toFixed(1)} ${x(second + 1).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
}

/** A round step for axis ticks: 1, 2, 5, 10, 20, 50 … giving at most about six ticks. */
function tickStep(max: number): number {
	const raw = max / 6;
	const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
	return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= raw) ?? power * 10;
}

export function timelineChart(title: string, limitPerSecond: number, series: Series[]): string {
	const HEIGHT = PLOT_AND_AXES + series.length * LEGEND_ROW;
	const seconds = Math.max(1, ...series.map((entry) => entry.timeline.length));
	const top = Math.max(limitPerSecond * 1.25, ...series.flatMap((entry) => entry.timeline.map((s) => Math.max(s.delivered, s.refused))));
	const plotWidth = WIDTH - PAD.left - PAD.right;
	const plotHeight = PLOT_AND_AXES - PAD.top - PAD.bottom;
	const x = (second: number) => PAD.left + (second / seconds) * plotWidth;
	const y = (count: number) => PAD.top + plotHeight - (count / top) * plotHeight;
	const parts: string[] = [];
	const yStep = tickStep(top);
	for (let value = 0; value <= top; value += yStep) {
		parts.push(`<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#e4e4ea"/>`);
		parts.push(`<text x="${PAD.left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${value}</text>`);
	}
	const xStep = tickStep(seconds);
	for (let second = 0; second <= seconds; second += xStep) {
		parts.push(`<text x="${x(second).toFixed(1)}" y="${PLOT_AND_AXES - PAD.bottom + 16}" text-anchor="middle">${second}</text>`);
	}
	parts.push(`<text x="${PAD.left + plotWidth / 2}" y="${PLOT_AND_AXES - PAD.bottom + 32}" text-anchor="middle">seconds from the first request</text>`);
	parts.push(`<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(limitPerSecond).toFixed(1)}" y2="${y(limitPerSecond).toFixed(1)}" stroke="#1f1f24" stroke-dasharray="6 4"/>`);
	parts.push(`<text x="${WIDTH - PAD.right}" y="${(y(limitPerSecond) - 5).toFixed(1)}" text-anchor="end">service limit ${limitPerSecond}/s</text>`);
	series.forEach((entry, index) => {
		const colour = COLOURS[index % COLOURS.length];
		const admitted = entry.timeline.map((second) => second.delivered);
		const refused = entry.timeline.map((second) => second.refused);
		parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${steps(admitted, x, y)}"/>`);
		parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5" stroke-dasharray="2 3" points="${steps(refused, x, y)}"/>`);
		const legendY = PLOT_AND_AXES + index * LEGEND_ROW;
		parts.push(`<line x1="${PAD.left}" x2="${PAD.left + 18}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${colour}" stroke-width="2"/>`);
		parts.push(`<text x="${PAD.left + 24}" y="${legendY}">${escape(entry.name)}: admitted (solid), refused with 429 (dotted)</text>`);
	});
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="system-ui,sans-serif" font-size="12" fill="#1f1f24">`,
		`<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
		`<text x="${PAD.left}" y="22" font-size="14" font-weight="600">${escape(title)}</text>`,
		...parts,
		'</svg>',
		'',
	].join('\n');
}
