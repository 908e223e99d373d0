/**
 * Child processes that never outlive us. Every long-running child (n8n, its worker, Redis, npm)
 * is spawned as the leader of its own process group, so stopping it stops whatever it started
 * too (n8n's task runner). Groups still alive when this process exits, is interrupted or fails
 * are killed.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { watchLifeline } from '../../../sandbox/lifeline';

export interface Group {
	name: string;
	pid: number;
	/** Resolves with the exit code (or the signal's name) once the leader has exited. */
	exited: Promise<number | string>;
	/** Everything the process wrote, as far as kept in memory (the last 200 KB). */
	output(): string;
}

const groups = new Set<Group>();

/** Sends `signal` to the whole group (0: none, to see whether it is alive); false if the group is gone. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-pid, signal);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
		throw error;
	}
}

/**
 * npm settings `npm run` hands down that belong to this repository's own run, not to the user:
 * the repository's `ignore-scripts=true` (it would keep sqlite3 from being built for n8n), and
 * where and how that npm ran. Every other `npm_config_*` (registry, cache, proxy, certificates,
 * retries: the user's settings, from the environment or their .npmrc) reaches nested npm calls.
 */
const REPOSITORY_NPM_SETTINGS = new Set(['ignore_scripts', 'local_prefix', 'call', 'npm_version', 'user_agent', 'argv']);

function keepForChild(key: string): boolean {
	if (key === 'INIT_CWD' || key === 'NODE_OPTIONS') return false;
	const setting = /^npm_config_(.+)$/i.exec(key);
	if (setting) return !REPOSITORY_NPM_SETTINGS.has(setting[1].toLowerCase());
	// npm_package_*, npm_lifecycle_*, npm_execpath and the like describe the script being run.
	return !/^npm_/i.test(key);
}

/**
 * The environment for a child: ours, with the user's npm settings, without what `npm run` adds
 * about this repository's own script (see {@link REPOSITORY_NPM_SETTINGS}).
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const kept = Object.entries(process.env).filter(([key]) => keepForChild(key));
	return { ...Object.fromEntries(kept), ...extra };
}

export interface SpawnOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Append stdout and stderr to this file. */
	logFile?: string;
	/** Also print each output line, prefixed with `[name] `. */
	echo?: boolean;
}

export function spawnGroup(name: string, command: string, args: string[], options: SpawnOptions = {}): Group {
	const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
	const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
	let kept = '';
	let pending = '';
	const onData = (chunk: Buffer): void => {
		const text = chunk.toString('utf8');
		log?.write(text);
		kept = (kept + text).slice(-200_000);
		if (options.echo) {
			pending += text;
			const lines = pending.split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
		}
	};
	child.stdout?.on('data', onData);
	child.stderr?.on('data', onData);
	const exited = new Promise<number | string>((resolve) => {
		child.on('exit', (code, signal) => {
			log?.end();
			resolve(code ?? signal ?? 'unknown');
		});
		child.on('error', (error) => {
			kept += `\n${error.message}\n`;
			resolve('spawn-error');
		});
	});
	const group: Group = { name, pid: child.pid, exited, output: () => kept };
	groups.add(group);
	return group;
}

/**
 * Polls `ready` until it holds; fails if the group exits first, or after `timeoutMs`: a deadline
 * against a server that never starts (on a busy machine start-up can take a while).
 */
export async function whenReady(group: Group, timeoutMs: number, ready: () => boolean | Promise<boolean>): Promise<void> {
	let exitCode: number | string | undefined;
	void group.exited.then((code) => (exitCode = code));
	const deadline = Date.now() + timeoutMs;
	while (!(await ready())) {
		if (exitCode !== undefined) throw new Error(`${group.name} exited (${exitCode}) before it was ready:\n${tail(group.output(), 30)}`);
		if (Date.now() > deadline) throw new Error(`${group.name} was not ready after ${timeoutMs / 1000} s:\n${tail(group.output(), 30)}`);
		await delay(250);
	}
}

