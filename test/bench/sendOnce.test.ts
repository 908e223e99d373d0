/**
 * The bench's Send Once leg in the report: its figures go into BENCHMARKS.json's summary and a
 * short BENCHMARKS.md section, which is there only when the run measured them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { SendOnceResult } from '../../scripts/bench/common';
import { renderReport } from '../../scripts/bench/report';
import type { Saved, Summary } from '../../scripts/bench/summary';
import { readSummary, summarise } from '../../scripts/bench/summary';
import { REPO_ROOT } from '../../scripts/release/measured';

const committed = readSummary(readFileSync(join(REPO_ROOT, 'BENCHMARKS.json'), 'utf8'));
const measured: SendOnceResult = {
	spec: { stored: 10_000, runs: 5 },
	atBoundMs: [22, 19, 40, 21, 18],
	nearlyEmptyMs: [15, 17, 16, 30, 14],
	fillMs: 49_134,
};
const withSendOnce = (sendOnce: SendOnceResult): Summary => summarise({ measured: committed.measured, facts: committed.facts, results: [], bursts: [], sendOnce } as Saved);

describe('the Send Once leg in the bench report', () => {
	test('the summary keeps each store’s smallest, median and largest execution time, and the fill', () => {
		expect(withSendOnce(measured).sendOnce).toEqual({
			stored: 10_000,
			runs: 5,
			atBoundMs: { min: 18, median: 21, max: 40 },
			nearlyEmptyMs: { min: 14, median: 16, max: 30 },
			fillMs: 49_134,
		});
	});

	test('BENCHMARKS.md shows the per-send cost at 10,000 keys and nearly empty, and the difference, on the bench’s n8n', () => {
		const { markdown, console: tables } = renderReport({ ...committed, sendOnce: withSendOnce(measured).sendOnce });

		expect(markdown).toContain('## Send Once Per Key: what the check costs');
		expect(markdown).toContain(`through real n8n ${committed.facts.n8n}`);
		expect(markdown).toContain('| 10,000 keys stored | 5 | **21.0 ms** | 18.0 ms | 40.0 ms |');
		expect(markdown).toContain('| nearly empty | 5 | **16.0 ms** | 14.0 ms | 30.0 ms |');
		expect(markdown).toContain('about **5.0 ms** more per keyed execution');
		expect(tables).toContain('Send Once Per Key');
	});

	test('a run without the leg shows no Send Once section and claims no figure', () => {
		const { sendOnce: _measured, ...withoutLeg } = committed;
		const { markdown } = renderReport(withoutLeg);

		expect(markdown).not.toContain('Send Once');
	});

	test('a leg that failed shows its problem and no figures', () => {
		const failed = withSendOnce({ spec: { stored: 10_000, runs: 30 }, atBoundMs: [], nearlyEmptyMs: [], fillMs: 0, problem: 'n8n did not start\n  at launch' });
		const { markdown } = renderReport({ ...committed, sendOnce: failed.sendOnce });

		expect(markdown).toContain('## Send Once Per Key: what the check costs');
		expect(markdown).toContain('failed: n8n did not start');
		expect(markdown).not.toContain('more per keyed execution');
	});
});
