/**
 * Each name once: no two code files of the node share a base name (the name up to its first
 * dot), so a file's name alone says which file is meant — in a stack trace, a review, a search.
 * The node's codex (`.node.json`) and its icons are left out: n8n finds them by the node's name.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

const NODES = join(__dirname, '../../nodes');

/** Every base name used by more than one .ts file under nodes/, with the files that share it. */
function repeatedBaseNames(): string[] {
	const byBase = new Map<string, string[]>();
	for (const file of readdirSync(NODES, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
		const base = basename(file).split('.')[0];
		byBase.set(base, [...(byBase.get(base) ?? []), file]);
	}
	return [...byBase]
		.filter(([, files]) => files.length > 1)
		.map(([base, files]) => `${base}: ${files.sort().join(', ')}`)
		.sort();
}

describe('file names in the node', () => {
	it('no two .ts files under nodes/ share a base name', () => {
		expect(repeatedBaseNames()).toEqual([]);
	});
});
