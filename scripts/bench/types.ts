/**
 * The shape of the bench's raw results (BENCHMARKS.json, .cache/bench/*.json): what each leg was
 * and what it measured. report.ts and reportLimits.ts read them (through common.ts).
 */
import type { LimiterShape, RetryAfterStyle } from '../../sandbox/rateLimit';

export type { LimiterShape, RetryAfterStyle };

/**
 * node: our node in n8n's engine; httpNode / httpNodeBatching: n8n's HTTP Request node at its
 * defaults / with its batching option; n8nHelper: a bare node that only sends ready-made bodies
 * through n8n-core's httpRequestWithAuthentication, as our transport does (no expressions, no
 * validation: the ceiling for any node built on n8n's helpers); raw: node:https with a keep-alive
 * agent (the ceiling); rawNoKeepAlive: the same loop with a new agent per request, as n8n-core's
 * request helper does. The last three are diagnostics that split the gap between node and raw.
 */
export type LegKind = 'node' | 'httpNode' | 'httpNodeBatching' | 'n8nHelper' | 'raw' | 'rawNoKeepAlive';

/** The sandbox a leg runs against: its latency and, for the rate-limited legs, its limit. */
export interface ServiceSpec {
	latencyMs: number;
	rateLimit?: { perSecond: number; shape: LimiterShape; retryAfter: RetryAfterStyle };
}

/**
 * A burst leg (burst.ts): real n8n with the packed package installed as a community package, an
 * active workflow Webhook → the client measured, `events` POSTs to its production webhook at once
 * (one item each), against a sandbox admitting `perSecond` a second (fixed window).
 */
export interface BurstSpec {
	mode: 'regular' | 'queue';
	events: number;
	/** The service's limit, requests a second; undefined: no limit (what n8n alone costs). */
	perSecond?: number;
	/** How the sandbox keeps the limit (default a fixed window); `bucket`: a token bucket's size. */
	shape?: LimiterShape;
	bucket?: number;
	latencyMs: number;
	retryAfter: RetryAfterStyle;
	/** Queue mode: how many workers, and each one's --concurrency (undefined: n8n's default, no flag). */
	workers?: number;
	workerConcurrency?: number;
}

/** Requests the sandbox answered in one second of a run (seconds counted from its first request). */
export interface SecondCount {
	second: number;
	delivered: number;
	refused: number;
}

export interface BurstResult {
	spec: BurstSpec;
	/** nodePinned: this node with Concurrency 1 (diagnostic: no shared window; the rate and pauses still shared). */
	client: 'node' | 'nodePinned' | 'httpNode';
	/** The webhook calls' HTTP statuses (responseMode lastNode: 200 once the execution succeeded). */
	webhookStatuses: Record<string, number>;
	requests: number;
	delivered: number;
	/** Delivered messages whose body had been delivered before. */
	twice: number;
	rateLimited: number;
	/** From the first delivered request's arrival to the last one's. */
	firstToLastMs: number;
	/** From the first webhook POST to the last delivery's arrival. */
	startToLastMs: number;
	/** From the first webhook POST until every webhook call was answered. */
	allAnsweredMs: number;
	timeline: SecondCount[];
	/** Queue mode: each n8n process's own timeline (which sent a request: see messageExpression). */
	senders?: Record<string, SecondCount[]>;
	/** Load average (1 min) just before the burst. */
	load: number;
	problem?: string;
}

/** One measured configuration: a client, a concurrency and an item count. */
export interface LegSpec {
	kind: LegKind;
	/** Our node's Concurrency option (undefined: its default), or the other clients' concurrency. */
	concurrency?: number;
	items: number;
	reps: number;
	/** Items of the untimed warm-up run (0 for none). */
	warmup: number;
	url: string;
	/** Memory leg: one run in a fresh process, RSS sampled every 20 ms from before it starts. */
	memory?: boolean;
	/** Profile leg: one run with V8's CPU profiler on, reported as shares of CPU time by component. */
	profile?: boolean;
	/** The sandbox rate limits (429 beyond N a second): every item must still be delivered once. */
	rateLimited?: boolean;
	/**
	 * A client that is expected to lose items against a rate limit (the HTTP Request node at its
	 * defaults): its failures are measured, not reported as a bench problem.
	 */
	mayFail?: boolean;
}

/** What a leg process is given: one client configuration, measured at each item count in turn. */
export interface LegInput {
	spec: Omit<LegSpec, 'items' | 'reps'>;
	runs: Array<{ items: number; reps: number }>;
}

export interface RepResult {
	/**
	 * The time measured: for a node in n8n's engine its own `executionTime` from the run data (what
	 * n8n shows for the node), for a raw client the wall-clock time of its loop.
	 */
	ms: number;
	/** Wall-clock time of the whole run (for an engine leg: the workflow, source node included). */
	wallMs: number;
	itemsPerSecond: number;
	/** What the sandbox saw during the rep. */
	received: number;
	delivered: number;
	duplicates: number;
	maxInFlight: number;
	peakRssMb: number;
	/** Requests the sandbox's rate limit refused with 429. */
	rateLimited: number;
	/** Output items that are not a success, or all items when the run failed (mayFail legs). */
	failedItems: number;
	/** The run's error, when it failed (mayFail legs). */
	runError?: string;
	/** Rate-limited legs: what the sandbox delivered and refused in each second of the run. */
	timeline?: SecondCount[];
}

export interface MemoryResult {
	/** RSS just before the run (after a full garbage collection). */
	baselineMb: number;
	peakMb: number;
	growthMb: number;
	/** RSS when the run had finished. */
	endMb: number;
	/** The kernel's peak RSS for the run (VmHWM, reset just before it), when Linux offers it. */
	kernelPeakMb?: number;
	/** Most V8 heap in use (live and not yet collected) during the run. */
	peakHeapMb: number;
	/** V8 heap in use after a full garbage collection once the run is over, its result still held, minus the same before. */
	retainedHeapMb: number;
	samples: number;
}

export interface ProfileShare {
	component: string;
	/** Share of the sampled CPU time of the run (idle time excluded), in percent. */
	percent: number;
}

export interface LegResult {
	spec: LegSpec;
	reps: RepResult[];
	memory?: MemoryResult;
	profile?: ProfileShare[];
	/** Set when a rep failed or the sandbox saw something other than one delivery per item. */
	problem?: string;
}

export interface PrepareCost {
	/** Median over the reps of µs per item for the whole `prepare` (read + build + validate). */
	prepareUs: number;
	/** Median µs per item for only the getNodeParameter calls `prepare` makes (same parameters). */
	readUs: number;
	/** prepareUs − readUs: what the node itself spends building and validating. */
	buildValidateUs: number;
	/** µs per item of `prepare` in each timed rep. */
	reps: number[];
}

export interface PrepareResult {
	operation: string;
	mode: 'literal' | 'expressions';
	items: number;
	/** Elapsed (wall-clock) time. */
	wall: PrepareCost;
	/** CPU time of the process (user + system): what other load on the machine inflates least. */
	cpu: PrepareCost;
}
