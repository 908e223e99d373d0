/**
 * n8n's queue mode for the checks: a throw-away Postgres (the database n8n supports for it) and
 * Redis on 127.0.0.1, the environment that main, workers and CLI calls share (see
 * docs/running-in-n8n.md, "Running in queue mode"), the workers, and what Postgres and the
 * processes' logs say about the executions.
 */
import { readFileSync } from 'node:fs';

import { makeTempDir } from './install';
import type { N8nProcess } from './n8n';
import { startN8n } from './n8n';
import { queryPostgres, startPostgres } from './postgres';
import { delay, freePort, spawnGroup, whenReady } from './process';
import type { LaunchOptions, Stack } from './stack';
import { launch, step } from './stack';

const REDIS = process.env.REDIS_SERVER ?? 'redis-server';

/** Starts Postgres and Redis on free ports (stopped with the other process groups) and returns n8n's queue-mode environment. */
export async function startQueue(): Promise<Record<string, string>> {
	const databaseEnv = await startPostgres();
	const redisPort = await freePort();
	await step(`start Redis on 127.0.0.1:${redisPort}`, async () => {
		const redis = spawnGroup('redis', REDIS, [
			'--bind', '127.0.0.1',
			'--port', String(redisPort),
			'--save', '',
			'--appendonly', 'no',
			'--dir', makeTempDir('redis'),
		]);
		await whenReady(redis, 60_000, () => redis.output().includes('Ready to accept connections'));
	});
	return {
		...databaseEnv,
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		QUEUE_HEALTH_CHECK_ACTIVE: 'false',
	};
}

export interface QueueStack extends Stack {
	/** The queue-mode environment of main, workers and CLI calls. */
	queueEnv: Record<string, string>;
	workers: N8nProcess[];
	/** Starts one more worker, e.g. "n8n worker 3" (or the same name again after stopping one). */
	startWorker(name: string): Promise<N8nProcess>;
}

/**
 * Queue mode end to end: Postgres and Redis, the main instance ({@link launch}) on them, then the
 * named workers (at `concurrency`, else n8n's default). The workers get the main instance's
 * address as WEBHOOK_URL, as in any queue-mode set-up: the links they write point there.
 */
export async function launchQueue(
	options: LaunchOptions & { workers: string[]; concurrency?: number; workerEnv?: (name: string) => Record<string, string> },
): Promise<QueueStack> {
	const queueEnv = await startQueue();
	const stack = await launch({ ...options, extraEnv: { ...queueEnv, ...options.extraEnv } });
	const args = options.concurrency ? [`--concurrency=${options.concurrency}`] : [];
	const queue: QueueStack = {
		...stack,
		queueEnv,
		workers: [],
		startWorker: async (name) =>
			await step(`start ${name} (concurrency ${options.concurrency ?? "n8n's default"})`, async () =>
				await startN8n({
					userFolder: stack.userFolder,
					command: 'worker',
					name,
					args,
					extraEnv: { ...queueEnv, ...options.workerEnv?.(name), WEBHOOK_URL: `${queue.n8n.url}/` },
				}),
			),
	};
	for (const name of options.workers) queue.workers.push(await queue.startWorker(name));
	return queue;
}

/** How many executions a process's whole log (its file: the output kept in memory is capped) says it started. */
export const startedOn = (n8n: N8nProcess): number => (readFileSync(n8n.logFile, 'utf8').match(/Worker started execution/g) ?? []).length;

/** Executions of a workflow per status, from Postgres. */
export async function statusCounts(env: Record<string, string>, workflowId: string): Promise<Record<string, number>> {
	const rows = await queryPostgres(env, `select status, count(*) from execution_entity where "workflowId" = '${workflowId}' group by status order by status`);
	return Object.fromEntries(rows.map((row) => row.split('|')).map(([status, count]) => [status, Number(count)]));
}

/** How many of the counted executions have finished, whatever their status. */
export const finishedIn = (counts: Record<string, number>): number =>
	Object.entries(counts).reduce((sum, [status, count]) => sum + (['new', 'running', 'waiting'].includes(status) ? 0 : count), 0);

/** Polls {@link statusCounts} until `done` holds for them (at most 10 minutes: against hanging, not a speed bound); the last counts. */
export async function countsBecome(env: Record<string, string>, workflowId: string, done: (counts: Record<string, number>) => boolean): Promise<Record<string, number>> {
	const deadline = Date.now() + 10 * 60_000;
	for (;;) {
		const counts = await statusCounts(env, workflowId);
		if (done(counts) || Date.now() > deadline) return counts;
		await delay(1000);
	}
}
