/**
 * One client configuration of `npm run bench`, in its own process (started by run.ts; the sandbox
 * runs in another). It receives a LegInput, does an untimed warm-up, then for each item count
 * `reps` timed runs, each checked against the sandbox's own count (one delivery per item, no double
 * sends), and reports the timings.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { text } from 'node:stream/consumers';

import type { IDataObject, INodeParameters, IVersionedNodeType } from 'n8n-workflow';

import type { EngineRun } from '../../harness/workflowRunner';
import { DEFAULT_NODE_NAME as TARGET_NAME } from '../../harness/workflowRunner';
import type { RecordedRequest, SandboxStats } from '../../sandbox/server';
import type { LegInput, LegResult, LegSpec } from './common';
import { API_KEY, HTTP_REQUEST_NODE_PATH, HTTP_REQUEST_VERSION, SMS_PATH, httpNodeParameters, inputItems, mb } from './common';
import { errorText, nodeParameters, report, rssSampler, runChild, smsText, timelineOf } from './common';
import type { InProcessOptions } from './inProcess';
import { inProcessRunner } from './inProcess';

/** Sends the items once; resolves with the run's result (the engine's run data), kept by memory legs. */
type Send = (items: IDataObject[]) => Promise<unknown>;
type Spec = LegInput['spec'];

async function control<T>(url: string, path: 'reset' | 'stats' | 'requests', method: 'GET' | 'POST' = 'GET'): Promise<T> {
	const response = await fetch(`${url}/__sandbox/${path}`, { method });
	if (!response.ok) throw new Error(`sandbox ${method} ${path}: HTTP ${response.status}`);
	return (await response.json()) as T;
}

/** Runs `task` for the indexes 0 … count − 1, `concurrency` at a time. */
async function pool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

const smsBody = (item: IDataObject): IDataObject => ({ phone_number: item.phone, message: smsText(String(item.code)) });

/**
 * A node in n8n's engine, our node unless `options` say otherwise. Every run is checked (one
 * success per item, no error) except against a rate limit, where the counts are checked per rep,
 * and on a mayFail leg, whose failures are what it shows.
 */
async function engineSend(spec: Spec, parameters: INodeParameters, options?: InProcessOptions): Promise<Send> {
	const run = await inProcessRunner(spec.url, API_KEY, options);
	return async (items) => {
		const result = await run(parameters, items);
		if (spec.rateLimited || spec.mayFail) return result;
		const { output, error } = result;
		if (error) throw new Error(`the run failed: ${error.message}`);
		if (output?.length !== items.length) throw new Error(`expected ${items.length} output items, got ${output?.length ?? 0}`);
		const failed = output.findIndex((item) => item.json.message !== 'success');
		if (failed !== -1) throw new Error(`output item ${failed} is not a success: ${JSON.stringify(output[failed].json)}`);
		return result;
	};
}

/** n8n's own HTTP Request node, from the n8n 2.8.4 install (n8n-nodes-base 2.8.1), with a Header Auth credential. */
const httpRequestNode: InProcessOptions = {
	node: async () => {
		const { HttpRequest } = (await import(HTTP_REQUEST_NODE_PATH)) as { HttpRequest: new () => IVersionedNodeType };
		return { typeName: 'n8n-nodes-base.httpRequest', typeVersion: HTTP_REQUEST_VERSION, nodeType: new HttpRequest() };
	},
	credentials: { httpHeaderAuth: { data: { name: 'Authorization', value: API_KEY } } },
};

/**
 * The ceiling: node:https with one keep-alive agent, `concurrency` requests in flight, the same
 * bodies, answers kept in order as a node's output.
 */
