/**
 * The run's throwaway TLS (sandbox/tls.ts, scripts/with-tls.ts): what the certificate covers, that
 * no CA key is left behind, that this process trusts it through NODE_EXTRA_CA_CERTS, and that the
 * wrapper hands the environment to its command and removes the material afterwards.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { get } from 'node:https';
import path from 'node:path';

import { startSandbox } from '../../sandbox/server';
import { CA_ENV, runTlsFiles, TLS_DIR_ENV } from '../../sandbox/tls';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DAY_MS = 24 * 60 * 60 * 1000;

function getStatus(url: string): Promise<number> {
	return new Promise((resolve, reject) => {
		get(url, (response) => {
			response.resume();
			resolve(response.statusCode ?? 0);
		}).on('error', reject);
	});
}

describe('the run TLS', () => {
	const files = runTlsFiles();

	test('this run has it, and NODE_EXTRA_CA_CERTS is its CA', () => {
		expect(files).toBeDefined();
		expect(process.env[CA_ENV]).toBe(files?.ca);
	});

	test('the folder holds the CA certificate, the server key and certificate, and no CA key', () => {
		expect(readdirSync(files?.dir ?? '').sort()).toEqual(['ca.pem', 'cert.pem', 'key.pem']);
	});

	test('the server certificate is for localhost, 127.0.0.1 and ::1, signed by the CA, short-lived', () => {
		const cert = new X509Certificate(readFileSync(files?.cert ?? ''));
		const ca = new X509Certificate(readFileSync(files?.ca ?? ''));
		expect(cert.subjectAltName?.split(', ').sort()).toEqual(['DNS:localhost', 'IP Address:0:0:0:0:0:0:0:1', 'IP Address:127.0.0.1']);
		expect(cert.verify(ca.publicKey)).toBe(true);
		expect(cert.ca).toBe(false);
		expect(ca.ca).toBe(true);
		expect(Date.parse(cert.validTo) - Date.now()).toBeLessThanOrEqual(2 * DAY_MS + 60_000);
	});

	test.each(['127.0.0.1', 'localhost'])('the sandbox answers https on %s, trusted through the CA', async (host) => {
		const sandbox = await startSandbox({ port: 0 });
		try {
			expect(sandbox.url).toMatch(/^https:\/\//);
			expect(await getStatus(`https://${host}:${sandbox.port}/__sandbox/stats`)).toBe(200);
		} finally {
			await sandbox.stop();
		}
	});
});

describe('scripts/with-tls.ts', () => {
	const tsx = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
	const printEnv = `console.log(JSON.stringify([process.env.${TLS_DIR_ENV}, process.env.${CA_ENV}]))`;

	test('gives the command a fresh folder and the CA, removes it after, and passes on the exit code', () => {
		const env: NodeJS.ProcessEnv = { ...process.env };
		delete env[TLS_DIR_ENV];
		delete env[CA_ENV];
		const run = spawnSync(tsx, ['scripts/with-tls.ts', 'node', '-e', `${printEnv}; process.exit(3)`], {
			cwd: REPO_ROOT,
			env,
			encoding: 'utf8',
		});
		const [dir, ca] = JSON.parse(run.stdout.trim().split('\n').pop() ?? '[]') as [string, string];
		expect(run.status).toBe(3);
		expect(ca).toBe(path.join(dir, 'ca.pem'));
		expect(dir).not.toBe(process.env[TLS_DIR_ENV]);
		expect(existsSync(dir)).toBe(false);
	});

	test("inside a run, reuses that run's material and leaves it in place", () => {
		const run = spawnSync(tsx, ['scripts/with-tls.ts', 'node', '-e', printEnv], { cwd: REPO_ROOT, encoding: 'utf8' });
		expect(run.status).toBe(0);
		expect(JSON.parse(run.stdout.trim().split('\n').pop() ?? '[]')).toEqual([process.env[TLS_DIR_ENV], process.env[CA_ENV]]);
		expect(existsSync(process.env[CA_ENV] ?? '')).toBe(true);
	});
});
