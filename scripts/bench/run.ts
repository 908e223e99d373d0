/**
 * `npm run bench` — how fast and how heavy the node is, measured on this machine against the
 * local sandbox, and compared with n8n's own HTTP Request node and a raw keep-alive client.
 *
 * Not part of the tests. Every client configuration runs in a fresh child process (its
 * 1,000-item runs, then its 10,000-item runs), every memory and profile run in one of its own,
 * the sandbox in another (so client and service do not share an event loop); this process only
 * plans, collects and reports. Prints the tables and writes BENCHMARKS.md (and the raw figures
 * to .cache/bench/results.json, and for a full run beside it as BENCHMARKS.json). `--quick` does a small smoke run that writes only .cache/bench/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { measuredLine, measuredNow } from '../release/measured';
import { ensureN8n, N8N_VERSION } from '../n8n/lib/install';
import { burstLine, chartsOf, failedBurst } from './reportLimits';
import { LIMITER_SHAPES, RETRY_AFTER_STYLES } from '../../sandbox/rateLimit';
import type { BurstResult, BurstSpec, LegInput, LegKind, LegResult, PrepareResult, ServiceSpec } from './common';
import {
	HTTP_BATCH,
	RATE_LIMIT_PER_SECOND,
	HTTP_REQUEST_VERSION,
	N8N_NODE_MODULES,
	REPO_ROOT,
	forkTs,
	median,
	nextMessage,
	timelineText,
	useTempN8nFolder,
} from './common';
import type { Facts, Measured } from './report';
import { renderReport } from './report';

/**
 * The sandboxes, in order: answering at once, holding each answer 100 ms, and rate limited at N a
 * second in each limiter shape × each Retry-After style.
 */
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
/** `--quick`: a smoke run (a tenth of the items, one run each) that writes only .cache/bench/. */
const QUICK = process.argv.includes('--quick');
/**
 * `--only=TEXT`: only the legs whose description (as printed, e.g. "node defaults (adaptive) ·
 * latency 0 ms") contains TEXT; `|` separates alternatives; the alternative `prepare` also runs the
 * validation measurement. Writes only .cache/bench/only.*.
 */
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split('|');
/** `--render`: no measuring; rewrites BENCHMARKS.md from the last full run's BENCHMARKS.json. */
const RENDER = process.argv.includes('--render');
const CACHE_DIR = join(REPO_ROOT, '.cache', 'bench');
const REPS = QUICK ? 1 : 3;
/** Timed runs of the legs a pacing target compares (2,000 items). */
const TARGET_REPS = 5;
const SCALE = QUICK ? 0.1 : 1;
const LEG_TIMEOUT_MS = 15 * 60_000;

/** One leg process: a client configuration measured at one or more item counts. */
interface Plan {
	service: ServiceSpec;
	spec: Omit<LegInput['spec'], 'url'>;
	runs: LegInput['runs'];
}

interface PlanOptions {
	memory?: boolean;
	profile?: boolean;
	/** Timed runs per item count; default REPS. */
	reps?: number;
	/** Timed runs at 10,000 items, when fewer than `reps`. */
	reps10k?: number;
	warmup?: number;
	mayFail?: boolean;
}

