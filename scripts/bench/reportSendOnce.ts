/**
 * The Send Once leg in the bench's report: what Send Once Per Key's check costs each keyed send
 * with the store at the default Send Once History Size against a nearly empty one. Shown only when
 * the run measured it (a run from before the leg existed has no such figures).
 */
import type { Facts } from './facts';
import { failed, int, table } from './format';
import type { SendOnceFigures, Spread } from './summary';

const ms = (value: number) => `${value.toFixed(1)} ms`;
const row = (store: string, runs: number, times: Spread | undefined) =>
	times ? [store, int(runs), `**${ms(times.median)}**`, ms(times.min), ms(times.max)] : [store, int(runs), '—', '—', '—'];

/** The table of both stores, or the leg's problem; the difference of the medians. */
function figures(leg: SendOnceFigures): { table: string; difference?: number } {
	if (leg.problem || !leg.atBoundMs || !leg.nearlyEmptyMs) return { table: failed(leg.problem) };
	const rows = [row(`${int(leg.stored)} keys stored`, leg.runs, leg.atBoundMs), row('nearly empty', leg.runs, leg.nearlyEmptyMs)];
	return { table: table(['Store', 'Executions', 'Median', 'Smallest', 'Largest'], rows), difference: leg.atBoundMs.median - leg.nearlyEmptyMs.median };
}

/** The console's lines for the leg. */
export const sendOnceConsole = (leg: SendOnceFigures | undefined) => (leg ? `Send Once Per Key\n${figures(leg).table}\n` : '');

/** BENCHMARKS.md's section, empty when the run has no Send Once figures. */
export function sendOnceSection(leg: SendOnceFigures | undefined, facts: Facts): string {
	if (!leg) return '';
	const { table: shown, difference } = figures(leg);
	const verdict =
		difference === undefined
			? ''
			: `\n\nWith ${int(leg.stored)} keys stored the check costs about **${ms(difference)}** more per keyed execution (median against median); ` +
				`filling the store took ${(leg.fillMs / 1000).toFixed(1)} s (${int(leg.stored)} keyed SMS in one execution).`;
	return `## Send Once Per Key: what the check costs

Before each keyed send n8n's deduplication store (n8n's own database, sqlite here) reads the node's whole list of keys, looks
the new key up, cuts the list to Send Once History Size and writes it back. Measured through real n8n ${facts.n8n}, the packed
package installed as a community package: one execution of ${int(leg.stored)} keyed SMS fills the store, then one-item executions with
a new key each, timed by the node's own \`executionTime\`; the same on a second node whose store holds only its own few keys.

${shown}${verdict}
`;
}
