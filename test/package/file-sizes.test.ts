/**
 * No room too big: every file people read and change stays at or under 300 lines, so each says
 * one thing. Function length in the node's code is the lint's (max-lines-per-function in
 * eslint.config.mjs); this covers every kind of file, Markdown and scripts included.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const MAX_LINES = 300;
/**
 * Data that programs write and read, never people: the lockfile, the measured figures behind
 * RELIABILITY.md, the summary of the mutation runs, and drawings. BENCHMARKS.json, the summary
 * behind BENCHMARKS.md (one line a leg), stays within the limit like any other file.
 */
const WRITTEN_BY_PROGRAMS = [/^package-lock\.json$/, /^RELIABILITY\.json$/, /^test\/mutation\/summary\.json$/, /\.(png|svg)$/];

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
	.split('\0')
	.filter((file) => file !== '' && !WRITTEN_BY_PROGRAMS.some((pattern) => pattern.test(file)));

describe('file sizes', () => {
	it(`every file people read is at most ${MAX_LINES} lines`, () => {
		const tooLong = tracked
			.map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
			.filter(({ lines }) => lines > MAX_LINES)
			.map(({ file, lines }) => `${file}: ${lines} lines`);
		expect(tooLong).toEqual([]);
	});
});
