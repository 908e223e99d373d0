/** Number and table formatting shared by the bench's report modules (report.ts, reportLimits.ts). */

export function int(value: number): string {
	return Math.round(value).toLocaleString('en-US');
}

export function ratio(value: number | undefined): string {
	return value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}×`;
}

export function us(value: number): string {
	return value.toFixed(1);
}

export function secs(value: number | undefined): string {
	return value === undefined ? '—' : `${value.toFixed(2)} s`;
}

export function table(header: string[], rows: string[][]): string {
	const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`];
	for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
	return lines.join('\n');
}

export interface Verdict {
	target: string;
	measured: string;
	met: boolean | undefined;
	detail: string;
}

export type PacingVerdict = Verdict;

export function verdictText(met: boolean | undefined): string {
	return met === undefined ? 'not measured' : met ? '**met**' : '**missed**';
}

export function shortfall(value: number, target: number): string {
	const percent = Math.abs(value / target - 1) * 100;
	return `${percent.toFixed(percent < 1 ? 2 : 1)} % ${value >= target ? 'above' : 'below'} the target`;
}
