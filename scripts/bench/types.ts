/**
 * The shape of the bench's raw results (.cache/bench/*.json; BENCHMARKS.json is their summary, summary.ts): what each leg was
 * and what it measured. What a run or a memory run gives is typed where it is measured (leg.ts),
 * the machine's facts in facts.ts.
 */
import type { LimiterShape, RetryAfterStyle } from '../../sandbox/rateLimit';
import type { MemoryResult, RepResult } from './leg';

export type { LimiterShape, RetryAfterStyle };

/** node: our node in n8n's engine; httpNode: n8n's HTTP Request node; raw: node:https with a keep-alive agent (the ceiling). */
export type LegKind = 'node' | 'httpNode' | 'raw';

/** The sandbox a leg runs against: its latency and, for the rate-limited legs, its limit. */
export interface ServiceSpec {
	latencyMs: number;
	rateLimit?: { perSecond: number; shape: LimiterShape; retryAfter: RetryAfterStyle };
}

/** A burst leg (burst.ts): `events` one-item webhook executions at once through real n8n. */
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
	/** Only this node at its defaults (the HTTP Request node's run left out). */
	nodeOnly?: boolean;
}

/** Requests the sandbox answered in one second of a run (seconds counted from its first request). */
export interface SecondCount {
	second: number;
	delivered: number;
	refused: number;
}

export interface BurstResult {
	spec: BurstSpec;
	client: 'node' | 'httpNode';
	/** The webhook calls' HTTP statuses (responseMode lastNode: 200 once the execution succeeded). */
	webhookStatuses: Record<string, number>;
	requests: number;
	delivered: number;
	/** Delivered messages whose body had been delivered before. */
	twice: number;
	rateLimited: number;
	/** From the first delivery to the last; from the first webhook POST to the last delivery, and until every call was answered. */
	firstToLastMs: number;
	startToLastMs: number;
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
	/** The raw client's requests in flight (the two nodes run at their defaults). */
	concurrency?: number;
	items: number;
	reps: number;
	/** Items of the untimed warm-up run (0 for none). */
	warmup: number;
	url: string;
	/** Memory leg: one run in a fresh process, RSS sampled every 20 ms from before it starts. */
	memory?: boolean;
	/** The sandbox rate limits (429 beyond N a second): every item must still be delivered once. */
	rateLimited?: boolean;
	/** A client expected to lose items against a rate limit: its failures are measured, not a bench problem. */
	mayFail?: boolean;
}

/** What a leg process is given: one client configuration, measured at each item count in turn. */
export interface LegInput {
	spec: Omit<LegSpec, 'items' | 'reps'>;
	runs: Array<{ items: number; reps: number }>;
}

export interface LegResult {
	spec: LegSpec;
	reps: RepResult[];
	memory?: MemoryResult;
	/** Set when a rep failed or the sandbox saw something other than one delivery per item. */
	problem?: string;
}

/** A leg's result with its sandbox: `rateLimit` set for the legs against the rate-limited one. */
export interface Measured {
	latencyMs: number;
	rateLimit?: ServiceSpec['rateLimit'];
	result: LegResult;
}

/** The Send Once leg (sendOnce.ts): what Send Once Per Key costs a keyed send with `stored` keys in n8n's store. */
export interface SendOnceSpec {
	/** Keys put in the store first, by one execution of as many keyed SMS (10000: the default Send Once History Size). */
	stored: number;
	/** One-item executions timed on each store. */
	runs: number;
}

export interface SendOnceResult {
	spec: SendOnceSpec;
	/** The node's own executionTime (ms) of each one-item keyed execution: with `stored` keys stored, and with a nearly empty store. */
	atBoundMs: number[];
	nearlyEmptyMs: number[];
	/** The node's executionTime of the execution that filled the store. */
	fillMs: number;
	problem?: string;
}
