/**
 * `npm run bench` — how fast and how heavy the node is, measured on this machine against the
 * local sandbox, and compared with n8n's own HTTP Request node and a raw keep-alive client.
 *
 * Not part of the tests. Every client configuration runs in a fresh child process (its
 * 1,000-item runs, then its 10,000-item runs), every memory and profile run in one of its own,
 * the sandbox in another (so client and service do not share an event loop); this process only
 * plans, collects and reports, one line a leg. Prints the tables and writes BENCHMARKS.md (and the
 * raw figures to .cache/bench/results.json, and for a full run beside it as BENCHMARKS.json).
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';

import { measuredNow } from '../release/measured';
import { ensureN8n } from '../n8n/lib/install';
import { QUIET } from '../n8n/lib/process';
import { LIMITER_SHAPES, RETRY_AFTER_STYLES } from '../../sandbox/rateLimit';
import type { BurstResult, BurstSpec, LegInput, LegKind, LegResult, LegSpec, PrepareResult, ServiceSpec } from './common';
import { HTTP_BATCH, RATE_LIMIT_PER_SECOND, errorText, forkTs, nextMessage, useTempN8nFolder } from './common';
import type { Measured } from './report';
import { burstLine, failedBurst } from './reportLimits';
import { machineFacts, render, resultText, save } from './results';

/** The sandboxes, in order: answering at once, holding each answer 100 ms, and rate limited in each shape × Retry-After style. */
const SERVICES: ServiceSpec[] = [
	{ latencyMs: 0 },
	{ latencyMs: 100 },
	...LIMITER_SHAPES.flatMap((shape) =>
		RETRY_AFTER_STYLES.map((retryAfter) => ({
			latencyMs: 0,
			rateLimit: { perSecond: RATE_LIMIT_PER_SECOND, shape, retryAfter },
		})),
	),
];
/** Pinned Options → Concurrency values measured (the default, unset, adapts). */
const CONCURRENCIES = [1, 5, 10, 20];
/** The pacing legs' item count. */
const PACING_ITEMS = 2000;
const SANDBOX_ALONE = [50, 200];
/**
 * The burst legs (burst.ts): 300 one-item executions at once through real n8n's production
 * webhooks, against 20/s. One process on a fixed window; queue mode (Postgres + Redis) in each
 * worker set-up against each limiter shape (the token bucket holding 2), and against no limit,
 * which shows what n8n's queue costs by itself.
 */
const BURST = { events: 300, latencyMs: 50, retryAfter: 'seconds' } as const;
const QUEUE_SETUPS = [{ workers: 2, workerConcurrency: 50 }, { workers: 2 }, { workers: 2, workerConcurrency: 5 }, { workers: 4 }];
const BURSTS: BurstSpec[] = [
	{ mode: 'regular', ...BURST, perSecond: 20 },
	...QUEUE_SETUPS.flatMap((setup) => [
		...LIMITER_SHAPES.map((shape): BurstSpec => ({ mode: 'queue', ...BURST, ...setup, perSecond: 20, shape, bucket: shape === 'tokenBucket' ? 2 : undefined })),
		{ mode: 'queue' as const, ...BURST, ...setup },
	]),
];
/**
 * `--quick`: a smoke run (a tenth of the items, one run each, the bursts of one process and of the
 * first queue set-up only) that writes only .cache/bench/.
 */
const QUICK = process.argv.includes('--quick');
/**
 * `--only=TEXT`: only the legs whose description (as printed, e.g. "node defaults (adaptive) ·
 * latency 0 ms") contains TEXT; `|` separates alternatives; the alternative `prepare` also runs the
 * validation measurement. Writes only .cache/bench/only.*.
 */
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split('|');
/**
 * `--node-only`: the bursts measure only this node at its defaults (a minute a queue leg instead of
 * two): for comparing two versions of the pacing, leg by leg, with `--only`. Writes only
 * .cache/bench/only.*.
 */
const NODE_ONLY = process.argv.includes('--node-only');
/** `--render`: no measuring; rewrites BENCHMARKS.md from the last full run's BENCHMARKS.json. */
const RENDER = process.argv.includes('--render');
const REPS = QUICK ? 1 : 3;
/** Timed runs of the legs a pacing target compares (2,000 items): a 1-2 s run is noisy here. */
const TARGET_REPS = 5;
const SCALE = QUICK ? 0.1 : 1;
const LEG_TIMEOUT_MS = 15 * 60_000;

