/**
 * n8n's queue mode for the checks: a throw-away Postgres and Redis on 127.0.0.1 and free ports,
 * the environment that main, workers and CLI calls share (see docs/queue-mode.md, "Set-up"), the
 * workers, and what Postgres and the processes' logs say about the executions.
 *
 * Postgres, as n8n supports scaling mode (main + workers) on Postgres only: on sqlite, busy
 * instances lose executions to `SQLITE_BUSY`. Debian's server binaries (`apt-get install
 * postgresql`), a cluster made with `initdb` in a temp folder, run as the `postgres` user when we
 * are root (initdb refuses root), with one database for the run. Postgres and Redis are process
 * groups like n8n's, so they are stopped with the others (last, having been started first) and
 * never outlive the check.
 */
import { chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { N8nProcess } from './n8n';
import { startN8n } from './n8n';
import { delay, freePort, makeTempDir, run, spawnGroup, whenReady } from './process';
import type { LaunchOptions, Stack } from './stack';
import { launch, step } from './stack';

/** The newest Debian Postgres install (`/usr/lib/postgresql/<major>/bin`), or `PG_BIN`. */
function postgresBin(): string {
	if (process.env.PG_BIN) return process.env.PG_BIN;
	const root = '/usr/lib/postgresql';
	const majors = existsSync(root) ? readdirSync(root).filter((entry) => existsSync(join(root, entry, 'bin', 'initdb'))) : [];
	if (majors.length === 0) throw new Error(`No Postgres server in ${root}: apt-get install -y postgresql (or set PG_BIN)`);
	return join(root, majors.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** As root: the command run as the `postgres` user (setpriv execs it, so it stays the group leader). */
async function asServerUser(dir: string): Promise<string[]> {
	if (process.getuid?.() !== 0) return [];
	const id = async (flag: string): Promise<number> => Number((await run('id postgres', 'id', [flag, 'postgres'])).output.trim());
	chownSync(dir, await id('-u'), await id('-g'));
	return ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups', '--'];
}

/** Starts Postgres with one empty database; returns the environment n8n (main, workers, CLI) needs for it. */
async function startPostgres(): Promise<Record<string, string>> {
	const port = await freePort();
	const database = `n8n_${process.pid}`;
	await step(`start Postgres on 127.0.0.1:${port} (database ${database})`, async () => {
		const bin = postgresBin();
		const dir = makeTempDir('postgres');
		const data = join(dir, 'data');
		const prefix = await asServerUser(dir);
		const command = (program: string, args: string[]): [string, string[]] =>
			prefix.length > 0 ? [prefix[0], [...prefix.slice(1), join(bin, program), ...args]] : [join(bin, program), args];
		await run('initdb', ...command('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']), { cwd: dir });
		// A throw-away cluster: nothing needs to survive a crash, so no waiting on the disk.
		const server = spawnGroup(
			'postgres',
			...command('postgres', [
				'-D', data, '-k', dir, '-p', String(port), '-h', '127.0.0.1',
				'-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
			]),
			{ cwd: dir, logFile: join(dir, 'postgres.log') },
		);
		await whenReady(server, 120_000, () => server.output().includes('database system is ready to accept connections'));
		await run('createdb', join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database]);
	});
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(port),
		DB_POSTGRESDB_DATABASE: database,
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
	};
}

/** Runs one SQL statement with psql against the database {@link startPostgres} made; returns its rows, one per line, fields split by `|`. */
export async function queryPostgres(env: Record<string, string>, sql: string): Promise<string[]> {
	const { output } = await run('psql', join(postgresBin(), 'psql'), [
		'-h', env.DB_POSTGRESDB_HOST, '-p', env.DB_POSTGRESDB_PORT, '-U', env.DB_POSTGRESDB_USER, '-d', env.DB_POSTGRESDB_DATABASE,
		'-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', sql,
	]);
	return output.split('\n').filter((line) => line.trim() !== '');
}

const REDIS = process.env.REDIS_SERVER ?? 'redis-server';

/**
 * n8n's Postgres connection pool in queue mode (main, workers, CLI): 10, as docs/queue-mode.md
 * advises. n8n's default is 2: when many answers or webhook calls arrive at once, the main
 * instance's database ping (every 2 s, needing a connection from that pool) times out, and until a
 * ping succeeds n8n answers every request with 503 "Database is not ready!". Set
 * DB_POSTGRESDB_POOL_SIZE to try another size, e.g. 2 to see that.
 */
export const QUEUE_DB_POOL_SIZE = process.env.DB_POSTGRESDB_POOL_SIZE ?? '10';

export interface QueueStack extends Stack {
	/** The queue-mode environment of main, workers and CLI calls. */
	queueEnv: Record<string, string>;
	workers: N8nProcess[];
	/** Starts one more worker, e.g. "n8n worker 3" (or the same name again after stopping one). */
	startWorker(name: string): Promise<N8nProcess>;
}

/**
 * Queue mode end to end: Postgres and Redis on free ports (stopped with the other process groups),
 * the main instance ({@link launch}) on them, then the named workers (at `concurrency`, else n8n's
 * default). The workers get the main instance's address as WEBHOOK_URL, as in any queue-mode
 * set-up: the links they write point there.
 */
export async function launchQueue(
	options: LaunchOptions & { workers: string[]; concurrency?: number; workerEnv?: (name: string) => Record<string, string> },
): Promise<QueueStack> {
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
	const queueEnv = {
		...databaseEnv,
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		QUEUE_HEALTH_CHECK_ACTIVE: 'false',
		DB_POSTGRESDB_POOL_SIZE: QUEUE_DB_POOL_SIZE,
	};
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
