/**
 * `npm run bench` — how fast and how heavy the node is, measured on this machine against the
 * local sandbox, and compared with n8n's own HTTP Request node and a raw keep-alive client.
 *
 * Not part of the tests. Every client configuration runs in a fresh child process (its
 * 1,000-item runs, then its 10,000-item runs), every memory and profile run in one of its own,
 * the sandbox in another (so client and service do not share an event loop); this process only
 * plans, collects and reports. Prints the tables and writes BENCHMARKS.md (and the raw figures
 * to .cache/bench/results.json). `--quick` does a small smoke run that writes only .cache/bench/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { ensureN8n } from '../n8n/lib/install';
import type { LegInput, LegKind, LegResult, PrepareResult } from './common';
import {
	HTTP_BATCH,
	HTTP_REQUEST_VERSION,
	N8N_NODE_MODULES,
	REPO_ROOT,
	forkTs,
	median,
	nextMessage,
	useTempN8nFolder,
} from './common';
import type { Facts, Measured } from './report';
import { renderReport } from './report';

const LATENCIES = [0, 100] as const;
const CONCURRENCIES = [1, 5, 10, 20];
const SANDBOX_ALONE = [50, 200];
/** `--quick`: a smoke run (a tenth of the items, one run each) that writes only .cache/bench/. */
const QUICK = process.argv.includes('--quick');
/** `--render`: no measuring; rewrites BENCHMARKS.md from the last full run's .cache/bench/results.json. */
const RENDER = process.argv.includes('--render');
const CACHE_DIR = join(REPO_ROOT, '.cache', 'bench');
const REPS = QUICK ? 1 : 3;
const SCALE = QUICK ? 0.1 : 1;
const LEG_TIMEOUT_MS = 15 * 60_000;

/** One leg process: a client configuration measured at one or more item counts. */
interface Plan {
	latencyMs: number;
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
}

