/**
 * n8n's queue mode for the checks: a throw-away Postgres (the database n8n supports for it) and
 * Redis on 127.0.0.1, and the environment that main, workers and CLI calls share (see
 * docs/running-in-n8n.md, "Running in queue mode").
 */
import { makeTempDir } from './install';
import { startPostgres } from './postgres';
import { delay, freePort, spawnGroup } from './process';
import { step } from './stack';

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
		// A deadline against a server that never starts; on a busy machine start-up can take a while.
		const deadline = Date.now() + 60_000;
		while (!redis.output().includes('Ready to accept connections')) {
			if (Date.now() > deadline) throw new Error(`Redis did not start:\n${redis.output()}`);
			await delay(100);
		}
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
