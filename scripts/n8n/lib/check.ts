/**
 * The frame every end-to-end check shares: the run's TLS (a check started by hand restarts itself
 * under scripts/with-tls.ts's runner), cleanup handlers, an https sandbox, named assertions that
 * are printed as they are evaluated, the elapsed time, and an exit code.
 */
import { AssertionError } from 'node:assert';

import { ensureRunTls } from '../../../sandbox/tls';
import type { Sandbox } from './sandbox';
import { startSandbox } from './sandbox';
import { installCleanup, liveGroups, stopAll, tail } from './process';
import { printTimings } from './stack';

export interface CheckContext {
	sandbox: Sandbox;
	/** Prints a passed expectation; throws (failing the check) when `ok` is false. */
	expect(ok: boolean, what: string, detail?: unknown): void;
	/**
	 * The same for an expectation the next steps do not depend on: a failure is printed and the
	 * check goes on, so one run shows every failure; the check fails at the end.
	 */
	verify(ok: boolean, what: string, detail?: unknown): void;
}

export async function runCheck(name: string, body: (context: CheckContext) => Promise<void>): Promise<void> {
	await ensureRunTls();
	const started = Date.now();
	let sandbox: Sandbox | undefined;
	let passed = 0;
	let verified = 0;
	const failed: string[] = [];
	installCleanup(async () => await sandbox?.stop());
	const got = (detail: unknown): string => (detail === undefined ? '' : `\n  got: ${JSON.stringify(detail, null, 2)}`);
	const expect = (ok: boolean, what: string, detail?: unknown): void => {
		if (!ok) throw new AssertionError({ message: `${what}${got(detail)}` });
		passed++;
		console.log(`  ✔ ${what}`);
	};
	const verify = (ok: boolean, what: string, detail?: unknown): void => {
		verified++;
		if (ok) return expect(ok, what);
		failed.push(what);
		console.log(`  ✘ ${what}${got(detail).replace(/\n/g, '\n    ')}`);
	};
	const finish = (code: number, message: string): void => {
		printTimings();
		console.log(`\n${message} — ${name}: ${passed} expectations passed, ${((Date.now() - started) / 1000).toFixed(1)} s`);
		process.exit(code);
	};
	console.log(`=== ${name} ===`);
	(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true });
		await body({ sandbox, expect, verify });
		if (verified > 0) expect(failed.length === 0, `all ${verified} verified expectations held`, failed);
		await stopAll();
		await sandbox.stop();
	})().then(
		() => finish(0, 'PASS'),
		async (error: unknown) => {
			console.error(`\n  ✘ ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
			for (const group of liveGroups()) console.error(`\n--- last lines of ${group.name} ---\n${tail(group.output(), 25)}`);
			await stopAll(3000);
			await sandbox?.stop();
			finish(1, 'FAIL');
		},
	);
}
