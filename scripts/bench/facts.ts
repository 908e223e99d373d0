/**
 * What a bench run was measured on: the machine, its load, the code and the versions of n8n and its
 * HTTP Request node, the node's adaptive pacing at its defaults. BENCHMARKS.md opens with them.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { git } from '../release/measured';
import { N8N_VERSION } from '../n8n/lib/config';
import { HTTP_REQUEST_VERSION, N8N_NODE_MODULES, RATE_LIMIT_PER_SECOND, REPO_ROOT } from './common';

/** Share of all cores' time spent busy over `ms` ms, from the kernel's counters (other processes included). */
async function busyShare(ms: number): Promise<number> {
	const total = () =>
		cpus().reduce(
			(sum, { times: { user, nice, sys, irq, idle } }) => ({ busy: sum.busy + user + nice + sys + irq, all: sum.all + user + nice + sys + irq + idle }),
			{ busy: 0, all: 0 },
		);
	const before = total();
	await new Promise((resolve) => setTimeout(resolve, ms));
	const after = total();
	return after.all > before.all ? (after.busy - before.busy) / (after.all - before.all) : 0;
}

const versionOf = (...path: string[]) => (JSON.parse(readFileSync(join(...path, 'package.json'), 'utf8')) as { version: string }).version;

export type Facts = Awaited<ReturnType<typeof machineFacts>>;

/**
 * The machine, its load (`busyBefore`: share of CPU time busy, any process, in the 3 s before the
 * start), the code and the versions measured (`n8n`: the burst legs' n8n, whose n8n-nodes-base gives
 * the HTTP Request node), the node's adaptive pacing at its defaults. `loadAfter`, `loadDuring` (the
 * 1-minute load average at the start of each leg) and `seconds` are filled in as the run goes.
 */
export async function machineFacts(reps: number) {
	const pace = join(REPO_ROOT, 'dist', 'nodes', 'MultiChannelNotification', 'delivery', 'pace.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { INITIAL_LIMIT, ADAPTIVE_CEILING } = require(pace) as { INITIAL_LIMIT: number; ADAPTIVE_CEILING: number };
	return {
		date: new Date().toISOString(),
		cpuModel: cpus()[0]?.model ?? 'unknown',
		cores: cpus().length,
		memoryGb: Math.round(totalmem() / 1024 ** 3),
		node: process.version,
		kernel: release(),
		loadBefore: loadavg(),
		busyBefore: await busyShare(3000),
		loadAfter: [] as number[],
		loadDuring: [] as number[],
		commit: `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain']) === '' ? '' : ' (with uncommitted changes)'}`,
		packageVersion: versionOf(REPO_ROOT),
		n8n: N8N_VERSION,
		n8nCore: versionOf(REPO_ROOT, 'node_modules', 'n8n-core'),
		n8nWorkflow: versionOf(REPO_ROOT, 'node_modules', 'n8n-workflow'),
		n8nNodesBase: versionOf(N8N_NODE_MODULES, 'n8n-nodes-base'),
		httpRequestVersion: HTTP_REQUEST_VERSION,
		adaptive: { initial: INITIAL_LIMIT, ceiling: ADAPTIVE_CEILING },
		rateLimitPerSecond: RATE_LIMIT_PER_SECOND,
		reps,
		seconds: 0,
	};
}
