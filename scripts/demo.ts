/**
 * `npm run demo:fast` — the quick demo, without installing n8n: starts the sandbox, runs one send
 * of each kind through the built node (dist/) inside n8n's own execution engine (as the bench
 * does, through bench/inProcess.ts), its fields filled in from one item by expression, prints what
 * the sandbox received and what the node output, and exits 0 only if every send succeeded.
 * `npm run demo` does the same in a real n8n.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { watchLifeline } from '../sandbox/lifeline';
import { EXAMPLE_SENDS, RECIPIENT, inProcessRunner } from './bench/inProcess';

// n8n-core writes an instance key under N8N_USER_FOLDER: a throw-away folder, removed on every
// exit (a finished run, an error, Ctrl-C, SIGTERM, or the command that started us gone).
const userFolder = process.env.N8N_USER_FOLDER === undefined ? mkdtempSync(join(tmpdir(), 'mcn-demo-')) : undefined;
if (userFolder) process.env.N8N_USER_FOLDER = userFolder;
process.on('exit', () => {
	if (userFolder) rmSync(userFolder, { recursive: true, force: true });
});
const stop = (why: string): void => {
	console.log(`\n${why}: stopping the demo`);
	process.exit(130);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(`${signal} received`));
watchLifeline(stop);

const ITEM = { name: 'Budi', order: 'A-1042', phone: '0812-3456-7890', code: '734201' };

async function main(): Promise<number> {
	const { startSandbox } = await import('../sandbox/server');
	const sandbox = await startSandbox({ port: 0, startedChats: [RECIPIENT] });
	console.log(`Sandbox: ${sandbox.url} (API key ${sandbox.apiKey})\n`);
	let failures = 0;
	try {
		const run = await inProcessRunner(sandbox.url, sandbox.apiKey, { node: (ours) => ({ ...ours, name: 'Multi-Channel Notification' }) });
		for (const send of EXAMPLE_SENDS) {
			const before = sandbox.requests.length;
			const { output, error } = await run({ resource: send.resource, operation: send.name, ...send.parameters }, [ITEM]);
			const ok = !error && output?.every((item) => item.json.message === 'success') === true;
			if (!ok) failures++;
			console.log(`${ok ? '✔' : '✘'} ${send.title}`);
			for (const request of sandbox.requests.slice(before)) {
				console.log(`  sandbox received: POST ${request.path} → ${request.status}`);
				console.log(`  ${JSON.stringify(request.body)}`);
			}
			console.log(`  node output: ${error ? `${error.name}: ${error.message}` : JSON.stringify(output?.map((item) => item.json))}\n`);
		}
	} finally {
		await sandbox.stop();
	}
	const total = EXAMPLE_SENDS.length;
	console.log(failures === 0 ? `All ${total} sends succeeded.` : `${failures} of ${total} sends failed.`);
	return failures === 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
