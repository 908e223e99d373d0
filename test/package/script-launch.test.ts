/**
 * How the npm scripts and the CI start their TypeScript: `node --import tsx <file>`, never the
 * `tsx` command. That command passes a signal on to the script it started and kills the script
 * 60 ms later unless the script has confirmed the signal by then. A script whose event loop is
 * busy at that moment (on a loaded machine, often) is killed before its clean-up runs: that is how
 * the demo's n8n folder and the run's TLS material were left in the temp folder when only the top
 * npm of `npm run demo` was stopped. Started by node itself, a script gets the signal and runs its
 * clean-up whenever its event loop is free again.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..');
const TSX_COMMAND = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

let work: string;
beforeEach(() => (work = mkdtempSync(join(tmpdir(), 'mcn-script-launch-'))));
afterEach(() => rmSync(work, { recursive: true, force: true }));

/**
 * A script that removes its own work (here: writes `cleaned`) on SIGTERM, and whose event loop is
 * busy for 2 s right after it says it is ready; the signal is sent then. The 2 s are a bound, not a
 * timing claim: far beyond the `tsx` command's 60 ms, so that even a slow machine sends the
 * signal while the script is still busy.
 */
async function signalledWhileBusy(launch: (script: string) => [string, string[]]): Promise<{ cleaned: boolean; ended: number | string | null }> {
	const script = join(work, 'busy.ts');
	const marker = join(work, 'cleaned');
	writeFileSync(
		script,
		[
			"import { writeFileSync } from 'node:fs';",
			"process.on('SIGTERM', () => { writeFileSync(process.argv[2], 'cleaned'); process.exit(143); });",
			"process.stdout.write('ready\\n');",
			'for (const end = Date.now() + 2000; Date.now() < end; );',
			'setInterval(() => undefined, 1000);',
		].join('\n'),
	);
	const [command, args] = launch(script);
	const child = spawn(command, [...args, marker], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
	const ended = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
	await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()));
	child.kill('SIGTERM');
	return { ended: await ended, cleaned: existsSync(marker) };
}

test('a script started as `node --import tsx` runs its clean-up when signalled while busy', async () => {
	expect(await signalledWhileBusy((script) => [process.execPath, ['--import', 'tsx', script]])).toEqual({ cleaned: true, ended: 143 });
}, 60_000);

test('the same script started by the `tsx` command is killed before its clean-up (why the scripts do not use it)', async () => {
	expect(await signalledWhileBusy((script) => [TSX_COMMAND, [script]])).toEqual({ cleaned: false, ended: 143 });
}, 60_000);

test('every npm script and the CI start TypeScript with `node --import tsx`, never through the `tsx` command', () => {
	const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
	// `tsx` as the command of a script, of a chained command or of the TLS wrapper, or by its path.
	const tsxCommand = /(?:^|&&|\|\||;|\bexec\b|with-tls\.ts)\s*(?:npx\s+)?tsx\s|node_modules\/\.bin\/tsx/;
	const offending = Object.entries(scripts).filter(([, command]) => tsxCommand.test(command.replace(/--import tsx/g, '')));
	expect(offending).toEqual([]);
	for (const file of ['.ci/run', 'scripts/ci-e2e.sh']) {
		const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
		expect({ file, lines: lines.filter((line) => !line.trimStart().startsWith('#') && tsxCommand.test(line.replace(/--import tsx/g, ''))) }).toEqual({ file, lines: [] });
	}
});