/** The node's adaptive pacing (no Concurrency set): where it starts and how high it may go. */
function adaptivePacing(): { initial: number; ceiling: number } {
	const scheduler = join(REPO_ROOT, 'dist', 'nodes', 'MultiChannelNotification', 'helpers', 'scheduler.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { INITIAL_LIMIT, ADAPTIVE_CEILING } = require(scheduler) as { INITIAL_LIMIT: number; ADAPTIVE_CEILING: number };
	return { initial: INITIAL_LIMIT, ceiling: ADAPTIVE_CEILING };
}

function serviceName(service: ServiceSpec): string {
	return service.rateLimit
		? `rate limited ${service.rateLimit.perSecond}/s ${service.rateLimit.shape}, Retry-After ${service.rateLimit.retryAfter}`
		: `latency ${service.latencyMs} ms`;
}

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
function itemsAt100ms(concurrency: number): number {
	return Math.min(1000, concurrency * 50);
}

function plan(): Plan[] {
	const legs: Plan[] = [];
	const add = (service: ServiceSpec, kind: LegKind, counts: number[], concurrency?: number, options: PlanOptions = {}) =>
		legs.push({
			service,
			runs: counts.map((count) => ({
				items: Math.max(20, Math.round(count * SCALE)),
				reps: count >= 10000 && options.reps10k !== undefined ? Math.min(REPS, options.reps10k) : QUICK ? 1 : (options.reps ?? REPS),
			})),
			spec: {
				kind,
				warmup: Math.round((options.warmup ?? warmupFor(kind, concurrency, service.latencyMs)) * (QUICK ? 0.5 : 1)),
				...(concurrency === undefined ? {} : { concurrency }),
				...(options.memory ? { memory: true } : {}),
				...(options.profile ? { profile: true } : {}),
				...(service.rateLimit ? { rateLimited: true } : {}),
				...(options.mayFail ? { mayFail: true } : {}),
			},
		});
	const [at0, at100, ...rateLimited] = SERVICES;
	const memory: PlanOptions = { memory: true, reps: 1, warmup: 20 };
	const once: PlanOptions = { reps10k: 1 };
	// `undefined` concurrency: the node at its defaults (adaptive), as a new node has it.
	const DEFAULTS = undefined;

	// Sandbox answering at once: every client at 2,000 and 10,000 items. To keep the run time
	// down, 10,000-item runs are repeated only for the legs the targets compare (the node at
	// its defaults and at 20, the HTTP Request node at its defaults, the raw clients).
	const both = [PACING_ITEMS, 10000];
	// The legs a pacing target compares run 5 times at 2,000 items: a 1-2 s run is noisy here.
	const target: PlanOptions = { reps: TARGET_REPS, reps10k: REPS };
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
	add(at100, 'node', [PACING_ITEMS], DEFAULTS, { ...target, warmup: 300 });
	for (const c of CONCURRENCIES) add(at100, 'node', [itemsAt100ms(c)], c);
	add(at100, 'node', [PACING_ITEMS], 100, { ...target, warmup: 300 });
	for (const c of CONCURRENCIES) add(at100, 'raw', [itemsAt100ms(c)], c);
	add(at100, 'raw', [PACING_ITEMS], 100, { ...target, warmup: 300 });
	add(at100, 'rawNoKeepAlive', [itemsAt100ms(20)], 20);
	add(at100, 'n8nHelper', [itemsAt100ms(20)], 20);
	// The ceiling for any node on n8n's request helper (this node's only client) at the highest Concurrency it allows.
	add(at100, 'n8nHelper', [PACING_ITEMS], 100, { ...target, warmup: 300 });
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
	return legs;
}

function describe(leg: Plan): string {
	const c = leg.spec.concurrency;
	const name = {
		node: c === undefined ? 'node defaults (adaptive)' : `node c${c}`,
		httpNode: 'HTTP Request (defaults)',
		httpNodeBatching: `HTTP Request (batching ${HTTP_BATCH.batchSize}/${HTTP_BATCH.batchInterval} ms)`,
		n8nHelper: `n8n request helper only c${c}`,
		raw: `raw keep-alive c${c}`,
		rawNoKeepAlive: `raw, new connection each c${c}`,
	}[leg.spec.kind];
	return `${name} · ${serviceName(leg.service)}${leg.spec.memory ? ' · memory' : ''}${leg.spec.profile ? ' · CPU profile' : ''}`;
}

function describeBurst(spec: BurstSpec): string {
	const workers = spec.mode === 'queue' ? ` × ${spec.workers} workers at concurrency ${spec.workerConcurrency ?? 'default'}` : '';
	const limit = spec.perSecond === undefined ? 'no limit' : `${spec.perSecond}/s ${spec.shape ?? 'fixedWindow'}${spec.bucket ? ` of ${spec.bucket}` : ''}`;
	return `burst ${spec.mode}${workers}: ${spec.events} webhook executions · ${limit}, latency ${spec.latencyMs} ms`;
}

async function runBursts(specs: BurstSpec[], facts: Facts): Promise<BurstResult[]> {
	const results: BurstResult[] = [];
	for (const spec of specs) {
		const started = Date.now();
		facts.loadDuring?.push(loadavg()[0]);
		console.log(`\n[${describeBurst(spec)}] real n8n ${N8N_VERSION}, this node and the HTTP Request node in turn`);
		const child = forkTs('burst.ts', QUICK ? { ...spec, events: Math.round(spec.events / 5) } : spec);
		try {
			const { results: mine } = await nextMessage(child, 'burst', LEG_TIMEOUT_MS);
			for (const result of mine) console.log(`  ${burstLine(result)}`);
			results.push(...mine);
		} catch (error) {
			const problem = error instanceof Error ? error.message : String(error);
			console.log(`  PROBLEM: ${problem.split('\n').slice(0, 3).join(' ')}`);
			results.push(failedBurst(spec, problem));
		}
		console.log(`  (${Math.round((Date.now() - started) / 1000)} s)`);
	}
	return results;
}

/** Share of all cores' time spent busy over `ms` ms, from the kernel's counters (other processes included). */
async function busyShare(ms: number): Promise<number> {
	const total = () =>
		cpus().reduce(
			(sum, cpu) => {
				const { user, nice, sys, irq, idle } = cpu.times;
				return { busy: sum.busy + user + nice + sys + irq, all: sum.all + user + nice + sys + irq + idle };
			},
			{ busy: 0, all: 0 },
		);
	const before = total();
	await new Promise((resolve) => setTimeout(resolve, ms));
	const after = total();
	return after.all > before.all ? (after.busy - before.busy) / (after.all - before.all) : 0;
}

function git(args: string[]): string {
	try {
		return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
	} catch {
		return 'unknown';
	}
}

function versionOf(packageJson: string): string {
	return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

async function runPrepare(): Promise<PrepareResult[]> {
	const child = forkTs('prepare.ts', { quick: QUICK });
	const { results } = await nextMessage(child, 'prepare', LEG_TIMEOUT_MS);
	return results;
}

/**
 * The part of BENCHMARKS.md from KEPT_MARKER on is measured by other scripts (the Send and Wait
 * figures come from a queue-mode check of real n8n): a rewrite keeps it as it is.
 */
const KEPT_MARKER = '<!-- Measured by other scripts: npm run bench keeps everything from here on. -->';

/** The full run's raw results, kept beside BENCHMARKS.md so every figure in it traces to a run. */
const RAW_FILE = join(REPO_ROOT, 'BENCHMARKS.json');

interface Saved {
	measured: ReturnType<typeof measuredNow>;
	facts: Facts;
	prepare: PrepareResult[];
	results: Measured[];
	bursts?: BurstResult[];
}

/** BENCHMARKS.md: the report, the line naming the code it measured, then the kept part; and its charts. */
function writeBenchmarks(markdown: string, saved: Saved): void {
	const { measured } = saved;
	rmSync(join(REPO_ROOT, 'docs', 'images', 'bench'), { recursive: true, force: true });
	mkdirSync(join(REPO_ROOT, 'docs', 'images', 'bench'), { recursive: true });
	for (const chart of chartsOf(saved.results, saved.bursts ?? [], saved.facts)) writeFileSync(join(REPO_ROOT, chart.file), chart.svg);
	const file = join(REPO_ROOT, 'BENCHMARKS.md');
	const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
	const kept = old.includes(KEPT_MARKER) ? old.slice(old.indexOf(KEPT_MARKER)) : '';
	const stamped = markdown.replace(/^# Benchmarks\n/, `# Benchmarks\n\n${measuredLine(measured, 'BENCHMARKS.json')}\n`);
	writeFileSync(file, kept === '' ? stamped : `${stamped.trimEnd()}\n\n${kept}`);
}

function render(): void {
	const saved = JSON.parse(readFileSync(RAW_FILE, 'utf8')) as Saved;
	const { console: table, markdown } = renderReport(saved.facts, saved.prepare, saved.results, saved.bursts ?? []);
	console.log(table);
	writeBenchmarks(markdown, saved);
	console.log(`Rewrote BENCHMARKS.md from BENCHMARKS.json (measured ${saved.facts.date}).`);
}

async function main(): Promise<void> {
	if (RENDER) return render();
	const started = Date.now();
	const measured = measuredNow();
	const n8nFolder = useTempN8nFolder();
	await ensureN8n((line) => console.log(line));

	const adaptive = adaptivePacing();
	const legs = plan().filter((leg) => !ONLY || ONLY.some((text) => describe(leg).includes(text)));
	const bursts = BURSTS.filter((spec) => !ONLY || ONLY.some((text) => describeBurst(spec).includes(text)));
	const facts: Facts = {
		date: new Date().toISOString(),
		cpuModel: cpus()[0]?.model ?? 'unknown',
		cores: cpus().length,
		memoryGb: Math.round(totalmem() / 1024 ** 3),
		node: process.version,
		kernel: release(),
		loadBefore: loadavg(),
		busyBefore: await busyShare(3000),
		loadAfter: [],
		loadDuring: [],
		commit: `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain']) === '' ? '' : ' (with uncommitted changes)'}`,
		packageVersion: versionOf(join(REPO_ROOT, 'package.json')),
		n8n: N8N_VERSION,
		n8nCore: versionOf(join(REPO_ROOT, 'node_modules', 'n8n-core', 'package.json')),
		n8nWorkflow: versionOf(join(REPO_ROOT, 'node_modules', 'n8n-workflow', 'package.json')),
		n8nNodesBase: versionOf(join(N8N_NODE_MODULES, 'n8n-nodes-base', 'package.json')),
		httpRequestVersion: HTTP_REQUEST_VERSION,
		adaptive,
		rateLimitPerSecond: RATE_LIMIT_PER_SECOND,
		reps: REPS,
		seconds: 0,
	};
	console.log(
		`Bench on ${facts.cpuModel} (${facts.cores} cores), Node ${facts.node}, load ${facts.loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
	);
	if (facts.busyBefore > 0.2) {
		console.log(
			`Warning: the machine is already ${Math.round(facts.busyBefore * 100)} % busy before the bench starts: figures will be low and noisy.`,
		);
	}

	console.log('\n[prepare] validating and building each request kind (no sending)…');
	const prepare = ONLY && !ONLY.includes('prepare') ? [] : await runPrepare();
	for (const result of prepare) {
		console.log(`  ${result.operation} (${result.mode}): ${result.wall.prepareUs.toFixed(1)} µs/item`);
	}

	const results: Measured[] = [];
	for (const service of SERVICES) {
		const { latencyMs } = service;
		const mine = legs.filter((leg) => leg.service === service);
		if (mine.length === 0) continue;
		const sandbox = forkTs('sandboxProcess.ts', service);
		const { url } = await nextMessage(sandbox, 'ready', 60_000);
		console.log(`\n[${serviceName(service)}] sandbox at ${url} (own process), ${mine.length} legs`);
		for (const [index, leg] of mine.entries()) {
			const legStarted = Date.now();
			facts.loadDuring?.push(loadavg()[0]);
			const input: LegInput = { spec: { ...leg.spec, url }, runs: leg.runs };
			const child = forkTs('leg.ts', input, leg.spec.memory ? ['--expose-gc'] : []);
			let legResults: LegResult[];
			try {
				legResults = (await nextMessage(child, 'leg', LEG_TIMEOUT_MS)).results;
			} catch (error) {
				const problem = error instanceof Error ? error.message : String(error);
				legResults = leg.runs.map((run) => ({ spec: { ...input.spec, ...run }, reps: [], problem }));
			}
			const lines: string[] = [];
			for (const result of legResults) {
				results.push({ latencyMs, ...(service.rateLimit ? { rateLimit: service.rateLimit } : {}), result });
				const rates = result.reps.map((rep) => Math.round(rep.itemsPerSecond));
				const timeline = result.reps[0]?.timeline;
				const memory = result.memory
					? ` · RSS ${result.memory.baselineMb} → ${result.memory.peakMb} MB (+${result.memory.growthMb})`
					: '';
				const seconds = result.reps.map((rep) => (rep.ms / 1000).toFixed(2)).join(', ');
				const pacing = result.reps.length
					? ` · ${seconds} s · 429s ${result.reps.map((rep) => rep.rateLimited).join(', ')} · max in flight ${Math.max(...result.reps.map((rep) => rep.maxInFlight))}` +
						(result.reps.some((rep) => rep.failedItems > 0)
							? ` · failed items ${result.reps.map((rep) => rep.failedItems).join(', ')}, delivered ${result.reps.map((rep) => rep.delivered).join(', ')}`
							: '')
					: '';
				lines.push(
					`${result.spec.items.toLocaleString('en-US')} items: ` +
						(rates.length ? `${Math.round(median(rates))} items/s (${rates.join(', ')})` : 'no result') +
						`${pacing}${memory}${timeline ? ` · delivered/429 per second: ${timelineText(timeline)}` : ''}${result.problem ? ` · PROBLEM: ${result.problem.split('\n')[0]}` : ''}`,
				);
			}
			console.log(
				`  [${index + 1}/${mine.length}] ${describe(leg)} · ${lines.join(' · ')} · ${Math.round((Date.now() - legStarted) / 1000)} s`,
			);
		}
		sandbox.disconnect();
	}

	const burstResults = await runBursts(bursts, facts);

	rmSync(n8nFolder, { recursive: true, force: true });
	facts.loadAfter = loadavg();
	facts.seconds = Math.round((Date.now() - started) / 1000);
	// The raw figures first, so a report that fails to render loses nothing (see --render).
	mkdirSync(CACHE_DIR, { recursive: true });
	const name = ONLY ? 'only' : QUICK ? 'quick' : 'results';
	writeFileSync(join(CACHE_DIR, `${name}.json`), `${JSON.stringify({ facts, prepare, results, bursts: burstResults }, null, 2)}\n`);
	const { console: table, markdown } = renderReport(facts, prepare, results, burstResults);
	console.log(`\n${table}`);
	if (ONLY) {
		writeFileSync(join(CACHE_DIR, 'BENCHMARKS.only.md'), markdown);
		console.log(`Partial run (--only): wrote .cache/bench/only.json and BENCHMARKS.only.md (${facts.seconds} s in all).`);
	} else if (QUICK) {
		writeFileSync(join(CACHE_DIR, 'BENCHMARKS.quick.md'), markdown);
		console.log(`Quick run: wrote .cache/bench/quick.json and BENCHMARKS.quick.md (${facts.seconds} s in all).`);
	} else {
		const saved: Saved = { measured, facts, prepare, results, bursts: burstResults };
		writeFileSync(RAW_FILE, `${JSON.stringify(saved, null, 1)}\n`);
		writeBenchmarks(markdown, saved);
		console.log(`Wrote BENCHMARKS.md and BENCHMARKS.json (${facts.seconds} s in all).`);
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
