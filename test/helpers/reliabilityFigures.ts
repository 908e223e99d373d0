import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Figures the reliability suite measured, written as JSON under .cache/reliability/ so that
 * scripts/reliability.ts can render RELIABILITY.md from an actual run. Each test file records
 * under its own name; a later call merges into what the file already recorded.
 */

export const FIGURES_DIR = path.resolve(__dirname, '..', '..', '.cache', 'reliability');

export type Figures = Record<string, unknown>;

const recorded = new Map<string, Figures>();

export function recordFigures(name: string, figures: Figures): void {
	const merged = { ...(recorded.get(name) ?? {}), ...figures };
	recorded.set(name, merged);
	mkdirSync(FIGURES_DIR, { recursive: true });
	writeFileSync(path.join(FIGURES_DIR, `${name}.json`), `${JSON.stringify(merged, null, 2)}\n`);
}

/** The fuzz seed: RELIABILITY_SEED when set, else a fixed default so every run is reproducible. */
export function fuzzSeed(): number {
	const fromEnv = Number(process.env.RELIABILITY_SEED);
	return Number.isInteger(fromEnv) && process.env.RELIABILITY_SEED !== undefined ? fromEnv : 20250611;
}
