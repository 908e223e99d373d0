/**
 * The frame every end-to-end check shares. A check says what it needs in n8n (credentials and
 * workflows to import, environment for n8n) before n8n starts, then runs against it. Checks run
 * together share one n8n: one for the checks on a single instance and one queue-mode set-up
 * (Postgres, Redis, main + 2 workers) for the queue checks, so each n8n start, package install
 * and import is paid once, not once per check. Each check still gets its own verdict: a failed
 * check is reported and the next one runs; the run fails at the end if any did.
 *
 * Also here: the run's TLS (a check started by hand restarts itself under scripts/with-tls.ts's
 * runner), cleanup handlers, the https sandbox (reset before each check), and named assertions
 * that are printed as they are evaluated.
 */
import { AssertionError } from 'node:assert';
import { isDeepStrictEqual } from 'node:util';

import { ensureRunTls } from '../../../sandbox/tls';
import type { CredentialFixture } from './n8n';
import type { QueueStack } from './queue';
import { launchQueue } from './queue';
import type { Sandbox } from './sandbox';
import { startSandbox } from './sandbox';
import { elapsed, installCleanup, liveGroups, stopAll, tail } from './process';
import type { Stack } from './stack';
import { launch, printTimings } from './stack';

export interface CheckContext {
	sandbox: Sandbox;
	stack: Stack;
	/** Prints a passed expectation; throws (failing the check) when `ok` is false. */
	expect(ok: boolean, what: string, detail?: unknown): void;
	/**
	 * The same for an expectation the next steps do not depend on: a failure is printed and the
	 * check goes on, so one run shows every failure; the check fails at the end.
	 */
	verify(ok: boolean, what: string, detail?: unknown): void;
}

/** What a check needs in n8n, and its run once n8n is up. */
export interface Prepared<S extends Stack = Stack> {
	credentials?: CredentialFixture[];
	workflows?: Array<{ id: string }>;
	/** Environment for n8n (e.g. a proxy, a preloaded probe); checks sharing an n8n must not disagree. */
	env?: Record<string, string>;
	run(context: CheckContext & { stack: S }): Promise<void>;
}

export interface Check {
	name: string;
	/** Runs on queue mode's main instance and 2 workers (at n8n's default concurrency) rather than on one n8n. */
	queue?: boolean;
	/** Runs on an n8n of its own, where the sandbox's is the only credential of the node's type. */
	alone?: boolean;
	/** Called before n8n starts, with the sandbox the run shares. */
	prepare(sandbox: Sandbox): Promise<Prepared> | Prepared;
}

/** A check that runs in queue mode; its run gets the queue stack. */
export const queueCheck = (name: string, prepare: (sandbox: Sandbox) => Promise<Prepared<QueueStack>> | Prepared<QueueStack>): Check => ({
	name,
	queue: true,
	prepare: prepare as Check['prepare'],
});

/** The union of the checks' fixtures (one per id; the same id must mean the same fixture) and environment. */
function merged(prepared: Prepared[]) {
	const unique = <T extends { id: string }>(all: T[]): T[] => {
		const byId = new Map<string, T>();
		for (const fixture of all) {
			const known = byId.get(fixture.id);
			if (known && !isDeepStrictEqual(known, fixture)) throw new Error(`two checks import different fixtures with the id ${fixture.id}`);
			byId.set(fixture.id, fixture);
		}
		return [...byId.values()];
	};
	const env: Record<string, string> = {};
	for (const [key, value] of prepared.flatMap((entry) => Object.entries(entry.env ?? {}))) {
		if (key in env && env[key] !== value) throw new Error(`two checks need different values of ${key} in n8n's environment`);
		env[key] = value;
	}
	return { credentials: unique(prepared.flatMap((entry) => entry.credentials ?? [])), workflows: unique(prepared.flatMap((entry) => entry.workflows ?? [])), env };
}

/** Prints an error and the last lines of every process still running. */
function printFailure(error: unknown): void {
	console.error(`\n  ✘ ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
	for (const group of liveGroups()) console.error(`\n--- last lines of ${group.name} ---\n${tail(group.output(), 25)}`);
}

/**
 * Runs the checks, in the order given: the single-instance ones on one n8n, those that need one
 * of their own each on theirs, then the queue ones on one queue-mode set-up. Prints a verdict per
 * check and exits 0 only if all passed.
 */
export async function runChecks(checks: Check[]): Promise<void> {
	await ensureRunTls();
	const started = Date.now();
	let sandbox: Sandbox | undefined;
	installCleanup(async () => await sandbox?.stop());
	const verdicts: string[] = [];
	let allPassed = true;
	try {
		const service = await startSandbox({ port: 0, quiet: true, phone: { port: 0 } });
		sandbox = service;
		const shared = checks.filter((check) => !check.queue && !check.alone);
		const groups = [shared, ...checks.filter((check) => check.alone).map((check) => [check]), checks.filter((check) => check.queue)];
		for (const group of groups) {
			if (group.length === 0) continue;
			const prepared: Prepared[] = [];
			for (const check of group) prepared.push(await check.prepare(service));
			const fixtures = merged(prepared);
			const options = { label: group[0].queue ? 'queue' : 'checks', sandbox: service, ...fixtures, extraEnv: fixtures.env };
			const stack = group[0].queue
				? await launchQueue({ ...options, workers: ['n8n worker 1', 'n8n worker 2'] })
				: await launch(options);
			for (const [index, check] of group.entries()) {
				const checkStarted = Date.now();
				console.log(`\n=== ${check.name} ===`);
				service.reset();
				const counts = { passed: 0, failed: [] as string[] };
				const got = (detail: unknown): string => (detail === undefined ? '' : `\n  got: ${JSON.stringify(detail, null, 2)}`);
				const expect = (ok: boolean, what: string, detail?: unknown): void => {
					if (!ok) throw new AssertionError({ message: `${what}${got(detail)}` });
					counts.passed++;
					console.log(`  ✔ ${what}`);
				};
				const verify = (ok: boolean, what: string, detail?: unknown): void => {
					if (ok) return expect(ok, what);
					counts.failed.push(what);
					console.log(`  ✘ ${what}${got(detail).replace(/\n/g, '\n    ')}`);
				};
				try {
					await prepared[index].run({ sandbox: service, stack, expect, verify });
				} catch (error) {
					// This check fails; the next one runs on the same n8n.
					counts.failed.push(String(error));
					printFailure(error);
				}
				const failed = counts.failed.length;
				allPassed &&= failed === 0;
				verdicts.push(`${elapsed(checkStarted).padStart(9)}  ${failed === 0 ? 'PASS' : 'FAIL'}  ${check.name} (${counts.passed} expectations passed${failed ? `, ${failed} failed` : ''})`);
			}
			await stopAll();
		}
	} catch (error) {
		// The sandbox, a check's preparation or an n8n start failed: the checks left have no verdict.
		allPassed = false;
		printFailure(error);
		await stopAll(3000);
	}
	await sandbox?.stop();
	printTimings();
	console.log(`\nChecks (${elapsed(started)} in all):\n${verdicts.map((line) => `  ${line}`).join('\n')}`);
	console.log(allPassed && verdicts.length === checks.length ? '\nPASS' : '\nFAIL');
	process.exit(allPassed && verdicts.length === checks.length ? 0 : 1);
}

/** `npx tsx scripts/n8n/check-<name>.ts`: a check file started by hand runs its checks alone. */
export function runIfMain(module: NodeModule, ...checks: Check[]): void {
	if (require.main === module) void runChecks(checks);
}