function rawClient(url: string, concurrency: number): Send {
	const target = new URL(`${url}${SMS_PATH}`);
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
	const post = async (body: string): Promise<IDataObject> => {
		const headers = { authorization: API_KEY, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
		const response = await new Promise<IncomingMessage>((resolve, reject) => {
			request(target, { agent, method: 'POST', headers }, resolve).on('error', reject).end(body);
		});
		return JSON.parse(await text(response)) as IDataObject;
	};
	return async (items) => {
		const answers = new Array<IDataObject>(items.length);
		await pool(items.length, concurrency, async (index) => {
			answers[index] = await post(JSON.stringify(smsBody(items[index])));
			if (answers[index].message !== 'success') throw new Error(`raw client: not a success: ${JSON.stringify(answers[index])}`);
		});
		return answers;
	};
}

const senders: Record<Spec['kind'], (spec: Spec) => Send | Promise<Send>> = {
	node: (spec) => engineSend(spec, nodeParameters()),
	httpNode: (spec) => engineSend(spec, httpNodeParameters(spec.url), httpRequestNode),
	raw: (spec) => rawClient(spec.url, spec.concurrency ?? 1),
};

/**
 * One timed run, checked against what the sandbox saw (`rateLimited`: requests it refused with 429).
 * `ms` is, for an n8n node, its own `executionTime` (what n8n shows), for a raw client its loop's
 * wall-clock time; `wallMs` the whole run's (an engine leg's workflow, source node included).
 * `failedItems`: output items that are not a success, or all items when the run failed (`runError`).
 */
async function timedRun(spec: Spec, send: Send, items: IDataObject[], keep?: (result: unknown) => void) {
	await control(spec.url, 'reset', 'POST');
	// Samples less often than memory legs do, to keep the sampler's own cost out of the timing.
	const stopSampling = rssSampler(200);
	const started = process.hrtime.bigint();
	const result = await send(items);
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const { peak } = stopSampling();
	keep?.(result);
	const stats = await control<SandboxStats>(spec.url, 'stats');
	const timeline = spec.rateLimited ? timelineOf((await control<{ requests: RecordedRequest[] }>(spec.url, 'requests')).requests) : undefined;
	const engine = typeof result === 'object' && result !== null && 'run' in result ? (result as EngineRun) : undefined;
	const ms = engine?.run.data.resultData.runData[TARGET_NAME]?.[0]?.executionTime ?? wallMs;
	const runError = engine && (engine.error || !engine.output) ? (engine.error?.message ?? 'no output') : undefined;
	const failedItems = !engine ? 0 : runError ? items.length : (engine.output ?? []).filter((item) => item.json.message !== 'success').length;
	return {
		ms,
		wallMs,
		itemsPerSecond: items.length / (ms / 1000),
		received: stats.received,
		delivered: stats.delivered,
		duplicates: stats.duplicateBodies,
		maxInFlight: stats.maxInFlight,
		peakRssMb: mb(peak),
		rateLimited: stats.rateLimited,
		failedItems,
		...(runError === undefined ? {} : { runError }),
		...(timeline ? { timeline } : {}),
	};
}

export type RepResult = Awaited<ReturnType<typeof timedRun>>;

function problemOf(rep: RepResult, count: number, spec: LegSpec): string | undefined {
	if (spec.mayFail) return rep.duplicates === 0 ? undefined : `the sandbox delivered ${rep.duplicates} items twice`;
	if (spec.rateLimited) {
		const ok = rep.delivered === count && rep.duplicates === 0 && rep.received === count + rep.rateLimited && rep.failedItems === 0;
		return ok
			? undefined
			: `against the rate limit: ${rep.delivered} of ${count} delivered, ${rep.duplicates} twice, ${rep.failedItems} failed, ${rep.received} requests (${rep.rateLimited} refused with 429)`;
	}
	const ok = rep.received === count && rep.delivered === count && rep.duplicates === 0;
	return ok ? undefined : `the sandbox received ${rep.received} and delivered ${rep.delivered} requests (${rep.duplicates} duplicates) for ${count} items`;
}

/**
 * A memory leg's one run: RSS and heap sampled every 20 ms, with a full collection (node
 * --expose-gc) before the baseline and after the run, whose result stays referenced, as n8n keeps
 * an execution's data until it is saved. "Retained" is the heap in use after that collection minus
 * the same before.
 */
async function memoryRun(spec: LegSpec, send: Send, items: IDataObject[]) {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('memory legs need node --expose-gc');
	gc();
	const before = process.memoryUsage();
	// Linux keeps each process's peak RSS (VmHWM); writing 5 to clear_refs resets it. A node that
	// builds all its requests without yielding keeps the sampler's timer from firing: the kernel's
	// own high-water mark catches what the samples miss.
	let kernel = true;
	try {
		writeFileSync('/proc/self/clear_refs', '5');
	} catch {
		kernel = false;
	}
	const stopSampling = rssSampler(20);
	let kept: unknown;
	const rep = await timedRun(spec, send, items, (result) => (kept = result));
	const { peak: sampledPeak, peakHeap, samples } = stopSampling();
	const hwm = kernel ? /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8')) : null;
	const kernelPeakBytes = hwm ? Number(hwm[1]) * 1024 : undefined;
	const peak = Math.max(sampledPeak, kernelPeakBytes ?? 0);
	const end = process.memoryUsage.rss();
	// Half a second for sockets still closing to let go of their buffers, then a full collection.
	await new Promise((resolve) => setTimeout(resolve, 500));
	gc();
	const memory = {
		baselineMb: mb(before.rss),
		peakMb: mb(peak),
		growthMb: mb(peak - before.rss),
		endMb: mb(end),
		...(kernelPeakBytes === undefined ? {} : { kernelPeakMb: mb(kernelPeakBytes) }),
		peakHeapMb: mb(peakHeap),
		retainedHeapMb: mb(process.memoryUsage().heapUsed - before.heapUsed),
		samples,
	};
	return { spec, reps: [rep], memory, problem: problemOf(rep, items.length, spec) ?? (kept === undefined ? 'the run returned nothing' : undefined) };
}

export type MemoryResult = Awaited<ReturnType<typeof memoryRun>>['memory'];

async function measure(spec: LegSpec, send: Send): Promise<LegResult> {
	const items = inputItems(spec.items);
	if (spec.memory) return await memoryRun(spec, send, items);
	const result: LegResult = { spec, reps: [] };
	for (let index = 0; index < spec.reps; index++) {
		const rep = await timedRun(spec, send, items);
		result.reps.push(rep);
		result.problem ??= problemOf(rep, items.length, spec);
	}
	return result;
}

runChild<LegInput>(async ({ spec, runs }) => {
	const send = await senders[spec.kind](spec);
	// A one-item sanity check, then the untimed warm-up (module loading, JIT, lazy n8n-core set-up).
	await control(spec.url, 'reset', 'POST');
	await send(inputItems(1));
	if (spec.warmup > 0) await send(inputItems(spec.warmup));
	const results: LegResult[] = [];
	for (const { items, reps } of runs) {
		try {
			results.push(await measure({ ...spec, items, reps }, send));
		} catch (error) {
			results.push({ spec: { ...spec, items, reps }, reps: [], problem: errorText(error, true) });
		}
	}
	await report({ type: 'leg', results });
});
