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
import { makeTempDir } from './lib/install';
import { startN8n } from './lib/n8n';
import { delay, freePort, spawnGroup } from './lib/process';
import { launch, step } from './lib/stack';

const REDIS = process.env.REDIS_SERVER ?? 'redis-server';

runCheck('queue-mode check', async ({ sandbox, expect }) => {
	const redisPort = await freePort();
	const queueEnv = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		QUEUE_HEALTH_CHECK_ACTIVE: 'false',
	};

	await step(`start Redis on 127.0.0.1:${redisPort}`, async () => {
		const redisDir = makeTempDir('redis');
		const redis = spawnGroup('redis', REDIS, [
			'--bind', '127.0.0.1',
			'--port', String(redisPort),
			'--save', '',
			'--appendonly', 'no',
			'--dir', redisDir,
		]);
		const deadline = Date.now() + 15_000;
		while (!redis.output().includes('Ready to accept connections')) {
			if (Date.now() > deadline) throw new Error(`Redis did not start:\n${redis.output()}`);
			await delay(100);
		}
	});

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
