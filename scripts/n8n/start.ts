/**
 * `npm start`: the package in real n8n, with the sandbox as the service.
 *
 *   tsx scripts/n8n/start.ts [--once] [--port N] [--verbose]
 *
 * Starts the sandbox, installs n8n 2.8.4 into .cache/ on first use, installs the packed package
 * into a fresh n8n user folder like a community package, imports the sandbox credential and the
 * example workflows that need no chat model (all but the AI Agent one), starts n8n on 127.0.0.1,
 * runs each once and prints what each send returned (the sandbox approves the refund example's
 * link, as its manager would, and no other: a Send and Wait the user builds waits for the user).
 * Then it keeps the editor and the sandbox's phone page (every message sent, its answer links)
 * running until Ctrl-C, or with --once (`npm run demo`) stops and exits 0 only if every example
 * did what it should.
 */
import { parseArgs } from 'node:util';

import { ensureRunTls } from '../../sandbox/tls';
import { N8N_VERSION } from './lib/config';
import { OWNER } from './lib/n8n';
import { demoAnswerPlan, formatTable, loadExamples, MEDIA_RECIPIENT, REFUND_MANAGER, runExample, sandboxCredential } from './lib/examples';
import type { ExampleResult } from './lib/examples';
import { installCleanup, portInUse, shuttingDown, stopAll } from './lib/process';
import { startSandbox } from './lib/sandbox';
import { launch, printTimings, step } from './lib/stack';

/** The phone page's port when it is free (else any free one), so a bookmark keeps working. */
const PHONE_PORT = 8788;

async function main(): Promise<number> {
	// `npm start` runs it under scripts/with-tls.ts; started by hand, it restarts itself there.
	await ensureRunTls();
	const { values } = parseArgs({
		options: { once: { type: 'boolean', default: false }, port: { type: 'string' }, verbose: { type: 'boolean', default: false } },
	});
	console.log(`Multi-Channel Notification node in real n8n ${N8N_VERSION}${values.once ? ' (demo run)' : ''}\n`);
	// The sandbox plays the manager who answers the refund example's link (approve), and nobody else.
	const phonePort = values.once || (await portInUse(PHONE_PORT)) ? 0 : PHONE_PORT;
	const running = await step('start the sandbox', async () =>
		await startSandbox({ port: 0, quiet: true, answerLinks: demoAnswerPlan(), phone: { port: phonePort } }),
	);
	installCleanup(async () => await running.stop(), { signalExitCode: values.once ? undefined : 0 });
	const examples = loadExamples({ answered: true });
	const preferred = values.port ? Number(values.port) : 5678;
	const port = values.once || (await portInUse(preferred)) ? undefined : preferred;
	if (values.port && port === undefined && !values.once) throw new Error(`Port ${values.port} is in use`);

	const stack = await launch({
		label: values.once ? 'demo' : 'start',
		sandbox: running,
		workflows: examples.map((example) => example.workflow),
		echo: values.verbose,
		port,
	});
	running.startChat(MEDIA_RECIPIENT);

	const results: ExampleResult[] = [];
	await step(`run the ${examples.length} example workflows`, async () => {
		for (const example of examples) results.push(await runExample(stack.client, example));
	});
	console.log(`\n${formatTable(results)}`);
	const delivered = running.requests.filter((request) => request.delivered).length;
	console.log(`The sandbox received ${running.requests.length} requests and delivered ${delivered} messages.`);
	const allPassed = results.every((result) => result.passed);

	if (values.once) {
		await stopAll();
		await running.stop();
		printTimings();
		console.log(allPassed ? '\nDemo passed: every example did what it should.' : '\nDemo FAILED: see the table above.');
		return allPassed ? 0 : 1;
	}

	printTimings();
	const editor = stack.n8n.url;
	console.log(`
n8n is running with the package installed as a community node.
  Editor:      ${editor}
  Phone:       ${running.phoneUrl ?? ''}  (every message the sandbox was asked to send; open answer links there)
  Login:       ${OWNER.email} / ${OWNER.password}
  Examples:    ${examples.map((example) => `${editor}/workflow/${example.workflow.id}`).join('\n               ')}
  Credential:  "${sandboxCredential(running.url, running.apiKey).name}" → ${running.url} (API key ${running.apiKey})
  n8n log:     ${stack.n8n.logFile}
The sandbox answers only the refund example's question (to ${REFUND_MANAGER}); answer your own
workflows' questions from the phone page, where automatic answers can also be turned off.
This n8n runs in a temporary folder that is deleted when it stops: export any workflow you want to keep.
Press Ctrl-C to stop n8n and the sandbox.`);
	if (!allPassed) console.log('\nNote: not every example did what it should; see the table above.');
	// Stay up until Ctrl-C (handled by installCleanup) or until n8n itself stops.
	const code = await stack.n8n.group.exited;
	if (shuttingDown()) return await new Promise<number>(() => undefined);
	console.error(`n8n stopped on its own (${code}); see ${stack.n8n.logFile}`);
	await stopAll();
	await running.stop();
	return 1;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
		process.exit(1);
	},
);
