/**
 * `npm run bench` — how fast and how heavy the node is, measured on this machine against the
 * local sandbox, and compared with n8n's own HTTP Request node and a raw keep-alive client.
 *
 * Not part of the tests. Every client configuration runs in a fresh child process (its
 * 2,000-item runs, then its 10,000-item runs), every memory run in one of its own,
 * the sandbox in another (so client and service do not share an event loop); the bursts and,
 * last, the Send Once leg run through real n8n in processes of their own. This process only
 * plans, collects and reports, one line a leg. Prints the tables and writes the raw figures to
 * .cache/bench/results.json, and for a full run their summary, BENCHMARKS.json, and BENCHMARKS.md.
 */
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';

import { measuredNow } from '../release/measured';
import { ensureN8n } from '../n8n/lib/install';
import { installCleanup, QUIET } from '../n8n/lib/process';
import { LIMITER_SHAPES, RETRY_AFTER_STYLES } from '../../sandbox/rateLimit';
import type { BurstResult, BurstSpec, LegInput, LegKind, LegResult, LegSpec, Measured, SendOnceResult, SendOnceSpec, ServiceSpec } from './common';
import { RATE_LIMIT_PER_SECOND, errorText, forkTs, median, nextMessage, useTempN8nFolder } from './common';
import { machineFacts } from './facts';
import { burstLine, failedBurst } from './reportLimits';
import { render, resultText, save } from './results';

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
/** The pacing legs' item count. */
const PACING_ITEMS = 2000;
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
 * The Send Once leg (sendOnce.ts), last: one-item keyed executions through real n8n with the
 * store at the default Send Once History Size, and nearly empty.
 */
const SEND_ONCE: SendOnceSpec = { stored: 10_000, runs: 30 };
/**
 * `--quick`: a smoke run (a tenth of the items, one run each, the bursts of one process and of the
 * first queue set-up only, a tenth of the Send Once keys) that writes only .cache/bench/.
 */
const QUICK = process.argv.includes('--quick');
/**
 * `--only=TEXT`: only the legs whose description (as printed, e.g. "node defaults (adaptive) ·
 * latency 0 ms") contains TEXT; `|` separates alternatives. Writes only .cache/bench/only.*.
 */
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split('|');
/**
 * `--node-only`: the bursts measure only this node at its defaults (a minute a queue leg instead of
 * two): for comparing two versions of the pacing, leg by leg, with `--only`. Writes only
 * .cache/bench/only.*.
 */
const NODE_ONLY = process.argv.includes('--node-only');
/** `--render`: no measuring; rewrites BENCHMARKS.md, its charts and their page from the last full run's BENCHMARKS.json. */
const RENDER = process.argv.includes('--render');
const REPS = QUICK ? 1 : 3;
/** Timed runs of the legs a pacing target compares (2,000 items): a 1-2 s run is noisy here. */
const TARGET_REPS = 5;
const SCALE = QUICK ? 0.1 : 1;
const LEG_TIMEOUT_MS = 15 * 60_000;

/** One leg process: a client configuration measured at one or more item counts, against a service. */
type Plan = Omit<LegInput, 'spec'> & { service: ServiceSpec; spec: Omit<LegInput['spec'], 'url'> };

/** How a leg departs from the defaults: timed runs per item count (default REPS), at 10,000 items when fewer, warm-up items. */
type PlanOptions = Pick<LegSpec, 'memory' | 'mayFail'> & { reps?: number; reps10k?: number; warmup?: number };

/**
 * Items of the untimed warm-up run: enough to load and JIT everything (a few seconds for the
 * engine legs without latency), at most about a third of a second of waiting on latency.
 */
