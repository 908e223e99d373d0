/** Number, table and goal formatting shared by the bench's report modules (report.ts, reportLimits.ts). */

export const int = (value: number) => Math.round(value).toLocaleString('en-US');
export const ratio = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}×`);
export const secs = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(2)} s`);
/** A table cell for a leg that gave no figures: the first line of its problem. */
export const failed = (problem: string | undefined) => `failed: ${(problem ?? 'no result').split('\n')[0]}`;

export function table(header: string[], rows: string[][]): string {
	return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

/** One of the package's own goals, checked against this run; `met` undefined: not measured. */
export interface Goal {
	goal: string;
	run: string;
	met: boolean | undefined;
	/** How far from the target, e.g. "10 % to spare". */
	margin?: string;
}

/** Whether `value` meets `target` (at least it, or with `atMost` at most it), and by how much. */
export function against(value: number | undefined, target: number, atMost = false): Pick<Goal, 'met' | 'margin'> {
	if (value === undefined || Number.isNaN(value)) return { met: undefined };
	const met = atMost ? value <= target : value >= target;
	const percent = Math.abs(value / target - 1) * 100;
	return { met, margin: Number.isFinite(value) ? `${percent.toFixed(percent < 10 ? 1 : 0)} % ${met ? 'to spare' : atMost ? 'over' : 'short'}` : undefined };
}

export function goalTable(goals: Goal[]): string {
	const verdict = ({ met, margin }: Goal) => (met === undefined ? 'not measured' : `**${met ? 'met' : 'missed'}**${margin ? ` (${margin})` : ''}`);
	return table(['Goal', 'This run', 'Verdict'], goals.map((goal) => [goal.goal, goal.run, verdict(goal)]));
}
