/**
 * Shared pieces of `npm run bench`: the items and parameters every leg sends (the same SMS bodies
 * for our node, n8n's HTTP Request node and the raw client), the child-process plumbing, and small
 * statistics helpers. The results' types are in types.ts, re-exported here.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { makeTempDir } from '../n8n/lib/process';
import { REPO_ROOT } from '../release/measured';
import type { BurstResult, LegResult, SecondCount, SendOnceResult } from './types';

export type * from './types';
export { REPO_ROOT };

export const N8N_NODE_MODULES = join(REPO_ROOT, '.cache', 'n8n-2.8.4', 'node_modules');
export const HTTP_REQUEST_NODE_PATH = join(N8N_NODE_MODULES, 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
/** The version n8n 2.8.4 puts on a new HTTP Request node. */
export const HTTP_REQUEST_VERSION = 4.4;
export const API_KEY = 'bench-api-key';
export const SMS_PATH = '/v1/sms/notification';
/** N of the bulk rate-limited legs: the sandbox admits this many requests a second (in each limiter shape). */
export const RATE_LIMIT_PER_SECOND = 100;
/** The burst legs' HTTP Request node: n8n's Retry On Fail at its most, the best a workflow without this node can do. */
export const HTTP_RETRY = { maxTries: 5, waitBetweenTries: 1000 };

/**
 * Points N8N_USER_FOLDER (inherited by every child) at a fresh throw-away folder, removed when this
 * process exits (with installCleanup, also on Ctrl-C): n8n-core writes an instance key there when
 * first loaded.
 */
export function useTempN8nFolder(): void {
	const folder = makeTempDir('bench');
	process.env.N8N_USER_FOLDER = folder;
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
}

/** Input items of every engine leg: unique bodies, so the sandbox can spot a double send. */
export function inputItems(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({ phone: `+62812${String(index).padStart(7, '0')}`, code: String(100000 + index) }));
}

/** The SMS text for a code: what the raw clients send, and (the code by expression) what the nodes send. */
export const smsText = (code: string) => `Kode verifikasi Anda: ${code}. Jangan berikan kode ini kepada siapa pun.`;

/** Where the item's fields are: `$json` for the engine legs' items, `$json.body` for a webhook call's body (burst legs). */
type ItemFields = '$json' | '$json.body';

/**
 * The SMS text. A webhook call's message (burst legs) ends with the n8n process that sent it, from
 * that process's MCN_BENCH_SENDER (burst.ts sets it per main and worker), so the sandbox can count
 * each worker's requests.
 */
const messageExpression = (from: ItemFields) =>
	`=${smsText(`{{ ${from}.code }}`)}${from === '$json.body' ? ' [{{ $env.MCN_BENCH_SENDER }}]' : ''}`;

/** The sending n8n process named at the end of a burst message, if any. */
export const senderOf = (rawBody: string) => /\[([\w -]+)\]"/.exec(rawBody)?.[1];

/** Our node at its defaults (no Options): SMS → Send SMS, fields from the item by expression. */
export function nodeParameters(from: ItemFields = '$json'): INodeParameters {
	return {
		resource: 'sms',
		operation: 'send',
		phoneNumber: `={{ ${from}.phone }}`,
		message: messageExpression(from),
		options: {},
	};
}