function warmupFor(kind: LegKind, latencyMs: number): number {
	if (latencyMs === 0) return kind === 'raw' ? 2000 : 1000;
	return 300;
}

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
				warmup: Math.round((warmup ?? warmupFor(kind, service.latencyMs)) * (QUICK ? 0.5 : 1)),
				...(concurrency === undefined ? {} : { concurrency }),
				...flags,
				...(service.rateLimit ? { rateLimited: true } : {}),
			},
		});
	};
	const [at0, at100, ...rateLimited] = SERVICES;
	const memory: PlanOptions = { memory: true, reps: 1, warmup: 20 };
	const target: PlanOptions = { reps: TARGET_REPS, reps10k: REPS };
	// `undefined` concurrency: the node at its defaults (adaptive), as a new node has it.
	const DEFAULTS = undefined;

	// Sandbox answering at once: this node, the HTTP Request node and the raw client (20 in flight)
	// at 2,000 and 10,000 items; then each once more in a fresh process for its memory.
	const both = [PACING_ITEMS, 10000];
	add(at0, 'node', both, DEFAULTS, target);
	add(at0, 'httpNode', both, undefined, target);
	add(at0, 'raw', both, 20);
	add(at0, 'node', [10000], DEFAULTS, memory);
	add(at0, 'httpNode', [10000], undefined, memory);
	add(at0, 'raw', [10000], 10, memory);

	// Sandbox holding each answer 100 ms: the same three at 2,000 items, the raw client with 100 in
	// flight (this node adapts up to 200; the HTTP Request node sends every item at once).
	const pacing: PlanOptions = { ...target, warmup: 300 };
	add(at100, 'node', [PACING_ITEMS], DEFAULTS, pacing);
	add(at100, 'httpNode', [PACING_ITEMS], undefined, target);
	add(at100, 'raw', [PACING_ITEMS], 100, pacing);
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
		node: 'node defaults (adaptive)',
		httpNode: 'HTTP Request (defaults)',
		raw: `raw keep-alive c${c}`,
	}[spec.kind];
	const limit = service.rateLimit;
	const where = limit ? `rate limited ${limit.perSecond}/s ${limit.shape}, Retry-After ${limit.retryAfter}` : `latency ${service.latencyMs} ms`;
	return `${name} · ${where}${spec.memory ? ' · memory' : ''}`;
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
const run = { loadDuring: [] as number[], results: [] as Measured[], bursts: [] as BurstResult[], sendOnce: undefined as SendOnceResult | undefined };

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

/** Runs the Send Once leg (real n8n, one node, two stores); its result line. */
async function runSendOnce(spec: SendOnceSpec): Promise<string> {
	run.loadDuring.push(loadavg()[0]);
	try {
		const result = (await nextMessage(forkTs('sendOnce.ts', spec), 'sendOnce', LEG_TIMEOUT_MS)).result;
		run.sendOnce = result;
		return `median ${median(result.atBoundMs)} ms with ${spec.stored} keys stored, ${median(result.nearlyEmptyMs)} ms nearly empty (${spec.runs} executions each)`;
	} catch (error) {
		run.sendOnce = { spec, atBoundMs: [], nearlyEmptyMs: [], fillMs: 0, problem: errorText(error) };
		return `PROBLEM: ${errorText(error).split('\n').slice(0, 3).join(' ')}`;
	}
}

function describeSendOnce({ stored, runs }: SendOnceSpec): string {
	return `Send Once Per Key through real n8n: ${runs} one-item executions with ${stored} keys stored, then nearly empty`;
}

async function main(): Promise<void> {
	if (RENDER) return render();
	const started = Date.now();
	const measured = measuredNow();
	// The n8n user folder goes however the bench ends: done, failed, or stopped by Ctrl-C.
	installCleanup();
	useTempN8nFolder();
	await ensureN8n((line) => console.log(line));
	const facts = await machineFacts(REPS);
	console.log(`Bench on ${facts.cpuModel} (${facts.cores} cores), Node ${facts.node}, load ${facts.loadBefore.map((l) => l.toFixed(2)).join(' ')}`);
	if (facts.busyBefore > 0.2) {
		console.log(`Warning: the machine is already ${Math.round(facts.busyBefore * 100)} % busy before the bench starts: figures will be low and noisy.`);
	}
	const bursts = QUICK ? BURSTS.slice(0, 1 + LIMITER_SHAPES.length + 1) : BURSTS;
	const sendOnce = QUICK ? { stored: SEND_ONCE.stored / 10, runs: 5 } : SEND_ONCE;
	const legs: Array<readonly [string, () => Promise<string>]> = [
		...plan().map((leg) => [describe(leg), () => runLeg(leg)] as const),
		...bursts.map((spec) => [describeBurst(spec), () => runBurst(spec)] as const),
		[describeSendOnce(sendOnce), () => runSendOnce(sendOnce)] as const,
	].filter(([what]) => !ONLY || ONLY.some((text) => what.includes(text)));
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
	Object.assign(facts, { loadAfter: loadavg(), loadDuring: run.loadDuring, seconds: Math.round((Date.now() - started) / 1000) });
	save({ measured, facts, results: run.results, bursts: run.bursts, ...(run.sendOnce ? { sendOnce: run.sendOnce } : {}) }, ONLY || NODE_ONLY ? 'only' : QUICK ? 'quick' : undefined);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
