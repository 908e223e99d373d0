/**
 * Shared pieces of `npm run bench`: what each measured leg is, the items and parameters every
 * leg sends (the same SMS bodies for our node, n8n's HTTP Request node and the raw client), the
 * child-process plumbing, and small statistics helpers.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { LimiterShape, RetryAfterStyle } from '../../sandbox/rateLimit';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const N8N_NODE_MODULES = join(REPO_ROOT, '.cache', 'n8n-2.8.4', 'node_modules');
export const HTTP_REQUEST_NODE_PATH = join(
	N8N_NODE_MODULES,
	'n8n-nodes-base',
	'dist',
	'nodes',
	'HttpRequest',
	'HttpRequest.node.js',
);
/** The version n8n 2.8.4 puts on a new HTTP Request node. */
export const HTTP_REQUEST_VERSION = 4.4;
export const API_KEY = 'bench-api-key';
export const SMS_PATH = '/v1/sms/notification';

/**
 * node: our node in n8n's engine; httpNode / httpNodeBatching: n8n's HTTP Request node at its
 * defaults / with its batching option; n8nHelper: a bare node that only sends ready-made bodies
 * through n8n-core's httpRequestWithAuthentication, as our transport does (no expressions, no
 * validation: the ceiling for any node built on n8n's helpers); raw: node:https with a keep-alive
 * agent (the ceiling); rawNoKeepAlive: the same loop with a new agent per request, as n8n-core's
 * request helper does. The last three are diagnostics that split the gap between node and raw.
 */
export type LegKind = 'node' | 'httpNode' | 'httpNodeBatching' | 'n8nHelper' | 'raw' | 'rawNoKeepAlive';

/** N of the bulk rate-limited legs: the sandbox admits this many requests a second (in each limiter shape). */
export const RATE_LIMIT_PER_SECOND = 100;

export type { LimiterShape, RetryAfterStyle } from '../../sandbox/rateLimit';

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

/** HTTP Request node batching used by the `httpNodeBatching` leg. */
export const HTTP_BATCH = { batchSize: 20, batchInterval: 100 };

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

/**
 * Points N8N_USER_FOLDER (inherited by every child) at a fresh throw-away folder: n8n-core writes an
 * instance key there when first loaded. Returns the folder, for removal at the end.
 */
export function useTempN8nFolder(): string {
	const folder = mkdtempSync(join(tmpdir(), 'mcn-bench-'));
	process.env.N8N_USER_FOLDER = folder;
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
	return folder;
}

export function phoneOf(index: number): string {
	return `+62812${String(index).padStart(7, '0')}`;
}

export function messageOf(index: number): string {
	return `Kode verifikasi Anda: ${String(100000 + index)}. Jangan berikan kode ini kepada siapa pun.`;
}

/** Input items of every engine leg: unique bodies, so the sandbox can spot a double send. */
export function inputItems(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({ phone: phoneOf(index), code: String(100000 + index) }));
}

/**
 * Where the item's fields are: `$json` for the engine legs' items, `$json.body` for a webhook
 * call's JSON body (burst legs).
 */
export type ItemFields = '$json' | '$json.body';

/**
 * The SMS text. A webhook call's message (burst legs) ends with the n8n process that sent it, from
 * that process's MCN_BENCH_SENDER (burst.ts sets it per main and worker), so the sandbox can count
 * each worker's requests.
 */
const messageExpression = (from: ItemFields) =>
	`=Kode verifikasi Anda: {{ ${from}.code }}. Jangan berikan kode ini kepada siapa pun.${from === '$json.body' ? ' [{{ $env.MCN_BENCH_SENDER }}]' : ''}`;

/** The sending n8n process named at the end of a burst message, if any. */
export function senderOf(rawBody: string): string | undefined {
	return /\[([\w -]+)\]"/.exec(rawBody)?.[1];
}

/** Our node: SMS → Send SMS, fields from the item by expression, the Options given. */
export function nodeParameters(concurrency: number | undefined, from: ItemFields = '$json'): INodeParameters {
	return {
		resource: 'sms',
		operation: 'send',
		phoneNumber: `={{ ${from}.phone }}`,
		message: messageExpression(from),
		options: concurrency === undefined ? {} : { concurrency },
	};
}

