/**
 * The whole set-up every entry point shares: n8n installed, our package packed and installed in
 * a fresh user folder like a community package, the sandbox credential and the examples
 * imported, n8n started, the owner set up and logged in.
 */
import { installPackageInto, packPackage } from './communityPackage';
import { sandboxCredential } from './examples';
import { ensureN8n } from './install';
import type { CredentialFixture, N8nProcess } from './n8n';
import { minutesAndSeconds } from './npmProgress';
import { importFixtures, N8nClient, startN8n } from './n8n';
import { elapsed, makeTempDir, QUIET } from './process';
import type { Sandbox } from './sandbox';

/** Every step's name and seconds, printed at the end. */
const timings: Array<[string, number]> = [];

/** How often a running step says it is still running. */
const HEARTBEAT_MS = 5000;

/**
 * Runs one named step, printing when it starts (not under CI), every 5 s that it is still running
 * (unless the step prints its own progress: `heartbeat: false`), and how long it took.
 */
export async function step<T>(name: string, work: () => Promise<T>, { heartbeat = true } = {}): Promise<T> {
	const started = Date.now();
	if (!QUIET) console.log(`→ ${name}…`);
	const timer = heartbeat ? setInterval(() => console.log(`  … ${name}: ${minutesAndSeconds(Date.now() - started)}`), HEARTBEAT_MS) : undefined;
	let result: T;
	try {
		result = await work();
	} finally {
		clearInterval(timer);
	}
	timings.push([name, (Date.now() - started) / 1000]);
	console.log(`✓ ${name} (${elapsed(started)})`);
	return result;
}

export function printTimings(): void {
	console.log('\nTimings:');
	for (const [name, seconds] of timings) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`);
}

export interface Stack {
	userFolder: string;
	/** Where n8n loads our package from: `<userFolder>/.n8n/nodes/node_modules/<package>`. */
	packageDir: string;
	n8n: N8nProcess;
	client: N8nClient;
}

export interface LaunchOptions {
	/** Name part of the temporary user folder. */
	label: string;
	/** A sandbox whose credential (the one the examples and the checks' workflows use) is imported first. */
	sandbox?: Sandbox;
	credentials?: CredentialFixture[];
	workflows?: unknown[];
	/** Extra environment for the main instance (queue mode, a preload hook, …). */
	extraEnv?: Record<string, string>;
	echo?: boolean;
	port?: number;
}

export async function launch(options: LaunchOptions): Promise<Stack> {
	// The install prints its own progress (npm's packages, node_modules' size) every 5 s.
	await step(`n8n install (.cache/)`, async () => await ensureN8n(), { heartbeat: false });
	const userFolder = makeTempDir(options.label);
	const packageDir = await step('pack the package and install it into the n8n user folder', async () => await installPackageInto(userFolder, await packPackage(userFolder)));
	const { sandbox, workflows = [] } = options;
	const credentials = [...(sandbox ? [sandboxCredential(sandbox.url, sandbox.apiKey)] : []), ...(options.credentials ?? [])];
	if (credentials.length > 0 || workflows.length > 0) {
		await step('import credential and workflows (n8n CLI)', async () => await importFixtures(userFolder, credentials, workflows, options.extraEnv));
	}
	const n8n = await step('start n8n', async () => await startN8n({ userFolder, port: options.port, extraEnv: options.extraEnv, echo: options.echo }));
	const client = new N8nClient(n8n.url);
	await step('owner account and login', async () => await client.setupOwnerOrLogin());
	return { userFolder, packageDir, n8n, client };
}
