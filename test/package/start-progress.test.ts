/**
 * Every step of `npm start` says something at least every 10 s, however long it takes (starting
 * n8n takes 15 to 19 s here): on jest's fake clock, a 19 s step run through the steps' printer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { step } from '../../scripts/n8n/lib/stack';

afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

test('a 19 s step prints a line at least every 10 s, naming the step and the time so far', async () => {
	jest.useFakeTimers();
	const printed: Array<{ at: number; line: string }> = [];
	jest.spyOn(console, 'log').mockImplementation((line: unknown) => {
		printed.push({ at: Date.now(), line: String(line) });
	});
	const started = Date.now();

	const done = step('start n8n', async () => await new Promise<void>((resolve) => setTimeout(resolve, 19_000)));
	await jest.advanceTimersByTimeAsync(19_000);
	await done;

	const times = [started, ...printed.map((entry) => entry.at)];
	const gaps = times.slice(1).map((at, index) => at - times[index]);
	expect(Math.max(...gaps)).toBeLessThanOrEqual(10_000);
	expect(printed.map((entry) => entry.line)).toContain('  … start n8n: 5 s');
	expect(printed.at(-1)?.line).toBe('✓ start n8n (19.0 s)');
});

test('a step with its own progress lines (the npm install) is left to them', async () => {
	jest.useFakeTimers();
	const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);

	const done = step('n8n install (.cache/)', async () => await new Promise<void>((resolve) => setTimeout(resolve, 12_000)), { heartbeat: false });
	await jest.advanceTimersByTimeAsync(12_000);
	await done;

	expect(log.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith('  …'))).toEqual([]);
});

test('npm start and npm run demo build through that step, so the TypeScript build is not silent either', () => {
	const { scripts } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
	for (const name of ['start', 'demo']) expect(scripts[name]).toMatch(/^node --import tsx scripts\/n8n\/build\.ts && exec /);
});