/** n8n's HTTP Request node sending the same body: POST JSON, Authorization from a Header Auth credential. */
export function httpNodeParameters(url: string, batching: boolean, from: ItemFields = '$json'): INodeParameters {
	return {
		method: 'POST',
		url: `${url}${SMS_PATH}`,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		sendBody: true,
		contentType: 'json',
		specifyBody: 'keypair',
		bodyParameters: {
			parameters: [
				{ name: 'phone_number', value: `={{ ${from}.phone }}` },
				{ name: 'message', value: messageExpression(from) },
			],
		},
		options: batching ? { batching: { batch: { ...HTTP_BATCH } } } : {},
	};
}

/** What the sandbox delivered and refused (429) in each second from the first request on. */
export function timelineOf(requests: Array<{ receivedAt: number; delivered: boolean; rateLimited?: boolean }>): SecondCount[] {
	if (requests.length === 0) return [];
	const start = Math.min(...requests.map((request) => request.receivedAt));
	const seconds: SecondCount[] = [];
	for (const request of requests) {
		const second = Math.floor((request.receivedAt - start) / 1000);
		for (let index = seconds.length; index <= second; index++) seconds.push({ second: index, delivered: 0, refused: 0 });
		if (request.delivered) seconds[second].delivered++;
		if (request.rateLimited) seconds[second].refused++;
	}
	return seconds;
}

/** A timeline as one line: `delivered/refused` per second. */
export function timelineText(timeline: SecondCount[]): string {
	return timeline.map((entry) => `${entry.delivered}/${entry.refused}`).join(' ');
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function mb(bytes: number): number {
	return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

/**
 * Samples process RSS (and, with `heap`, V8's heap in use) every `everyMs` ms until stopped; the
 * peaks include a last sample.
 */
export function rssSampler(
	everyMs = 20,
	heap = false,
): { stop(): { peak: number; peakHeap: number; samples: number } } {
	let peak = 0;
	let peakHeap = 0;
	let samples = 0;
	const sample = () => {
		if (heap) {
			const usage = process.memoryUsage();
			peak = Math.max(peak, usage.rss);
			peakHeap = Math.max(peakHeap, usage.heapUsed);
		} else {
			peak = Math.max(peak, process.memoryUsage.rss());
		}
		samples++;
	};
	sample();
	const timer = setInterval(sample, everyMs);
	return {
		stop() {
			clearInterval(timer);
			sample();
			return { peak, peakHeap, samples };
		},
	};
}

/** Message types between the orchestrator and its children. */
export type ChildMessage =
	| { type: 'ready'; url: string }
	| { type: 'leg'; results: LegResult[] }
	| { type: 'prepare'; results: PrepareResult[] }
	| { type: 'burst'; results: BurstResult[] }
	| { type: 'error'; message: string };

/** Starts a TypeScript child under tsx with an IPC channel; `input` is handed over as its first message. */
export function forkTs(script: string, input?: unknown, nodeOptions: string[] = []): ChildProcess {
	const child = fork(join(__dirname, script), [], {
		cwd: REPO_ROOT,
		execArgv: [...nodeOptions, '--import', 'tsx'],
		env: { ...process.env },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	if (input !== undefined) child.send(input as object);
	return child;
}

/** Waits for the first message of a given type; fails if the child exits or reports an error first. */
export function nextMessage<T extends ChildMessage['type']>(
	child: ChildProcess,
	type: T,
	timeoutMs: number,
): Promise<Extract<ChildMessage, { type: T }>> {
	return new Promise((resolvePromise, reject) => {
		const timer = setTimeout(() => {
			cleanup();
			child.kill('SIGKILL');
			reject(new Error(`child did not report "${type}" within ${Math.round(timeoutMs / 1000)} s`));
		}, timeoutMs);
		const onMessage = (message: ChildMessage) => {
			if (message.type === 'error') {
				cleanup();
				reject(new Error(message.message));
			} else if (message.type === type) {
				cleanup();
				resolvePromise(message as Extract<ChildMessage, { type: T }>);
			}
		};
		const onExit = (code: number | null, signal: string | null) => {
			cleanup();
			reject(new Error(`child exited (${signal ?? code}) before reporting "${type}"`));
		};
		const cleanup = () => {
			clearTimeout(timer);
			child.off('message', onMessage);
			child.off('exit', onExit);
		};
		child.on('message', onMessage);
		child.on('exit', onExit);
	});
}

/** Sends a message to the parent (children only). */
export function report(message: ChildMessage): Promise<void> {
	return new Promise((resolvePromise) => {
		if (!process.send) throw new Error('not started as a child process');
		process.send(message, () => resolvePromise());
	});
}

/** Reads the first message the parent sends (children only). */
export function receiveInput<T>(): Promise<T> {
	return new Promise((resolvePromise) => {
		process.once('message', (message: unknown) => resolvePromise(message as T));
	});
}