/** One leg process: a client configuration measured at one or more item counts, against a service. */
type Plan = Omit<LegInput, 'spec'> & { service: ServiceSpec; spec: Omit<LegInput['spec'], 'url'> };

/** How a leg departs from the defaults: timed runs per item count (default REPS), at 10,000 items when fewer, warm-up items. */
type PlanOptions = Pick<LegSpec, 'memory' | 'profile' | 'mayFail'> & { reps?: number; reps10k?: number; warmup?: number };

/**
 * Items of the untimed warm-up run: enough to load and JIT everything (a few seconds for the
 * engine legs without latency), at most about a third of a second of waiting on latency.
 */
function warmupFor(kind: LegKind, concurrency: number | undefined, latencyMs: number): number {
	if (kind === 'raw' || kind === 'rawNoKeepAlive') return latencyMs === 0 ? 2000 : Math.min(300, (concurrency ?? 1) * 3);
	if (latencyMs === 0) return 1000;
	return kind === 'httpNode' ? 300 : Math.min(300, (concurrency ?? 1) * 3);
}

/** With 100 ms latency a run is paced by concurrency ÷ latency: concurrency × 50 items take about 5 s. */
const itemsAt100ms = (concurrency: number) => Math.min(1000, concurrency * 50);

/** The legs, grouped by sandbox in the order of SERVICES. */
function plan(): Plan[] {
	const legs: Plan[] = [];
	const add = (service: ServiceSpec, kind: LegKind, counts: number[], concurrency?: number, options: PlanOptions = {}) => {
		const { reps, reps10k, warmup, ...flags } = options;
		legs.push({
			service,
			runs: counts.map((count) => ({
				items: Math.max(20, Math.round(count * SCALE)),
				reps: count >= 10000 && reps10k !== undefined ? Math.min(REPS, reps10k) : QUICK ? 1 : (reps ?? REPS),
			})),
			spec: {
				kind,
				warmup: Math.round((warmup ?? warmupFor(kind, concurrency, service.latencyMs)) * (QUICK ? 0.5 : 1)),
				...(concurrency === undefined ? {} : { concurrency }),
				...flags,
				...(service.rateLimit ? { rateLimited: true } : {}),
			},
		});
	};
	const [at0, at100, ...rateLimited] = SERVICES;
	const memory: PlanOptions = { memory: true, reps: 1, warmup: 20 };
	const once: PlanOptions = { reps10k: 1 };
	const target: PlanOptions = { reps: TARGET_REPS, reps10k: REPS };
	// `undefined` concurrency: the node at its defaults (adaptive), as a new node has it.
	const DEFAULTS = undefined;

	// Sandbox answering at once: every client at 2,000 and 10,000 items. To keep the run time
	// down, 10,000-item runs are repeated only for the legs the targets compare (the node at
	// its defaults and at 20, the HTTP Request node at its defaults, the raw clients).
	const both = [PACING_ITEMS, 10000];
	add(at0, 'node', both, DEFAULTS, target);
	for (const c of CONCURRENCIES) add(at0, 'node', both, c, c === 20 ? {} : once);
	for (const c of CONCURRENCIES) add(at0, 'raw', both, c);
	add(at0, 'rawNoKeepAlive', both, 20, once);
	add(at0, 'n8nHelper', both, 20, once);
	add(at0, 'httpNode', both, undefined, target);
	// Batching paces by the clock (batchSize items every batchInterval ms) whatever the latency:
	// 10,000 items would take 50 s a run, so it runs at 1,000 items only.
	add(at0, 'httpNodeBatching', [1000]);
	for (const c of SANDBOX_ALONE) add(at0, 'raw', [10000], c);
	add(at0, 'node', [10000], DEFAULTS, memory);
	add(at0, 'httpNode', [10000], undefined, memory);
	add(at0, 'raw', [10000], 10, memory);
	// Where the CPU time goes: one profiled run each (the profiler slows it; only the shares count).
	const profile: PlanOptions = { profile: true, reps: 1 };
	add(at0, 'node', [PACING_ITEMS], DEFAULTS, profile);
	add(at0, 'n8nHelper', [PACING_ITEMS], 20, profile);
	add(at0, 'httpNode', [PACING_ITEMS], undefined, profile);

	// Sandbox holding each answer 100 ms: pinned concurrencies at concurrency × 50 items (about
	// 5 s a run), the pacing legs (defaults, the ceiling 100, the HTTP Request node) at 2,000.
	const pacing: PlanOptions = { ...target, warmup: 300 };
	add(at100, 'node', [PACING_ITEMS], DEFAULTS, pacing);
	for (const c of CONCURRENCIES) add(at100, 'node', [itemsAt100ms(c)], c);
	add(at100, 'node', [PACING_ITEMS], 100, pacing);
	for (const c of CONCURRENCIES) add(at100, 'raw', [itemsAt100ms(c)], c);
	add(at100, 'raw', [PACING_ITEMS], 100, pacing);
	add(at100, 'rawNoKeepAlive', [itemsAt100ms(20)], 20);
	add(at100, 'n8nHelper', [itemsAt100ms(20)], 20);
	// The ceiling for any node on n8n's request helper (this node's only client) at the highest Concurrency it allows.
	add(at100, 'n8nHelper', [PACING_ITEMS], 100, pacing);
	add(at100, 'httpNode', [...new Set([...CONCURRENCIES.map(itemsAt100ms), PACING_ITEMS])], undefined, target);
	add(at100, 'httpNodeBatching', [1000]);
	for (const c of SANDBOX_ALONE) add(at100, 'raw', [1000], c);
	// At its defaults the HTTP Request node opens one connection per item, all at once.
	add(at100, 'httpNode', [10000], undefined, memory);

	// Rate limited (N a second, 429 beyond): the node at its defaults once per limiter shape and
	// Retry-After style (a run takes at least 2,000 ÷ N = 20 s); the HTTP Request node at its
	// defaults once (fixed window, Retry-After in seconds), to show what a client without pacing gets.
	for (const service of rateLimited) add(service, 'node', [PACING_ITEMS], DEFAULTS, { reps: 1, warmup: 100 });
	add(rateLimited[0], 'httpNode', [PACING_ITEMS], undefined, { reps: 1, warmup: 0, mayFail: true });
	return legs.sort((a, b) => SERVICES.indexOf(a.service) - SERVICES.indexOf(b.service));
}

