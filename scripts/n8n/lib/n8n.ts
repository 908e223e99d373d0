/**
 * Start real n8n (main or worker) with a quiet, local-only environment, wait until it is ready,
 * set up the owner, log in, and drive it through the same REST API the editor uses.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { CA_ENV, NO_TLS_MESSAGE, runTlsFiles } from '../../../sandbox/tls';
import { N8N_BIN, N8N_DIR, N8N_MAJOR } from './config';
import { n8nNodeBinary } from './node24';
import type { Group } from './process';
import { cleanEnv, delay, freePort, run, spawnGroup, whenReady } from './process';

export const OWNER = { email: 'owner@example.com', firstName: 'Demo', lastName: 'Owner', password: 'Sandbox-Owner-1' } as const;

/**
 * Keeps n8n on 127.0.0.1, quiet and offline: no telemetry, banners, templates or update checks;
 * trusting the run's CA (NODE_EXTRA_CA_CERTS, read only when n8n starts) so it reaches the https
 * sandbox. Every n8n process (main, worker, CLI) gets a task-runner broker port of its own: n8n
 * 2.x starts a broker in each. n8n 1.x's default expression engine needs isolated-vm, which does
 * not build on Node 20 (the install skips its build): it runs with the legacy one.
 */
async function n8nEnv(userFolder: string, port: number, extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
	const tls = runTlsFiles();
	if (!tls) throw new Error(NO_TLS_MESSAGE);
	// n8n writes some files to the system's temp folder (data-table uploads, with no setting to
	// move them): give it one inside the user folder, which goes when the run ends.
	const temp = join(userFolder, 'tmp');
	mkdirSync(temp, { recursive: true });
	return cleanEnv({
		[CA_ENV]: tls.ca,
		TMPDIR: temp,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
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
		...(N8N_MAJOR < 2 ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {}),
		...extra,
	});
}

export interface CredentialFixture {
	id: string;
	name: string;
	type: string;
	data: Record<string, string | boolean>;
}

