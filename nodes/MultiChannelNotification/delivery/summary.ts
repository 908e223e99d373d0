import type { NodeExecutionHint } from 'n8n-workflow';

/**
 * The run summary n8n shows above the output (an execution hint): how many items were sent,
 * refused, skipped or only dry run, which ones, how long rate limits held items back, and how many
 * SMS segments went out (or would have, in a dry run).
 * Counted from what the run did, never from any message text.
 */

export type Outcome = 'sent' | 'refused' | 'skipped' | 'dryRun';

export interface RunCounts {
	total: number;
	items: Record<Outcome, number[]>;
	/** Times the service answered "rate limited" and the longest an item waited for it. */
	rateLimited?: { times: number; longestWaitMs: number };
	/** SMS segments the items sent, and those dry-run items would have sent. */
	smsSegments?: { sent: number; dryRun: number };
}

/** ["0–4", "7", "9–10"]: item indexes as runs. */
function runsOf(indexes: number[]): string[] {
	const sorted = [...indexes].sort((a, b) => a - b);
	const runs: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		runs.push(start === end ? `${sorted[start]}` : `${sorted[start]}–${sorted[end]}`);
		start = end + 1;
	}
	return runs;
}

/** "0–4, 7, 9–10": a short list of item indexes. */
export const ranges = (indexes: number[]): string => runsOf(indexes).join(', ');

const LABELS: Record<Outcome, string> = { sent: 'Sent', refused: 'refused', skipped: 'skipped', dryRun: 'dry run' };
const MAX_LISTED = 12;

function seconds(ms: number): string {
	return ms < 1000 ? 'under 1 s' : `${Math.round(ms / 1000).toLocaleString('en-US')} s`;
}

function part(outcome: Outcome, indexes: number[], total: number): string {
	const label = LABELS[outcome];
	const count = indexes.length.toLocaleString('en-US');
	// Every item alike: the count says it all. Otherwise name the items, briefly.
	if (indexes.length === 0 || indexes.length === total || (outcome === 'sent' && indexes.length > MAX_LISTED)) {
		return `${label} ${count}`;
	}
	const runs = runsOf(indexes);
	const short = runs.length > MAX_LISTED ? `${runs.slice(0, MAX_LISTED).join(', ')}, …` : runs.join(', ');
	return `${label} ${count} (item${indexes.length === 1 ? '' : 's'} ${short})`;
}

export function runSummary(counts: RunCounts): NodeExecutionHint | undefined {
	if (counts.total === 0) return undefined;
	const order: Outcome[] = ['sent', 'refused', 'skipped', 'dryRun'];
	const parts = order
		.filter((outcome) => outcome === 'sent' || counts.items[outcome].length > 0)
		.map((outcome) => part(outcome, counts.items[outcome], counts.total));
	if (counts.rateLimited && counts.rateLimited.times > 0) {
		parts.push(
			`rate limited ${counts.rateLimited.times.toLocaleString('en-US')}× (longest wait ${seconds(counts.rateLimited.longestWaitMs)})`,
		);
	}
	const segments = counts.smsSegments;
	if (segments && segments.sent > 0) parts.push(`SMS segments ${segments.sent.toLocaleString('en-US')}`);
	if (segments && segments.dryRun > 0) parts.push(`SMS segments ${segments.dryRun.toLocaleString('en-US')} (dry run)`);
	return {
		message: parts.join(' · '),
		type: counts.items.refused.length > 0 ? 'warning' : 'info',
		location: 'outputPane',
	};
}