function defaultConcurrency(): number {
	const options = join(REPO_ROOT, 'dist', 'nodes', 'MultiChannelNotification', 'actions', 'shared', 'options.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { DEFAULT_CONCURRENCY } = require(options) as { DEFAULT_CONCURRENCY: number };
	return DEFAULT_CONCURRENCY;
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

function plan(nodeDefault: number): Plan[] {
	const legs: Plan[] = [];
	const add = (latencyMs: number, kind: LegKind, counts: number[], concurrency?: number, options: PlanOptions = {}) =>
		legs.push({
			latencyMs,
			runs: counts.map((count) => ({
				items: Math.max(20, Math.round(count * SCALE)),
				reps: count >= 10000 && options.reps10k !== undefined ? Math.min(REPS, options.reps10k) : (options.reps ?? REPS),
			})),
			spec: {
				kind,
				warmup: options.warmup ?? warmupFor(kind, concurrency, latencyMs),
				...(concurrency === undefined ? {} : { concurrency }),
				...(options.memory ? { memory: true } : {}),
				...(options.profile ? { profile: true } : {}),
			},
		});
	const concurrencies = [...new Set([...CONCURRENCIES, nodeDefault])].sort((a, b) => a - b);
	// The default runs with the option unset, as a new node has it.
	const optionFor = (c: number) => (c === nodeDefault ? undefined : c);
	const memory: PlanOptions = { memory: true, reps: 1, warmup: 20 };

	// Sandbox answering at once: every client at 1,000 and 10,000 items. To stay within about
	// 15 minutes, 10,000-item runs are repeated only for the legs the targets compare (the
	// node at its default and at 20, the HTTP Request node at its defaults, the raw clients).
	const both = [1000, 10000];
	const once: PlanOptions = { reps10k: 1 };
	for (const c of concurrencies) add(0, 'node', both, optionFor(c), c === nodeDefault || c === 20 ? {} : once);
	for (const c of concurrencies) add(0, 'raw', both, c);
	add(0, 'rawNoKeepAlive', both, 20, once);
	add(0, 'n8nHelper', both, 20, once);
	add(0, 'httpNode', both);
	// Batching paces by the clock (batchSize items every batchInterval ms) whatever the latency:
	// 10,000 items would take 50 s a run, so it runs at 1,000 items only.
	add(0, 'httpNodeBatching', [1000]);
	for (const c of SANDBOX_ALONE) add(0, 'raw', [10000], c);
	add(0, 'node', [10000], undefined, memory);
	add(0, 'httpNode', [10000], undefined, memory);
	add(0, 'raw', [10000], nodeDefault, memory);
	// Where the CPU time goes: one profiled run each (the profiler slows it; only the shares count).
	const profile: PlanOptions = { profile: true, reps: 1 };
	add(0, 'node', [2000], 20, profile);
	add(0, 'n8nHelper', [2000], 20, profile);
	add(0, 'httpNode', [2000], undefined, profile);

	// Sandbox holding each answer 100 ms: item counts sized to the concurrency.
	for (const c of concurrencies) add(100, 'node', [itemsAt100ms(c)], optionFor(c));
	for (const c of concurrencies) add(100, 'raw', [itemsAt100ms(c)], c);
	add(100, 'rawNoKeepAlive', [itemsAt100ms(20)], 20);
	add(100, 'n8nHelper', [itemsAt100ms(20)], 20);
	add(100, 'httpNode', [...new Set(concurrencies.map(itemsAt100ms))]);
	add(100, 'httpNodeBatching', [1000]);
	for (const c of SANDBOX_ALONE) add(100, 'raw', [1000], c);
	// At its defaults the HTTP Request node opens one connection per item, all at once.
	add(100, 'httpNode', [10000], undefined, memory);
	return legs;
}

function describe(leg: Plan, nodeDefault: number): string {
	const c = leg.spec.concurrency ?? (leg.spec.kind === 'node' ? nodeDefault : undefined);
	const name = {
		node: `node c${c}`,
		httpNode: 'HTTP Request (defaults)',
		httpNodeBatching: `HTTP Request (batching ${HTTP_BATCH.batchSize}/${HTTP_BATCH.batchInterval} ms)`,
		n8nHelper: `n8n request helper only c${c}`,
		raw: `raw keep-alive c${c}`,
		rawNoKeepAlive: `raw, new connection each c${c}`,
	}[leg.spec.kind];
	return `${name} · ${leg.latencyMs} ms${leg.spec.memory ? ' · memory' : ''}${leg.spec.profile ? ' · CPU profile' : ''}`;
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

function render(): void {
	const saved = JSON.parse(readFileSync(join(CACHE_DIR, 'results.json'), 'utf8')) as {
		facts: Facts;
		prepare: PrepareResult[];
		results: Measured[];
	};
	const { console: table, markdown } = renderReport(saved.facts, saved.prepare, saved.results);
	console.log(table);
	writeFileSync(join(REPO_ROOT, 'BENCHMARKS.md'), markdown);
	console.log(`Rewrote BENCHMARKS.md from .cache/bench/results.json (measured ${saved.facts.date}).`);
}

async function main(): Promise<void> {
	if (RENDER) return render();
	const started = Date.now();
	const n8nFolder = useTempN8nFolder();
	await ensureN8n((line) => console.log(line));

	const nodeDefault = defaultConcurrency();
	const legs = plan(nodeDefault);
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
		commit: `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain']) === '' ? '' : ' (with uncommitted changes)'}`,
		packageVersion: versionOf(join(REPO_ROOT, 'package.json')),
		n8nCore: versionOf(join(REPO_ROOT, 'node_modules', 'n8n-core', 'package.json')),
		n8nWorkflow: versionOf(join(REPO_ROOT, 'node_modules', 'n8n-workflow', 'package.json')),
		n8nNodesBase: versionOf(join(N8N_NODE_MODULES, 'n8n-nodes-base', 'package.json')),
		httpRequestVersion: HTTP_REQUEST_VERSION,
		nodeDefaultConcurrency: nodeDefault,
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
	const prepare = await runPrepare();
	for (const result of prepare) {
		console.log(`  ${result.operation} (${result.mode}): ${result.wall.prepareUs.toFixed(1)} µs/item`);
	}

	const results: Measured[] = [];
	for (const latencyMs of LATENCIES) {
		const sandbox = forkTs('sandboxProcess.ts', { latencyMs });
		const { url } = await nextMessage(sandbox, 'ready', 60_000);
		const mine = legs.filter((leg) => leg.latencyMs === latencyMs);
		console.log(`\n[latency ${latencyMs} ms] sandbox at ${url} (own process), ${mine.length} legs`);
		for (const [index, leg] of mine.entries()) {
			const legStarted = Date.now();
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
				results.push({ latencyMs, result });
				const rates = result.reps.map((rep) => Math.round(rep.itemsPerSecond));
				const memory = result.memory
					? ` · RSS ${result.memory.baselineMb} → ${result.memory.peakMb} MB (+${result.memory.growthMb})`
					: '';
				lines.push(
					`${result.spec.items.toLocaleString('en-US')} items: ` +
						(rates.length ? `${Math.round(median(rates))} items/s (${rates.join(', ')})` : 'no result') +
						`${memory}${result.problem ? ` · PROBLEM: ${result.problem.split('\n')[0]}` : ''}`,
				);
			}
			console.log(
				`  [${index + 1}/${mine.length}] ${describe(leg, nodeDefault)} · ${lines.join(' · ')} · ${Math.round((Date.now() - legStarted) / 1000)} s`,
			);
		}
		sandbox.disconnect();
	}

	rmSync(n8nFolder, { recursive: true, force: true });
	facts.loadAfter = loadavg();
	facts.seconds = Math.round((Date.now() - started) / 1000);
	const { console: table, markdown } = renderReport(facts, prepare, results);
	console.log(`\n${table}`);
	mkdirSync(CACHE_DIR, { recursive: true });
	const name = QUICK ? 'quick' : 'results';
	writeFileSync(join(CACHE_DIR, `${name}.json`), `${JSON.stringify({ facts, prepare, results }, null, 2)}\n`);
	if (QUICK) {
		writeFileSync(join(CACHE_DIR, 'BENCHMARKS.quick.md'), markdown);
		console.log(`Quick run: wrote .cache/bench/quick.json and BENCHMARKS.quick.md (${facts.seconds} s in all).`);
	} else {
		writeFileSync(join(REPO_ROOT, 'BENCHMARKS.md'), markdown);
		console.log(`Wrote BENCHMARKS.md and .cache/bench/results.json (${facts.seconds} s in all).`);
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