/** Imports credentials (plain data; n8n encrypts it on import) and workflows with their fixed ids, with n8n's CLI. */
export async function importFixtures(userFolder: string, credentials: CredentialFixture[], workflows: unknown[], extraEnv?: Record<string, string>) {
	const workDir = join(userFolder, 'import');
	mkdirSync(workDir, { recursive: true });
	for (const [kind, fixtures] of [['credentials', credentials], ['workflow', workflows]] as const) {
		if (fixtures.length === 0) continue;
		const file = join(workDir, `${kind}.json`);
		writeFileSync(file, JSON.stringify(fixtures, null, 2));
		const env = await n8nEnv(userFolder, await freePort(), extraEnv);
		await run(`n8n import:${kind}`, n8nNodeBinary(), [N8N_BIN, `import:${kind}`, `--input=${file}`], { env, cwd: N8N_DIR });
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
}

/** Starts n8n in its own process group and waits (at most 2 minutes) until it is ready to serve. */
export async function startN8n(options: StartOptions): Promise<N8nProcess> {
	const command = options.command ?? 'start';
	const name = options.name ?? (command === 'start' ? 'n8n' : 'n8n worker');
	const port = options.port ?? (await freePort());
	// A worker's health-check server gets a port of its own too, unless the caller chose one.
	const workerPort: Record<string, string> = command === 'worker' ? { QUEUE_HEALTH_CHECK_PORT: String(await freePort()) } : {};
	const env = await n8nEnv(options.userFolder, port, { ...workerPort, ...options.extraEnv });
	const logFile = join(options.userFolder, `${name.replace(/\W+/g, '-')}.log`);
	const group = spawnGroup(name, n8nNodeBinary(), [N8N_BIN, command, ...(options.args ?? [])], { env, cwd: N8N_DIR, logFile, echo: options.echo });
	const url = `http://127.0.0.1:${port}`;
	await whenReady(group, 120_000, async () => {
		if (command === 'worker') return group.output().includes('n8n worker is now ready');
		// Readiness turns ok while the REST controllers are still being registered; the
		// "Editor is now accessible" line comes after them.
		if (!group.output().includes('Editor is now accessible')) return false;
		return (await fetch(`${url}/healthz/readiness`).catch(() => undefined))?.status === 200;
	});
	return { url, port, group, logFile };
}

export class RestError extends Error {
	constructor(readonly status: number, body: unknown, what: string) {
		super(`${what} → HTTP ${status}: ${JSON.stringify(body).slice(0, 500)}`);
	}
}

export interface NodeItem {
	json: Record<string, unknown>;
	/** Binary data by property: what n8n stores about each file (the bytes stay in its binary data store). */
	binary?: Record<string, { fileName?: string; mimeType?: string }>;
	pairedItem?: unknown;
}

export interface TaskData {
	error?: { message?: string; description?: string };
	/** How long the node's run took, in ms, as n8n measured it. */
	executionTime?: number;
	/** Output items per connection type (`main`, or `ai_tool` for a tool) and output index. */
	data?: Record<string, Array<NodeItem[] | null> | undefined>;
}

export interface RunExecutionData {
	resultData: {
		error?: { message?: string; description?: string; node?: { name?: string } };
		runData: Record<string, TaskData[]>;
	};
}

/** An execution as n8n stores it: `unknown` until queue mode has written its row. */
export interface Execution {
	id: string;
	status: string;
	/** When it finished (ISO time). */
	stoppedAt?: string;
	/** The run data (`IRunExecutionData`), parsed, once n8n has stored it. */
	data?: RunExecutionData;
}

/** An execution with its run data stored: one that waits or has finished. */
export type ExecutionSummary = Execution & { data: RunExecutionData };

/** The statuses an execution ends in. */
export const FINISHED = ['success', 'error', 'crashed', 'canceled'];
/** The name n8n gives a Manual Trigger: "Execute workflow" starts from it. */
export const MANUAL_TRIGGER = 'When clicking ‘Execute workflow’';

/** The items of a node's last run, on its main output or, for a tool, its ai_tool output. */
export function outputOf(execution: Execution | undefined, node: string): NodeItem[] {
	const data = execution?.data?.resultData.runData[node]?.at(-1)?.data;
	const main = data?.main?.[0];
	return (main?.length ? main : data?.ai_tool?.[0]) ?? [];
}

/** The first item's json of a node's last run (see {@link outputOf}). */
export const firstJson = (execution: Execution | undefined, node: string): Record<string, unknown> | undefined => outputOf(execution, node)[0]?.json;

/** The first item's binary data of a node's last run (none: {}). */
export const firstBinary = (execution: Execution | undefined, node: string): NonNullable<NodeItem['binary']> => outputOf(execution, node)[0]?.binary ?? {};

/** POSTs a form to an n8n waiting-webhook link, as an answer page's button does: n8n's status and page. */
export async function postForm(url: string, body: string): Promise<{ status: number; text: string }> {
	const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
	return { status: response.status, text: await response.text() };
}

/** n8n stores execution data with `flatted` (JSON with shared references); use n8n's own copy. */
function parseFlatted(text: string): RunExecutionData {
	const requireFromN8n = createRequire(join(N8N_DIR, 'node_modules', 'n8n', 'package.json'));
	return (requireFromN8n('flatted') as { parse(text: string): unknown }).parse(text) as RunExecutionData;
}

type TypeDescription = { name: string; properties?: Array<{ name: string; default?: unknown }> };

/** The REST API the editor uses, with the session cookie from owner setup or login. */
export class N8nClient {
	private cookie = '';

	constructor(readonly url: string) {}

	async request<T>(method: string, path: string, body?: unknown): Promise<T> {
		const headers = { ...(this.cookie ? { Cookie: this.cookie } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
		const response = await fetch(`${this.url}/rest${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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

	async login(): Promise<void> {
		await this.request('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
	}

	/** The editor's lists of the node or credential types n8n knows, served from the user folder. */
	async types(list: 'nodes' | 'credentials'): Promise<TypeDescription[]> {
		return (await (await fetch(`${this.url}/types/${list}.json`, { headers: { Cookie: this.cookie } })).json()) as TypeDescription[];
	}

	async getWorkflow(id: string): Promise<Record<string, unknown> & { versionId: string }> {
		return await this.request('GET', `/workflows/${id}`);
	}

	/** Saves changed parts of a stored workflow, as the editor's Save does. */
	async updateWorkflow(id: string, changes: Record<string, unknown>): Promise<void> {
		await this.request('PATCH', `/workflows/${id}`, { ...changes, versionId: (await this.getWorkflow(id)).versionId });
	}

	/** Activates a workflow as the editor's toggle does: n8n 2.x's activate endpoint, n8n 1.x's PATCH. */
	async activateWorkflow(id: string): Promise<void> {
		await this.request('POST', `/workflows/${id}/activate`, { versionId: (await this.getWorkflow(id)).versionId }).catch(async (error: unknown) => {
			if (!(error instanceof RestError) || error.status !== 404) throw error;
			await this.updateWorkflow(id, { active: true });
		});
	}

	/**
	 * What the editor's "Execute workflow" does, a manual run of the stored workflow from the given
	 * trigger; then waits until its execution has one of the statuses `until`.
	 */
	async execute(id: string, { trigger = MANUAL_TRIGGER, until = FINISHED, deadlineMs = 120_000 } = {}): Promise<ExecutionSummary> {
		const body = { workflowData: await this.getWorkflow(id), triggerToStartFrom: { name: trigger } };
		const result = await this.request<{ executionId?: string }>('POST', `/workflows/${id}/run`, body);
		if (!result.executionId) throw new Error(`Workflow ${id} did not start: ${JSON.stringify(result)}`);
		return await this.statusBecomes(result.executionId, until, deadlineMs);
	}

	async execution(id: string): Promise<Execution> {
		type Row = { status: string; stoppedAt?: string; data?: string } | null;
		const row = await this.request<Row>('GET', `/executions/${id}`).catch((error: unknown) => {
			// Queue mode: the row may appear a moment after the run was accepted.
			if (error instanceof RestError && error.status === 404) return null;
			throw error;
		});
		return { id, status: row?.status ?? 'unknown', stoppedAt: row?.stoppedAt, data: row?.data ? parseFlatted(row.data) : undefined };
	}

	/** Polls until the execution has one of the `wanted` statuses and its run data (the deadline is against hanging, not a speed bound). */
	async statusBecomes(id: string, wanted: string[] = FINISHED, deadlineMs = 120_000): Promise<ExecutionSummary> {
		const deadline = Date.now() + deadlineMs;
		for (;;) {
			const execution = await this.execution(id);
			if (wanted.includes(execution.status) && execution.data) return execution as ExecutionSummary;
			if (Date.now() > deadline) throw new Error(`execution ${id} is ${execution.status}, not ${wanted.join(' or ')}`);
			await delay(300);
		}
	}

	/** `POST /rest/credentials/test` as the editor's "Retry"/"Save" does it; returns n8n's verdict. */
	async testCredential(credential: CredentialFixture): Promise<{ status: string; message: string }> {
		return await this.request<{ status: string; message: string }>('POST', '/credentials/test', { credentials: credential });
	}
}
