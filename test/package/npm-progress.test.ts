/**
 * What the first `npm start` says while npm installs n8n: packages downloaded and taken from
 * npm's cache, as npm 11 logs them (test/fixtures/npm11/, captured from real installs), on a line
 * that fits 80 columns.
 */
import { join } from 'node:path';

import { fetchProgress, progressLine } from '../../scripts/n8n/lib/npmProgress';

const FIXTURES = join(__dirname, '..', 'fixtures', 'npm11');

test('an install with an empty cache: every package downloaded, none from the cache', () => {
	expect(fetchProgress(join(FIXTURES, 'cold-cache.txt'))).toEqual(
		expect.objectContaining({ metadata: 4, fetched: 4, fromCache: 0, last: 'debug@4.4.0' }),
	);
});

test('an install from a warm cache: every package counted, all of them from the cache', () => {
	expect(fetchProgress(join(FIXTURES, 'warm-cache.txt'))).toEqual(
		expect.objectContaining({ metadata: 4, fetched: 0, fromCache: 4, last: '@types/debug@4.1.12' }),
	);
});

test('a log not written yet: nothing counted', () => {
	expect(fetchProgress(join(FIXTURES, 'no-such.log'))).toEqual({ metadata: 0, fetched: 0, fromCache: 0, last: undefined, bytes: 0 });
});

describe('the progress line fits 80 columns', () => {
	const busy = { metadata: 1516, fetched: 1203, fromCache: 313, last: '@n8n/n8n-nodes-langchain-with-a-very-long-name@2.8.4', bytes: 1 };

	test('while npm downloads: time, packages (downloaded, from the cache), size, the last one', () => {
		const line = progressLine(754_000, busy, 2412, 0);
		expect(line).toMatch(/^ {2}… 12 min 34 s: 1203 packages downloaded, 313 from cache, 2412 MB, last: @n8n/);
		expect(line.length).toBeLessThanOrEqual(80);
	});

	test('before any package: the metadata read so far', () => {
		const line = progressLine(12_000, { metadata: 143, fetched: 0, fromCache: 0, last: 'express', bytes: 1 }, 0, 0);
		expect(line).toBe('  … 12 s: metadata of 143 packages read, 0 MB, last: express');
	});

	test('npm quiet for over 10 s after the downloads: it says npm is unpacking and building', () => {
		const line = progressLine(754_000, busy, 2412, 45_000);
		expect(line).toBe('  … 12 min 34 s: 1516 packages in; npm unpacks and builds (quiet for 45 s)');
		expect(line.length).toBeLessThanOrEqual(80);
	});
});