function describe({ spec, service }: Plan): string {
	const c = spec.concurrency;
	const name = {
		node: c === undefined ? 'node defaults (adaptive)' : `node c${c}`,
		httpNode: 'HTTP Request (defaults)',
		httpNodeBatching: `HTTP Request (batching ${HTTP_BATCH.batchSize}/${HTTP_BATCH.batchInterval} ms)`,
		n8nHelper: `n8n request helper only c${c}`,
		raw: `raw keep-alive c${c}`,
		rawNoKeepAlive: `raw, new connection each c${c}`,
	}[spec.kind];
	const limit = service.rateLimit;
	const where = limit ? `rate limited ${limit.perSecond}/s ${limit.shape}, Retry-After ${limit.retryAfter}` : `latency ${service.latencyMs} ms`;
	return `${name} · ${where}${spec.memory ? ' · memory' : ''}${spec.profile ? ' · CPU profile' : ''}`;
}

function describeBurst(spec: BurstSpec): string {
	const workers = spec.mode === 'queue' ? ` × ${spec.workers} workers at concurrency ${spec.workerConcurrency ?? 'default'}` : '';
	const limit = spec.perSecond === undefined ? 'no limit' : `${spec.perSecond}/s ${spec.shape ?? 'fixedWindow'}${spec.bucket ? ` of ${spec.bucket}` : ''}`;
	return `burst ${spec.mode}${workers}: ${spec.events} webhook executions · ${limit}, latency ${spec.latencyMs} ms`;
}

/** The sandbox the current legs run against, in its own process; replaced when the service changes. */
let sandbox: { service: ServiceSpec; child: ChildProcess; url: string } | undefined;

async function sandboxUrl(service: ServiceSpec): Promise<string> {
	if (sandbox?.service !== service) {
		sandbox?.child.disconnect();
		const child = forkTs('sandboxProcess.ts', service);
		sandbox = { service, child, url: (await nextMessage(child, 'ready', 60_000)).url };
	}
	return sandbox.url;
}

/** What the run collects: the 1-minute load average at the start of each leg, and every leg's results. */
const run = { loadDuring: [] as number[], prepare: [] as PrepareResult[], results: [] as Measured[], bursts: [] as BurstResult[] };

