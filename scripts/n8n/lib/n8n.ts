/**
 * Start real n8n (main or worker) with a quiet, local-only environment, wait until it is ready,
 * set up the owner, log in, and drive it through the same REST API the editor uses.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { CA_ENV, NO_TLS_MESSAGE, runTlsFiles } from '../../../sandbox/tls';
import { N8N_BIN, N8N_DIR, n8nNodeBinary, n8nVersionEnv } from './install';
import type { Group } from './process';
import { cleanEnv, delay, freePort, run, spawnGroup, tail } from './process';

export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Sandbox-Owner-1',
} as const;

export interface N8nEnvOptions {
	userFolder: string;
	port: number;
	/** Port of the task runner broker; each n8n process (main, worker) needs its own. */
	brokerPort: number;
	extra?: Record<string, string>;
}

/** The run's CA, so n8n trusts the sandbox's https (Node reads it only when n8n starts). */
function trustRunCa(): Record<string, string> {
	const files = runTlsFiles();
	if (!files) throw new Error(NO_TLS_MESSAGE);
	return { [CA_ENV]: files.ca };
}

/**
 * Keeps n8n on 127.0.0.1, quiet and offline: no telemetry, banners, templates or update checks;
 * trusting the run's CA (NODE_EXTRA_CA_CERTS) so it reaches the https sandbox.
 */
export function n8nEnv({ userFolder, port, brokerPort, extra = {} }: N8nEnvOptions): NodeJS.ProcessEnv {
	return cleanEnv({
		...trustRunCa(),
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		// The editor would otherwise ask api.n8n.io for its list of vetted community nodes.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		DB_SQLITE_POOL_SIZE: '2',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		...n8nVersionEnv(),
		...extra,
	});
}

/**
 * Runs an n8n CLI command (import:workflow, import:credentials, …) against a user folder. Each
 * call gets a task-broker port of its own: n8n 2.x starts a broker in every process, CLI ones too.
 */
export async function n8nCli(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
	const { output } = await run(`n8n ${args[0]}`, n8nNodeBinary(), [N8N_BIN, ...args], {
		env: { ...env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
		cwd: N8N_DIR,
	});
	return output;
}

export interface CredentialFixture {
	id: string;
	name: string;
	type: string;
	data: Record<string, string | boolean>;
}

/** Imports credentials (plain data; n8n encrypts it on import) and workflows with their fixed ids. */
export async function importFixtures(
	env: NodeJS.ProcessEnv,
	workDir: string,
	{ credentials = [], workflows = [] }: { credentials?: CredentialFixture[]; workflows?: unknown[] },
): Promise<void> {
	mkdirSync(workDir, { recursive: true });
	if (credentials.length > 0) {
		const file = join(workDir, 'credentials.json');
		writeFileSync(file, JSON.stringify(credentials, null, 2));
		await n8nCli(env, ['import:credentials', `--input=${file}`]);
	}
	if (workflows.length > 0) {
		const file = join(workDir, 'workflows.json');
		writeFileSync(file, JSON.stringify(workflows, null, 2));
		await n8nCli(env, ['import:workflow', `--input=${file}`]);
	}
}

export interface N8nProcess {
	url: string;
	port: number;
	group: Group;
	logFile: string;
}

export interface StartOptions {
	userFolder: string;
	/** 'start' (default) for the main instance with editor and REST API, 'worker' for a queue worker. */
	command?: 'start' | 'worker';
	/** Arguments after the command, e.g. `--concurrency=50` for a worker. */
	args?: string[];
	port?: number;
	extraEnv?: Record<string, string>;
	name?: string;
	echo?: boolean;
	/** Milliseconds to wait for readiness. */
	timeoutMs?: number;
}

/** Starts n8n in its own process group and waits until it is ready to serve. */
export async function startN8n(options: StartOptions): Promise<N8nProcess> {
	const command = options.command ?? 'start';
	const name = options.name ?? (command === 'start' ? 'n8n' : 'n8n worker');
	const port = options.port ?? (await freePort());
	const env = n8nEnv({
		userFolder: options.userFolder,
		port,
		brokerPort: await freePort(),
		// A worker's health-check server gets a port of its own too, unless the caller chose one.
		extra: command === 'worker' ? { QUEUE_HEALTH_CHECK_PORT: String(await freePort()), ...options.extraEnv } : options.extraEnv,
	});
	const logFile = join(options.userFolder, `${name.replace(/\W+/g, '-')}.log`);
	const group = spawnGroup(name, n8nNodeBinary(), [N8N_BIN, command, ...(options.args ?? [])], {
		env,
		cwd: N8N_DIR,
		logFile,
		echo: options.echo,
	});
	const url = `http://127.0.0.1:${port}`;
	const timeoutMs = options.timeoutMs ?? 120_000;
	if (command === 'start') {
		await waitFor(group, timeoutMs, async () => {
			// Readiness turns ok while the REST controllers are still being registered; the
			// "Editor is now accessible" line comes after them.
			if (!group.output().includes('Editor is now accessible')) return false;
			const response = await fetch(`${url}/healthz/readiness`).catch(() => undefined);
			return response?.status === 200;
		});
	} else {
		await waitFor(group, timeoutMs, async () => group.output().includes('n8n worker is now ready'));
	}
	return { url, port, group, logFile };
}

async function waitFor(group: Group, timeoutMs: number, ready: () => Promise<boolean>): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let exitCode: number | string | undefined;
	void group.exited.then((code) => {
		exitCode = code;
	});
	while (Date.now() < deadline) {
		if (exitCode !== undefined) {
			throw new Error(`${group.name} exited (${exitCode}) before it was ready:\n${tail(group.output(), 30)}`);
		}
		if (await ready()) return;
		await delay(250);
	}
	throw new Error(`${group.name} was not ready after ${timeoutMs / 1000} s:\n${tail(group.output(), 30)}`);
}

