/**
 * The sandbox's TLS material: a throwaway CA and a server certificate for localhost, 127.0.0.1
 * and ::1, made with `openssl` for one run, valid for two days, in a fresh temp folder. The CA's
 * private key is deleted as soon as it has signed the server certificate, so nothing else can
 * ever be signed with it; the folder is removed when the run ends. Nothing here is committed.
 *
 * Clients trust the CA through NODE_EXTRA_CA_CERTS, which Node reads only when a process starts:
 * that is why a run goes through `tsx scripts/with-tls.ts <command...>` (see there), which makes
 * the material once and hands both variables below to the command and everything it starts.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

import { watchLifeline } from './lifeline';

/** Folder holding the run's `ca.pem`, `cert.pem` and `key.pem`. */
export const TLS_DIR_ENV = 'SANDBOX_TLS_DIR';
/** Node's own variable: the extra CA every Node process of the run trusts. */
export const CA_ENV = 'NODE_EXTRA_CA_CERTS';

const VALID_DAYS = '2';
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export interface TlsFiles {
	dir: string;
	/** The CA certificate (public): what NODE_EXTRA_CA_CERTS points at. */
	ca: string;
	cert: string;
	key: string;
}

export interface TlsMaterial {
	cert: Buffer;
	key: Buffer;
	ca: Buffer;
}

export function tlsFilesIn(dir: string): TlsFiles {
	return { dir, ca: join(dir, 'ca.pem'), cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
}

function openssl(dir: string, args: string[]): void {
	try {
		execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	} catch (error) {
		const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
		throw new Error(`openssl ${args[0]} failed: ${stderr || (error instanceof Error ? error.message : String(error))}`);
	}
}

/** Makes a CA and a server certificate in a new temp folder; the caller removes it (removeTlsFiles). */
export function makeTlsFiles(): TlsFiles {
	const files = tlsFilesIn(mkdtempSync(join(tmpdir(), 'mcn-sandbox-tls-')));
	const { dir } = files;
	openssl(dir, [
		'req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', VALID_DAYS,
		'-subj', '/CN=Multi-Channel Notification sandbox throwaway CA',
		'-addext', 'basicConstraints=critical,CA:TRUE,pathlen:0',
		'-addext', 'keyUsage=critical,keyCertSign,cRLSign',
	]);
	openssl(dir, ['req', ...EC_KEY, '-keyout', 'key.pem', '-out', 'server.csr', '-subj', '/CN=localhost']);
	writeFileSync(
		join(dir, 'server.ext'),
		'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n' +
			'basicConstraints=critical,CA:FALSE\n' +
			'keyUsage=critical,digitalSignature\n' +
			'extendedKeyUsage=serverAuth\n',
	);
	openssl(dir, [
		// No serial file: OpenSSL 3 then picks a random serial.
		'x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key',
		'-days', VALID_DAYS, '-extfile', 'server.ext', '-out', 'cert.pem',
	]);
	for (const name of ['ca.key', 'server.csr', 'server.ext']) rmSync(join(dir, name));
	return files;
}

export function removeTlsFiles(files: TlsFiles): void {
	rmSync(files.dir, { recursive: true, force: true });
}

/** The run's files, from SANDBOX_TLS_DIR; undefined when this process was not started through with-tls. */
export function runTlsFiles(env: NodeJS.ProcessEnv = process.env): TlsFiles | undefined {
	const dir = env[TLS_DIR_ENV];
	if (!dir) return undefined;
	const files = tlsFilesIn(dir);
	if (![files.ca, files.cert, files.key].every((file) => existsSync(file))) {
		throw new Error(`${TLS_DIR_ENV}=${dir}: expected ca.pem, cert.pem and key.pem there`);
	}
	return files;
}

export const NO_TLS_MESSAGE =
	`The sandbox serves https with a CA made for the run, and this process has none: ${TLS_DIR_ENV} is not set. ` +
	'Run through the npm scripts (npm test, npm run sandbox, npm run demo, …) or wrap the command: ' +
	'`npx tsx scripts/with-tls.ts <command...>` (e.g. `npx tsx scripts/with-tls.ts npx jest test/sandbox`).';

/** The run's key, certificate and CA for an https server; throws NO_TLS_MESSAGE when there is none. */
export function loadRunTls(env: NodeJS.ProcessEnv = process.env): TlsMaterial {
	const files = runTlsFiles(env);
	if (!files) throw new Error(NO_TLS_MESSAGE);
	return { cert: readFileSync(files.cert), key: readFileSync(files.key), ca: readFileSync(files.ca) };
}

/** The environment a child needs to serve (SANDBOX_TLS_DIR) and to trust (NODE_EXTRA_CA_CERTS) the run's certificate. */
export function tlsEnv(files: TlsFiles): Record<string, string> {
	return { [TLS_DIR_ENV]: files.dir, [CA_ENV]: files.ca };
}

/**
 * Runs `command` with the run's TLS in its environment (made now, or the outer run's when
 * SANDBOX_TLS_DIR is already set), with node_modules/.bin first on PATH as in an npm script.
 * Resolves with its exit code once it has ended and the material made here is removed.
 */
export function runWithTls(command: string, args: string[]): Promise<number> {
	const inherited = runTlsFiles();
	const files = inherited ?? makeTlsFiles();
	const bin = join(resolve(__dirname, '..'), 'node_modules', '.bin');
	const child = spawn(command, args, {
		stdio: 'inherit',
		env: { ...process.env, ...tlsEnv(files), PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
	});
	// A signal is passed on: sent to this process alone (a stop button signals only the top `npm`),
	// the child would not get it otherwise. A terminal's Ctrl-C reaches the child twice this way;
	// our scripts take copies within a second as one.
	const forward = (signal: NodeJS.Signals) => {
		child.kill(signal);
	};
	const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
	for (const signal of signals) process.on(signal, forward);
	// When whoever started us is gone (only the top `npm` was stopped), the child is stopped too.
	const unwatch = watchLifeline(() => forward('SIGTERM'));
	return new Promise((done) => {
		const finish = (code: number) => {
			unwatch();
			for (const signal of signals) process.off(signal, forward);
			if (!inherited) removeTlsFiles(files);
			done(code);
		};
		child.on('error', (error) => {
			process.stderr.write(`could not run ${command}: ${error.message}\n`);
			finish(127);
		});
		child.on('exit', (code, signal) => finish(code ?? (signal === 'SIGINT' ? 130 : 1)));
	});
}

/**
 * For entry points people also start by hand (`npx tsx scripts/n8n/check-*.ts`): when this process
 * has no run TLS, it runs itself again under runWithTls and exits with that run's code.
 */
export async function ensureRunTls(): Promise<void> {
	if (runTlsFiles()) return;
	const code = await runWithTls(process.execPath, [...process.execArgv, ...process.argv.slice(1)]);
	process.exit(code);
}
