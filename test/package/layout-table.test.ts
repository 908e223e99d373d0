/**
 * The layout table of docs/development.md places every part of the repository a reader meets:
 * each top-level folder, each folder and file of scripts/, and the helpers and fixtures the tests
 * share. A new script or folder comes with its one line of job (and its size, from the command
 * under the table), and a row whose path is gone fails here instead of sending a reader nowhere.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const HEADING = '## How the repository is laid out';

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((file) => file !== '');

/** Every top-level folder but scripts/ (its parts have rows of their own), each part of scripts/, and test's shared folders. */
function placesToName(): string[] {
	const topFolders = tracked.filter((file) => file.includes('/') && !file.startsWith('scripts/')).map((file) => `${file.split('/')[0]}/`);
	const scriptParts = tracked
		.filter((file) => file.startsWith('scripts/'))
		.map((file) => file.split('/'))
		.map((parts) => (parts.length > 2 ? `scripts/${parts[1]}/` : parts.join('/')));
	return [...new Set([...topFolders, ...scriptParts, 'test/helpers/', 'test/fixtures/'])].sort();
}

/** The paths named (in backticks) in the first cell of each row of the layout table. */
function namedInTable(): string[] {
	const page = readFileSync(join(ROOT, 'docs/development.md'), 'utf8');
	const section = page.split(HEADING)[1]?.split('\n## ')[0] ?? '';
	return section
		.split('\n')
		.filter((line) => line.startsWith('| `'))
		.flatMap((line) => [...line.split('|')[1].matchAll(/`([^`]+)`/g)].map((match) => match[1]));
}

describe('the layout table in docs/development.md', () => {
	it('has a row for every top-level folder, every part of scripts/, test/helpers/ and test/fixtures/', () => {
		const named = namedInTable();
		// A top-level folder is placed by a row inside it too (nodes/ by nodes/MultiChannelNotification/).
		const placed = (place: string) => named.some((path) => path === place || (!place.startsWith('scripts/') && path.startsWith(place)));
		expect(placesToName().filter((place) => !placed(place))).toEqual([]);
	});

	it('names only paths the repository holds', () => {
		const exists = (path: string) => tracked.some((file) => file === path || file.startsWith(path.endsWith('/') ? path : `${path}/`));
		expect(namedInTable().filter((path) => !exists(path))).toEqual([]);
	});
});
