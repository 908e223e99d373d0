/**
 * Queue-mode check: n8n's distributed engine. Redis on 127.0.0.1 and a free port, an n8n main
 * instance and one `n8n worker`, both in queue mode with manual executions offloaded to workers.
 * Example workflows started through the REST run endpoint must be executed by the worker (its
 * log says so) and reach the sandbox.
 *
 *   npx tsx scripts/n8n/check-queue-mode.ts     (after `npm run build`; needs redis-server)
 */
import { runCheck } from './lib/check';
import { loadExamples, runExample, sandboxCredential } from './lib/examples';
import { startN8n } from './lib/n8n';
import { freePort } from './lib/process';
import { startQueue } from './lib/queue';
import { launch, step } from './lib/stack';

runCheck('queue-mode check', async ({ sandbox, expect }) => {
	const queueEnv = await startQueue();

	const examples = loadExamples().filter((example) => ['template-send.json', 'bulk-sms.json'].includes(example.file));
	const stack = await launch({
		label: 'queue',
		credentials: [sandboxCredential(sandbox.url, sandbox.apiKey)],
		workflows: examples.map((example) => example.workflow),
		extraEnv: queueEnv,
	});
	const worker = await step('start one n8n worker', async () =>
		await startN8n({ userFolder: stack.userFolder, command: 'worker', extraEnv: { ...queueEnv, QUEUE_HEALTH_CHECK_PORT: String(await freePort()) } }),
	);

	for (const example of examples) {
		const result = await step(`run ${example.file} through the REST run endpoint`, async () => await runExample(stack.client, example));
		expect(result.passed, `${example.file}: execution ${result.execution.id} ${result.execution.status}`, result.problem ?? result.rows);
		const started = `Worker started execution ${result.execution.id} `;
		expect(worker.group.output().includes(started), `the worker log says "${started.trim()} (job …)"`);
		expect(!stack.n8n.group.output().includes(started), 'the main instance did not run it itself');
	}

	const templates = sandbox.requests.filter((request) => (request.body as { type?: string }).type === 'template');
	expect(templates.length === 1 && templates[0].status === 200, 'the sandbox received the template request from the worker');
	expect(
		(templates[0].body as { template: { components: Array<{ type: string }> } }).template.components.map((component) => component.type).join(',') ===
			'header,body,button,button',
		'with header, body and two quick-reply buttons',
		templates[0].body,
	);
	const sms = sandbox.requests.filter((request) => request.path === '/v1/sms/notification');
	expect(sms.length === 3 && sms.every((request) => request.status === 200), 'and the three valid SMS of the bulk example (its Code node ran on the worker too)');
});
