/**
 * scripts/mutation/summarise.ts, run as a user runs it (through tsx), on a made-up Stryker report:
 * the counts and score per file, folder and overall as Stryker's own metrics give them; a run over
 * some files replaces only those files; a survivor's reason kept while the same mutant is there.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..');
const HELPER = 'nodes/MultiChannelNotification/helpers/a.ts';
const CREDENTIAL = 'credentials/b.ts';
const HELPER_SOURCE = "export function a(x: number) {\n\tif (x > 1) return 'big';\n\treturn 'small';\n}\n";
const CREDENTIAL_SOURCE = "export const b = (on: boolean) => (on ? 'yes' : 'no');\n";

type Status = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'CompileError' | 'RuntimeError' | 'Ignored';
interface MadeMutant {
	status: Status;
	line: number;
	mutator?: string;
	replacement?: string;
}

let nextId = 0;
const mutant = ({ status, line, mutator = 'BlockStatement', replacement = '{}' }: MadeMutant) => ({
	id: String(nextId++),
	mutatorName: mutator,
	replacement,
	status,
	location: { start: { line, column: 1 }, end: { line, column: 5 } },
});
const times = (count: number, made: MadeMutant) => Array.from({ length: count }, () => mutant(made));

/** Three killed, one timed out, one survivor, one not reached, two that do not compile, one that fails when loaded, one static. */
const helperMutants = (offset = 0) => [
	...times(3, { status: 'Killed', line: 2 + offset }),
	mutant({ status: 'Timeout', line: 1 + offset }),
	mutant({ status: 'Survived', line: 3 + offset, mutator: 'StringLiteral', replacement: '""' }),
	mutant({ status: 'NoCoverage', line: 2 + offset, mutator: 'ConditionalExpression', replacement: 'false' }),
	...times(2, { status: 'CompileError', line: 2 + offset }),
	mutant({ status: 'RuntimeError', line: 2 + offset }),
	mutant({ status: 'Ignored', line: 1 + offset }),
];

const report = (mutate: string[], files: Record<string, { source: string; mutants: ReturnType<typeof mutant>[] }>) => ({
	schemaVersion: '1.0',
	thresholds: { high: 80, low: 60 },
	config: { mutate },
	files: Object.fromEntries(Object.entries(files).map(([name, file]) => [name, { language: 'typescript', ...file }])),
});

const short = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

let root: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), 'mcn-summarise-'));
	mkdirSync(join(root, 'docs'));
	for (const [file, source] of [[HELPER, HELPER_SOURCE], [CREDENTIAL, CREDENTIAL_SOURCE]]) {
		mkdirSync(dirname(join(root, file)), { recursive: true });
		writeFileSync(join(root, file), source);
	}
	writeFileSync(
		join(root, 'README.md'),
		'# Title\n\n- `npm test` — 100 % of nothing.\n- `npm run test:mutation` — mutation testing: 1.00 % over all of the code.\n- `npm run bench` — 2 %.\n',
	);
	writeFileSync(join(root, 'stryker.config.json'), JSON.stringify({ mutate: ['nodes/**/*.ts', 'credentials/**/*.ts'] }));
	const block = '<!-- mutation-summary: generated -->\nold table\n<!-- mutation-summary:end -->';
	writeFileSync(join(root, 'docs', 'mutation-testing.md'), `# Mutation testing\n\n${block}\n\nThe rest.\n`);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function summarise(madeReport: object, ...args: string[]) {
	const reportPath = join(root, 'report.json');
	writeFileSync(reportPath, JSON.stringify(madeReport));
	const run = spawnSync(join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/mutation/summarise.ts', reportPath, '--root', root, ...args], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
	});
	expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
	return JSON.parse(readFileSync(join(root, 'test', 'mutation', 'summary.json'), 'utf8'));
}

const firstRun = () =>
	report(['nodes/**/*.ts', 'credentials/**/*.ts'], {
		[HELPER]: { source: HELPER_SOURCE, mutants: helperMutants() },
		[CREDENTIAL]: {
			source: CREDENTIAL_SOURCE,
			mutants: [mutant({ status: 'Killed', line: 1 }), mutant({ status: 'Survived', line: 1, mutator: 'ConditionalExpression', replacement: 'true' })],
		},
	});