export class RestError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		what: string,
	) {
		super(`${what} → HTTP ${status}: ${JSON.stringify(body).slice(0, 500)}`);
	}
}

export interface ExecutionSummary {
	id: string;
	status: string;
	/** The run data as n8n stores it (`IRunExecutionData`), parsed. */
	data: RunExecutionData;
}

export interface NodeItem {
	json: Record<string, unknown>;
	pairedItem?: unknown;
}

export interface TaskData {
	error?: { message?: string; description?: string };
	data?: { main?: Array<NodeItem[] | null> };
}

export interface RunExecutionData {
	resultData: {
		error?: { message?: string; description?: string; node?: { name?: string } };
		runData: Record<string, TaskData[]>;
	};
}

type Flatted = { parse(text: string): unknown };

/** n8n stores execution data with `flatted` (JSON with shared references); use n8n's own copy. */
export function flatted(): Flatted {
	const requireFromN8n = createRequire(join(N8N_DIR, 'node_modules', 'n8n', 'package.json'));
	return requireFromN8n('flatted') as Flatted;
}

/** The REST API the editor uses, with the session cookie from owner setup or login. */
/** An execution's status and, once n8n has stored it, its run data. */
export interface Execution {
	status: string;
	data?: RunExecutionData;
}

export async function executionOf(client: N8nClient, id: string): Promise<Execution> {
	const row = await client.request<{ status: string; data?: string } | null>('GET', `/executions/${id}`);
	return { status: row?.status ?? 'unknown', data: row?.data ? (flatted().parse(row.data) as RunExecutionData) : undefined };
}

/** Polls until the execution's status is one of `wanted` (the deadline is against hanging, not a speed bound). */
export async function statusBecomes(client: N8nClient, id: string, wanted: string[], deadlineMs = 120_000): Promise<Execution> {
	const deadline = Date.now() + deadlineMs;
	for (;;) {
		const execution = await executionOf(client, id);
		if (wanted.includes(execution.status)) return execution;
		if (Date.now() > deadline) throw new Error(`execution ${id} is ${execution.status}, not ${wanted.join(' or ')}`);
		await delay(300);
	}
}

export class N8nClient {
	private cookie = '';

	constructor(readonly url: string) {}

	async request<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.url}/rest${path}`, {
			method,
			headers: {
				...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
				...(this.cookie ? { Cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.getSetCookie().find((value) => value.startsWith('n8n-auth='));
		if (setCookie) this.cookie = setCookie.split(';')[0];
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = text === '' ? undefined : JSON.parse(text);
		} catch {
			// Not JSON: keep the text for the error message.
		}
		if (!response.ok) throw new RestError(response.status, parsed, `${method} ${path}`);
		return (parsed as { data: T }).data;
	}

	/** Owner setup on a fresh instance; on an instance that has one, logs in instead. */
	async setupOwnerOrLogin(): Promise<void> {
		try {
			await this.request('POST', '/owner/setup', OWNER);
		} catch (error) {
			if (!(error instanceof RestError) || error.status !== 400) throw error;
			await this.login();
		}
	}

	async login(email: string = OWNER.email, password: string = OWNER.password): Promise<void> {
		await this.request('POST', '/login', { emailOrLdapLoginId: email, password });
	}

	get sessionCookie(): string {
		return this.cookie;
	}

	async getWorkflow(id: string): Promise<Record<string, unknown>> {
		return await this.request<Record<string, unknown>>('GET', `/workflows/${id}`);
	}

	/** Activates a workflow as the editor's toggle does: n8n 2.x's activate endpoint, n8n 1.x's PATCH. */
	async activateWorkflow(id: string): Promise<void> {
		const { versionId } = (await this.getWorkflow(id)) as { versionId: string };
		try {
			await this.request('POST', `/workflows/${id}/activate`, { versionId });
		} catch (error) {
			if (!(error instanceof RestError) || error.status !== 404) throw error;
			await this.request('PATCH', `/workflows/${id}`, { active: true, versionId });
		}
	}

	/** What the editor's "Execute workflow" does: a manual run from the given trigger node. */
	async runWorkflow(id: string, triggerName: string): Promise<string> {
		const workflowData = await this.getWorkflow(id);
		const result = await this.request<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/workflows/${id}/run`,
			{ workflowData, triggerToStartFrom: { name: triggerName } },
		);
		if (!result.executionId) throw new Error(`Workflow ${id} did not start: ${JSON.stringify(result)}`);
		return result.executionId;
	}

	async waitForExecution(executionId: string, timeoutMs = 60_000): Promise<ExecutionSummary> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.request<{ id: string; status: string; finished: boolean; data?: string } | null>(
				'GET',
				`/executions/${executionId}`,
			).catch((error: unknown) => {
				// Queue mode: the row may appear a moment after the run was accepted.
				if (error instanceof RestError && error.status === 404) return null;
				throw error;
			});
			const status = execution?.status ?? 'unknown';
			if (execution && !['new', 'running', 'waiting', 'unknown'].includes(status) && execution.data) {
				return { id: execution.id, status, data: flatted().parse(execution.data) as RunExecutionData };
			}
			if (Date.now() > deadline) throw new Error(`Execution ${executionId} still ${status} after ${timeoutMs / 1000} s`);
			await delay(300);
		}
	}

	/** `POST /rest/credentials/test` as the editor's "Retry"/"Save" does it; returns n8n's verdict. */
	async testCredential(credential: CredentialFixture): Promise<{ status: string; message: string }> {
		return await this.request<{ status: string; message: string }>('POST', '/credentials/test', {
			credentials: credential,
		});
	}
}