async function runPrepare(): Promise<string> {
	run.prepare.push(...(await nextMessage(forkTs('prepare.ts', { quick: QUICK }), 'prepare', LEG_TIMEOUT_MS)).results);
	return `${run.prepare.map((result) => `${result.operation} (${result.mode}) ${result.wall.prepareUs.toFixed(1)}`).join(' · ')} µs/item`;
}

/** Runs one leg in its own process against its sandbox; its result line. */
async function runLeg(leg: Plan): Promise<string> {
	run.loadDuring.push(loadavg()[0]);
	const input: LegInput = { spec: { ...leg.spec, url: await sandboxUrl(leg.service) }, runs: leg.runs };
	let results: LegResult[];
	try {
		results = (await nextMessage(forkTs('leg.ts', input, leg.spec.memory ? ['--expose-gc'] : []), 'leg', LEG_TIMEOUT_MS)).results;
	} catch (error) {
		results = leg.runs.map((runs) => ({ spec: { ...input.spec, ...runs }, reps: [], problem: errorText(error) }));
	}
	const { latencyMs, rateLimit } = leg.service;
	run.results.push(...results.map((result) => ({ latencyMs, ...(rateLimit ? { rateLimit } : {}), result })));
	return results.map(resultText).join(' · ');
}

/** Runs one burst leg (real n8n, this node and the HTTP Request node in turn); its result line. */
async function runBurst(spec: BurstSpec): Promise<string> {
	run.loadDuring.push(loadavg()[0]);
	try {
		const child = forkTs('burst.ts', { ...spec, events: QUICK ? Math.round(spec.events / 5) : spec.events, ...(NODE_ONLY ? { nodeOnly: true } : {}) });
		const results = (await nextMessage(child, 'burst', LEG_TIMEOUT_MS)).results;
		run.bursts.push(...results);
		return results.map((result) => burstLine(result).replace(/\n\s*/g, ' · ')).join(' · ');
	} catch (error) {
		run.bursts.push(failedBurst(spec, errorText(error)));
		return `PROBLEM: ${errorText(error).split('\n').slice(0, 3).join(' ')}`;
	}
}

async function main(): Promise<void> {
	if (RENDER) return render();
	const started = Date.now();
	const measured = measuredNow();
	const n8nFolder = useTempN8nFolder();
	await ensureN8n((line) => console.log(line));
	const facts = await machineFacts(REPS);
	console.log(`Bench on ${facts.cpuModel} (${facts.cores} cores), Node ${facts.node}, load ${facts.loadBefore.map((l) => l.toFixed(2)).join(' ')}`);
	if (facts.busyBefore > 0.2) {
		console.log(`Warning: the machine is already ${Math.round(facts.busyBefore * 100)} % busy before the bench starts: figures will be low and noisy.`);
	}
	const bursts = QUICK ? BURSTS.slice(0, 1 + LIMITER_SHAPES.length + 1) : BURSTS;
	const legs: Array<readonly [string, () => Promise<string>]> = [
		...(!ONLY || ONLY.includes('prepare') ? [['prepare: validating and building each request kind (no sending)', runPrepare] as const] : []),
		...[...plan().map((leg) => [describe(leg), () => runLeg(leg)] as const), ...bursts.map((spec) => [describeBurst(spec), () => runBurst(spec)] as const)].filter(
			([what]) => !ONLY || ONLY.some((text) => what.includes(text)),
		),
	];
	// `[12/58] node defaults (adaptive) · latency 0 ms · …`: on a terminal (not in CI) the leg being
	// measured shows until its result line replaces it; in CI, one line a leg.
	const live = process.stdout.isTTY && !QUIET;
	console.log('');
	for (const [index, [what, measure]] of legs.entries()) {
		const head = `[${index + 1}/${legs.length}] ${what}`;
		if (live) process.stdout.write(`${head} …`);
		const legStarted = Date.now();
		const line = await measure();
		console.log(`${live ? '\r\x1b[2K' : ''}${head} · ${line} · ${Math.round((Date.now() - legStarted) / 1000)} s`);
	}
	sandbox?.child.disconnect();
	rmSync(n8nFolder, { recursive: true, force: true });
	Object.assign(facts, { loadAfter: loadavg(), loadDuring: run.loadDuring, seconds: Math.round((Date.now() - started) / 1000) });
	save({ measured, facts, prepare: run.prepare, results: run.results, bursts: run.bursts }, ONLY || NODE_ONLY ? 'only' : QUICK ? 'quick' : undefined);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
