/**
 * Every figure in BENCHMARKS.md and RELIABILITY.md traces to a run: each report names the product
 * code it measured and keeps that run's raw results beside it. A report measured on other code
 * is reported here (re-measuring takes minutes to half an hour, so a code change does not fail
 * the tests for it); the release step refuses to publish it.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { codeFingerprint, figureStates, REPO_ROOT } from '../../scripts/release/measured';

describe('figures in the reports', () => {
	test.each(figureStates().map((state) => [state.report, state]))('%s names the run its raw results hold', (_report, state) => {
		expect(state.problem).toBeUndefined();
		if (state.stale) console.warn(`Stale figures: ${state.stale}`);
	});
});

describe('the product code fingerprint', () => {
	let copy: string;

	beforeEach(() => {
		copy = mkdtempSync(join(tmpdir(), 'mcn-fingerprint-'));
		for (const folder of ['nodes', 'credentials']) cpSync(join(REPO_ROOT, folder), join(copy, folder), { recursive: true });
	});

	afterEach(() => rmSync(copy, { recursive: true, force: true }));

	test('a report measured on other code is stale; one without raw results, or not naming them, is a problem', () => {
		const measured = { commit: 'abc1234', code: 'aaaaaaaaaaaa', date: '2026-01-01T00:00:00.000Z' };
		writeFileSync(join(copy, 'BENCHMARKS.md'), '# Benchmarks\n\nMeasured on `aaaaaaaaaaaa`.\n');
		writeFileSync(join(copy, 'BENCHMARKS.json'), JSON.stringify({ measured }));
		writeFileSync(join(copy, 'RELIABILITY.md'), '# Reliability\n');

		const [benchmarks, reliability] = figureStates(copy);

		expect(benchmarks.problem).toBeUndefined();
		expect(benchmarks.stale).toContain('BENCHMARKS.md was measured on product code aaaaaaaaaaaa (commit abc1234)');
		expect(reliability.problem).toContain('RELIABILITY.json is missing');

		writeFileSync(join(copy, 'RELIABILITY.json'), JSON.stringify({ measured: { ...measured, code: codeFingerprint(copy) } }));

		expect(figureStates(copy)[1]).toEqual({ report: 'RELIABILITY.md', problem: `RELIABILITY.md does not name the fingerprint ${codeFingerprint(copy)} that RELIABILITY.json was measured on` });
	});

	test('is the checkout’s for an exact copy, and changes with any byte of nodes/ or credentials/', () => {
		expect(codeFingerprint(copy)).toBe(codeFingerprint());

		writeFileSync(join(copy, 'credentials', 'extra.ts'), '// one more file\n');

		expect(codeFingerprint(copy)).not.toBe(codeFingerprint());
	});
});
