/**
 * A throw-away Postgres for the queue-mode checks: n8n supports scaling mode (main + workers) on
 * Postgres only; on sqlite, busy instances lose executions to `SQLITE_BUSY`. Debian's server
 * binaries (`apt-get install postgresql`), a cluster made with `initdb` in a temp folder, run as
 * the `postgres` user when we are root (initdb refuses root), on 127.0.0.1 and a free port, with
 * one database for the run. The server is a process group like n8n's, so it is stopped with the
 * others (last, having been started first) and never outlives the check.
 */
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { makeTempDir } from './install';
import { freePort, run, spawnGroup, whenReady } from './process';
import { step } from './stack';

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
export async function startPostgres(): Promise<Record<string, string>> {
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