describe('the mutation summary', () => {
	it('counts each file, folder and the whole as Stryker scores them, and says so in the README and the docs', () => {
		const summary = summarise(firstRun(), '--date', '2026-11-29', '--machine', 'a 2-core test box');

		expect(summary.files[HELPER]).toMatchObject({
			date: '2026-11-29',
			machine: 'a 2-core test box',
			sha256: short(HELPER_SOURCE),
			killed: 3,
			timeout: 1,
			survived: 1,
			noCoverage: 1,
			compileErrors: 2,
			runtimeErrors: 1,
			ignored: 1,
			score: 66.67,
			survivors: [
				{ line: 3, mutator: 'StringLiteral', replacement: '""', code: "return 'small';", reason: 'not gone through' },
				{ line: 2, mutator: 'ConditionalExpression', replacement: 'false', code: "if (x > 1) return 'big';", status: 'NoCoverage', reason: 'not gone through' },
			],
		});
		expect(summary.folders['credentials/']).toMatchObject({ files: 1, killed: 1, survived: 1, score: 50 });
		expect(summary.folders['nodes/MultiChannelNotification/helpers/']).toMatchObject({ files: 1, killed: 3, score: 66.67 });
		expect(summary.total).toMatchObject({ files: 2, killed: 4, timeout: 1, survived: 2, noCoverage: 1, compileErrors: 2, score: 62.5 });
		expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('mutation testing: 62.50 % over all of the code.\n- `npm run bench` — 2 %.');
		const docs = readFileSync(join(root, 'docs', 'mutation-testing.md'), 'utf8');
		expect(docs).toContain('| `credentials/` | 1 | 50.00 % |');
		expect(docs).toContain('| **all files** | 2 | **62.50 %** |');
		expect(docs).not.toContain('old table');
		expect(docs).toContain('The rest.');
	});

	it('says in the docs which files changed since their scores were measured, and when none did', () => {
		const docsPath = join(root, 'docs', 'mutation-testing.md');
		writeFileSync(docsPath, `${readFileSync(docsPath, 'utf8')}\n<!-- mutation-changed: old -->\nold list\n<!-- mutation-changed:end -->\n`);
		summarise(firstRun());
		expect(readFileSync(docsPath, 'utf8')).toMatch(/On \d{4}-\d{2}-\d{2}, all 2 files had their scores measured on the code they have now\.\n<!-- mutation-changed:end -->/);

		writeFileSync(join(root, HELPER), `${HELPER_SOURCE}// edited\n`);
		summarise(report(['credentials/**/*.ts'], { [CREDENTIAL]: { source: CREDENTIAL_SOURCE, mutants: [mutant({ status: 'Killed', line: 1 })] } }));
		const docs = readFileSync(docsPath, 'utf8');
		expect(docs).toContain('1 of 2 files differed from the code their scores were measured on, so those scores are of older code, and 0 had no score yet:');
		expect(docs).toContain('- `nodes/MultiChannelNotification/helpers/`: a.ts');
	});

	it('leaves a file as it was when the run found the same source and the same results (reused, not measured again)', () => {
		const before = summarise(firstRun(), '--date', '2026-11-29', '--machine', 'a 2-core test box');

		const again = summarise(firstRun(), '--date', '2026-12-06', '--machine', 'another box');

		expect(again).toEqual(before);
	});

	it('replaces only the files the run mutated, and keeps a reason while the same mutant survives', () => {
		const before = summarise(firstRun(), '--date', '2026-11-29', '--machine', 'a 2-core test box');
		before.files[HELPER].survivors[0].reason = 'the same either way';
		writeFileSync(join(root, 'test', 'mutation', 'summary.json'), JSON.stringify(before));

		const moved = `export const c = 'tiny';\n${HELPER_SOURCE}`;
		const second = report(['nodes/**/*.ts'], {
			[HELPER]: {
				source: moved,
				mutants: [...helperMutants(1), mutant({ status: 'Survived', line: 1, mutator: 'StringLiteral', replacement: '""' })],
			},
			[CREDENTIAL]: { source: CREDENTIAL_SOURCE, mutants: times(2, { status: 'Killed', line: 1 }) },
		});
		const after = summarise(second, '--date', '2026-12-06', '--machine', 'another box');

		expect(after.files[HELPER]).toMatchObject({ date: '2026-12-06', sha256: short(moved), survived: 2 });
		expect(after.files[HELPER].survivors.map((s: { line: number; reason: string }) => [s.line, s.reason])).toEqual([
			[1, 'not gone through'],
			[4, 'the same either way'],
			[3, 'not gone through'],
		]);
		expect(after.files[CREDENTIAL]).toEqual(before.files[CREDENTIAL]);
		expect(after.total).toMatchObject({ files: 2, killed: 4, survived: 3 });
	});

	it('leaves out a file no longer in the tree, whatever the summary or the report held of it', () => {
		summarise(firstRun(), '--date', '2026-11-29', '--machine', 'a 2-core test box');
		rmSync(join(root, CREDENTIAL));

		const after = summarise(firstRun(), '--date', '2026-12-06', '--machine', 'another box');

		expect(Object.keys(after.files)).toEqual([HELPER]);
		expect(Object.keys(after.folders)).toEqual(['nodes/MultiChannelNotification/helpers/']);
		expect(after.total).toMatchObject({ files: 1, killed: 3, timeout: 1, survived: 1, noCoverage: 1, score: 66.67 });
	});

	it('takes the reasons of survivors gone through from --reasons files, in files the run did not mutate too', () => {
		summarise(firstRun(), '--date', '2026-11-29', '--machine', 'a 2-core test box');
		const reasons = join(root, 'reasons.json');
		writeFileSync(
			reasons,
			JSON.stringify([
				{ file: CREDENTIAL, mutator: 'ConditionalExpression', replacement: 'true', code: "  export const b = (on: boolean) => (on ? 'yes' : 'no');", reason: 'both say yes' },
				{ file: HELPER, mutator: 'StringLiteral', replacement: '"x"', code: "return 'small';", reason: 'another mutant' },
				{ file: HELPER, mutator: 'ConditionalExpression', replacement: 'false', code: "if (x > 1) return 'big';", reason: 'never reached' },
			]),
		);
		// Two alike mutants on one line, one reason given: it is theirs both.
		const alike = { status: 'NoCoverage', line: 2, mutator: 'ConditionalExpression', replacement: 'false' } as const;
		const mutants = [...helperMutants(), mutant(alike)];

		const after = summarise(report(['nodes/**/*.ts'], { [HELPER]: { source: HELPER_SOURCE, mutants } }), '--reasons', reasons);

		expect(after.files[CREDENTIAL].survivors).toEqual([expect.objectContaining({ replacement: 'true', reason: 'both say yes' })]);
		expect(after.files[CREDENTIAL].date).toBe('2026-11-29');
		expect(after.files[HELPER].survivors.map((s: { reason: string }) => s.reason)).toEqual(['not gone through', 'never reached', 'never reached']);
	});

	it('enters a file the run mutated with nothing in it to mutate (Stryker leaves it out of its report) with no mutants', () => {
		const TYPES = 'nodes/MultiChannelNotification/helpers/types.ts';
		writeFileSync(join(root, TYPES), 'export type A = string;\n');

		const only = summarise(report(['credentials/**/*.ts'], { [CREDENTIAL]: { source: CREDENTIAL_SOURCE, mutants: [mutant({ status: 'Killed', line: 1 })] } }), '--date', '2026-12-06');
		expect(Object.keys(only.files)).toEqual([CREDENTIAL]);

		const summary = summarise(firstRun(), '--date', '2026-12-06');
		expect(summary.files[TYPES]).toMatchObject({ sha256: short('export type A = string;\n'), killed: 0, survived: 0, score: null, survivors: [] });
		expect(summary.total).toMatchObject({ files: 3, killed: 4, score: 62.5 });
	});
});