/** n8n's HTTP Request node sending the same body: POST JSON, Authorization from a Header Auth credential. */
export function httpNodeParameters(url: string, from: ItemFields = '$json'): INodeParameters {
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
		options: {},
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
export const timelineText = (timeline: SecondCount[]) => timeline.map((entry) => `${entry.delivered}/${entry.refused}`).join(' ');

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Samples process RSS and V8's heap in use every `everyMs` ms until the returned `stop`; the peaks include a last sample. */
export function rssSampler(everyMs: number): () => { peak: number; peakHeap: number; samples: number } {
	const peaks = { peak: 0, peakHeap: 0, samples: 0 };
	const sample = () => {
		const { rss, heapUsed } = process.memoryUsage();
		peaks.peak = Math.max(peaks.peak, rss);
		peaks.peakHeap = Math.max(peaks.peakHeap, heapUsed);
		peaks.samples++;
	};
	sample();
	const timer = setInterval(sample, everyMs);
	return () => {
		clearInterval(timer);
		sample();
		return peaks;
	};
}

/** Message types between the orchestrator and its children. */
type ChildMessage =
	| { type: 'ready'; url: string }
	| { type: 'leg'; results: LegResult[] }
	| { type: 'burst'; results: BurstResult[] }
	| { type: 'sendOnce'; result: SendOnceResult }
	| { type: 'error'; message: string };

/**
 * Starts a TypeScript child under tsx with an IPC channel; `input` is handed over as its first
 * message. What the child prints (n8n's start-up steps, the engine's warnings) is held back, so the
 * bench shows one line a leg, and written out only when the child fails.
 */
export function forkTs(script: string, input: unknown, nodeOptions: string[] = []): ChildProcess {
	const child = fork(join(__dirname, script), [], {
		cwd: REPO_ROOT,
		execArgv: [...nodeOptions, '--import', 'tsx'],
		stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
	});
	let output = '';
	for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
	child.on('close', (code) => {
		if (code !== 0 && output !== '') process.stderr.write(`\n${script} ended ${code ?? 'killed'}; its output:\n${output}\n`);
	});
	child.send(input as object);
	return child;
}

/** Waits for the first message of a given type; fails if the child exits or reports an error first. */
export function nextMessage<T extends ChildMessage['type']>(
	child: ChildProcess,
	type: T,
	timeoutMs: number,
): Promise<Extract<ChildMessage, { type: T }>> {
	return new Promise((resolvePromise, reject) => {
		const settle = (error: Error | undefined, message?: ChildMessage) => {
			clearTimeout(timer);
			child.off('message', onMessage).off('exit', onExit);
			if (error) reject(error);
			else resolvePromise(message as Extract<ChildMessage, { type: T }>);
		};
		const timer = setTimeout(() => {
			// SIGTERM first: a child that started n8n, Postgres or Redis stops them (lib/process.ts
			// installCleanup) and exits; SIGKILL only if it has not within the grace.
			child.kill('SIGTERM');
			setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
			settle(new Error(`child did not report "${type}" within ${Math.round(timeoutMs / 1000)} s`));
		}, timeoutMs);
		const onMessage = (message: ChildMessage) => {
			if (message.type === 'error') settle(new Error(message.message));
			else if (message.type === type) settle(undefined, message);
		};
		const onExit = (code: number | null, signal: string | null) =>
			settle(new Error(`child exited (${signal ?? code}) before reporting "${type}"`));
		child.on('message', onMessage).on('exit', onExit);
	});
}

/** Sends a message to the parent (children only). */
export function report(message: ChildMessage): Promise<void> {
	return new Promise((resolvePromise) => {
		if (!process.send) throw new Error('not started as a child process');
		process.send(message, () => resolvePromise());
	});
}

/** An error as text: its message, or with `stack` its stack where it has one. */
export const errorText = (error: unknown, stack = false) => (error instanceof Error ? (stack && error.stack) || error.message : String(error));

/**
 * A child's whole life: its input (the parent's first message), its work, then exit. An error goes
 * to the parent first, then `onError` cleans up.
 */
export function runChild<T>(work: (input: T) => Promise<void>, onError?: () => Promise<void>): void {
	new Promise<T>((resolvePromise) => process.once('message', (message: unknown) => resolvePromise(message as T)))
		.then(work)
		.then(
			() => process.exit(0),
			async (error: unknown) => {
				await report({ type: 'error', message: errorText(error, true) });
				await onError?.();
				process.exit(1);
			},
		);
}