/** SIGTERM to the whole group, then SIGKILL to whatever is left after `graceMs`. */
export async function stopGroup(group: Group, graceMs = 10_000): Promise<void> {
	if (!groups.has(group)) return;
	signalGroup(group.pid, 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while (signalGroup(group.pid, 0) && Date.now() < deadline) await delay(100);
	signalGroup(group.pid, 'SIGKILL');
	await Promise.race([group.exited, delay(2000)]);
	groups.delete(group);
}

/** The groups still running, e.g. to show their last log lines when a check fails. */
export function liveGroups(): Group[] {
	return [...groups];
}

export async function stopAll(graceMs = 10_000): Promise<void> {
	// Newest first: a worker before the main instance, n8n before Redis.
	for (const group of [...groups].reverse()) await stopGroup(group, graceMs);
}

function killAllNow(): void {
	for (const group of groups) signalGroup(group.pid, 'SIGKILL');
	groups.clear();
}

/** Runs a command to completion in its own group (so Ctrl-C handling can stop it too); fails unless it exits 0. */
export async function run(name: string, command: string, args: string[], options: SpawnOptions = {}): Promise<{ output: string }> {
	const group = spawnGroup(name, command, args, options);
	const code = await group.exited;
	// The leader is gone; make sure nothing it started lingers.
	signalGroup(group.pid, 'SIGKILL');
	groups.delete(group);
	const output = group.output();
	if (code !== 0) throw new Error(`${name} failed (${command} ${args.join(' ')} → ${code}):\n${tail(output, 40)}`);
	return { output };
}

export function tail(text: string, lines: number): string {
	return text.trimEnd().split('\n').slice(-lines).join('\n');
}

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A port that was free a moment ago: bind port 0 on 127.0.0.1 and give it back. */
export async function freePort(): Promise<number> {
	const server = createServer().unref();
	await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** Whether something listens on 127.0.0.1:port already. */
export async function portInUse(port: number): Promise<boolean> {
	return await new Promise<boolean>((resolve) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}

const tempDirs = new Set<string>();

/** Deletes the folder when this process exits, unless KEEP_N8N_FOLDERS=1 (for looking at logs). */
export function removeOnExit(dir: string): void {
	tempDirs.add(dir);
}

/**
 * A fresh folder `mcn-<label>-<random>` in the temp folder, removed when this process exits. It is
 * outside the repository, so module resolution from it cannot find the repository's node_modules
 * (the real-n8n checks install the package into such a folder as a user's n8n would).
 */
export function makeTempDir(label: string): string {
	const dir = mkdtempSync(join(tmpdir(), `mcn-${label}-`));
	removeOnExit(dir);
	return dir;
}

function removeTempDirs(): void {
	if (process.env.KEEP_N8N_FOLDERS === '1') {
		for (const dir of tempDirs) process.stdout.write(`Kept ${dir}\n`);
		return;
	}
	for (const dir of tempDirs) {
		try {
			rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
		} catch (error) {
			process.stderr.write(`Could not remove ${dir}: ${(error as Error).message}\n`);
		}
	}
	tempDirs.clear();
}

/** Copies of one signal arriving within this time are one signal. */
const REPEAT_WINDOW_MS = 1000;
let cleanupInstalled = false;
let stoppingOnSignal = false;

/** True once Ctrl-C (or SIGTERM) started the shutdown: processes ending now are expected to. */
export function shuttingDown(): boolean {
	return stoppingOnSignal;
}

/**
 * Installs the exit handlers once: on Ctrl-C, SIGTERM, SIGHUP, or when the command that started
 * us is gone (sandbox/lifeline.ts: e.g. only the top `npm` was signalled), every group is stopped
 * gracefully and `beforeExit` (e.g. stopping the sandbox) runs; on any exit, groups still alive
 * are killed and the temporary folders removed. A second Ctrl-C kills at once; a repeated
 * SIGTERM does not hurry the stop already under way. The exit code after a signal is 130/143
 * unless `signalExitCode` says otherwise (`npm start` ends with 0: Ctrl-C is how it is meant to
 * stop).
 */
export function installCleanup(beforeExit?: () => Promise<void>, { signalExitCode }: { signalExitCode?: number } = {}): void {
	if (cleanupInstalled) return;
	cleanupInstalled = true;
	let firstSignalAt = 0;
	const onSignal = (signal: NodeJS.Signals, why = `${signal} received`): void => {
		if (stoppingOnSignal) {
			// One Ctrl-C can arrive more than once (from the terminal and passed on by a parent).
			if (signal !== 'SIGINT' || Date.now() - firstSignalAt < REPEAT_WINDOW_MS) return;
			killAllNow();
			process.exit(130);
		}
		stoppingOnSignal = true;
		firstSignalAt = Date.now();
		process.stdout.write(`\n${why}: stopping n8n and the sandbox…\n`);
		void (async () => {
			try {
				await stopAll(8000);
				await beforeExit?.();
			} finally {
				process.exit(signalExitCode ?? (signal === 'SIGINT' ? 130 : 143));
			}
		})();
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => onSignal(signal));
	watchLifeline((why) => onSignal('SIGTERM', why));
	process.on('exit', () => {
		killAllNow();
		removeTempDirs();
	});
	const die = (reason: unknown): void => {
		process.stderr.write(`${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`);
		killAllNow();
		process.exit(1);
	};
	process.on('uncaughtException', die);
	process.on('unhandledRejection', die);
}

/** Under CI=true, long work prints one line per stage and no progress in between. */
export const QUIET = process.env.CI === 'true';

export function elapsed(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
