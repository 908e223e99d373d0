/**
 * The sandbox's command line (sandbox/cli.ts), as a child process: what it serves and says, its
 * flags, and its exit codes. Waits follow the child's output and exit, never the clock; each test
 * has two minutes, since starting a TypeScript child process on a busy machine takes a while.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

import { SMS_PATH, WA_MESSAGE_PATH } from '../../sandbox/server';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const STARTED = '+6281300000003';
const CLI_TIMEOUT_MS = 120_000;

interface Cli {
	child: ReturnType<typeof spawn>;
	output: () => string;
	exited: Promise<number | null>;
	/** The first match of `pattern` in the output; rejects if the child exits first. */
	waitFor: (pattern: RegExp) => Promise<RegExpMatchArray>;
}

function runCli(args: string[]): Cli {
	const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', ...args], {
		cwd: REPO_ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let text = '';
	const listeners = new Set<() => void>();
	const read = (chunk: Buffer) => {
		text += chunk.toString();
		for (const listener of listeners) listener();
	};
	child.stdout?.on('data', read);
	child.stderr?.on('data', read);
	let exitCode: number | null | undefined;
	const exited = new Promise<number | null>((resolve) =>
		child.on('exit', (code) => {
			exitCode = code;
			for (const listener of listeners) listener();
			resolve(code);
		}),
	);
	const waitFor = (pattern: RegExp) =>
		new Promise<RegExpMatchArray>((resolve, reject) => {
			const check = () => {
				const match = text.match(pattern);
				if (!match && exitCode === undefined) return;
				listeners.delete(check);
				if (match) resolve(match);
				else reject(new Error(`the sandbox exited (${String(exitCode)}) before printing ${String(pattern)}:\n${text}`));
			};
			listeners.add(check);
			check();
		});
	return { child, output: () => text, exited, waitFor };
}

/** Runs `body` with the child, and kills it if the body left it running. */
async function withCli(cli: Cli, body: (cli: Cli) => Promise<void>): Promise<void> {
	try {
		await body(cli);
	} finally {
		if (cli.child.exitCode === null && cli.child.signalCode === null) {
			cli.child.kill('SIGKILL');
			await cli.exited;
		}
	}
}

test(
	'serves, logs one line per request and exits 0 on SIGTERM',
	async () =>
		await withCli(runCli(['--port', '0', '--key', 'cli-key', '--started', STARTED, '--latency', '0']), async (cli) => {
			const [, url] = await cli.waitFor(/Sandbox listening on (https:\/\/127\.0\.0\.1:\d+)/);
			expect(cli.output()).toContain('API key: cli-key');
			expect(cli.output()).toContain('/__sandbox/faults');
			const response = await fetch(`${url}${WA_MESSAGE_PATH}`, {
				method: 'POST',
				headers: { Authorization: 'cli-key', 'Content-Type': 'application/json' },
				body: JSON.stringify({ from: '+6281100000001', to: STARTED, type: 'image', image: { link: 'https://cdn.example.com/file.image' } }),
			});
			expect(response.status).toBe(200);
			await cli.waitFor(/POST \/v1\/wa\/message 200/);
			cli.child.kill('SIGTERM');
			expect(await cli.exited).toBe(0);
		}),
	CLI_TIMEOUT_MS,
);

test(
	'--http serves plain http, says the key crosses in clear, and makes no CA',
	async () =>
		await withCli(runCli(['--http', '--port', '0', '--key', 'cli-key']), async (cli) => {
			const [, url] = await cli.waitFor(/Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/);
			expect(cli.output()).toContain('turn on Allow Plain HTTP');
			expect(cli.output()).not.toContain('CA certificate');
			const response = await fetch(`${url}${SMS_PATH}`, {
				method: 'POST',
				headers: { Authorization: 'cli-key', 'Content-Type': 'application/json' },
				body: JSON.stringify({ phone_number: '+6281234567890', message: 'hello' }),
			});
			expect(response.status).toBe(200);
			cli.child.kill('SIGTERM');
			expect(await cli.exited).toBe(0);
		}),
	CLI_TIMEOUT_MS,
);

test(
	'exits 2 on an unknown flag',
	async () => {
		const cli = runCli(['--prot', '80']);
		expect(await cli.exited).toBe(2);
		expect(cli.output()).toMatch(/Usage:/);
	},
	CLI_TIMEOUT_MS,
);

test(
	'--answer text:… with --answer-delay and --answer-no-preview sets the plan at start; a bad --answer exits 2',
	async () => {
		await withCli(runCli(['--port', '0', '--answer', 'text:ok, ship it', '--answer-delay', '250', '--answer-no-preview']), async (cli) => {
			const [, url] = await cli.waitFor(/Sandbox listening on (https:\/\/\S+)/);
			const response = await fetch(`${url}/__sandbox/answer-links`);
			expect(await response.json()).toEqual({ plan: { answer: { text: 'ok, ship it' }, delayMs: 250, preview: false } });
			cli.child.kill('SIGTERM');
			expect(await cli.exited).toBe(0);
		});
		const bad = runCli(['--answer', 'maybe']);
		expect(await bad.exited).toBe(2);
		expect(bad.output()).toMatch(/--answer: expected approve, decline or text:<answer>, got "maybe"/);
	},
	CLI_TIMEOUT_MS,
);

test(
	'prints the phone page\'s address, http on 127.0.0.1 on a port of its own, which shows what was sent; --phone-port picks it, --no-phone leaves it out',
	async () => {
		await withCli(runCli(['--port', '0', '--key', 'cli-key']), async (cli) => {
			const [, url] = await cli.waitFor(/Sandbox listening on (https:\/\/127\.0\.0\.1:\d+)/);
			const [, phone] = await cli.waitFor(/Phone page: (http:\/\/127\.0\.0\.1:\d+)/);
			expect(new URL(phone).port).not.toBe(new URL(url).port);
			const sent = await fetch(`${url}${SMS_PATH}`, {
				method: 'POST',
				headers: { Authorization: 'cli-key', 'Content-Type': 'application/json' },
				body: JSON.stringify({ phone_number: '+6281234567890', message: 'Seen on the phone page' }),
			});
			expect(sent.status).toBe(200);
			const page = await (await fetch(phone)).text();
			expect(page).toContain('Seen on the phone page');
			expect(page).not.toContain('cli-key');
			cli.child.kill('SIGTERM');
			expect(await cli.exited).toBe(0);
		});
		await withCli(runCli(['--port', '0', '--no-phone']), async (cli) => {
			const [, url] = await cli.waitFor(/Sandbox listening on (https:\/\/\S+)/);
			// A request answered: the signal handlers are in place before the SIGTERM below.
			expect((await fetch(`${url}/__sandbox/stats`)).status).toBe(200);
			expect(cli.output()).not.toContain('Phone page');
			cli.child.kill('SIGTERM');
			expect(await cli.exited).toBe(0);
		});
		const bad = runCli(['--port', '0', '--phone-port', 'x']);
		expect(await bad.exited).toBe(2);
		expect(bad.output()).toMatch(/--phone-port: expected a whole number, got "x"/);
	},
	CLI_TIMEOUT_MS,
);
