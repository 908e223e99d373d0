/**
 * One client configuration of `npm run bench`, in its own process (started by run.ts; the
 * sandbox runs in another process). It receives a LegInput, does an untimed warm-up, then for
 * each item count `reps` timed runs, each checked against the sandbox's own count (one delivery
 * per item, no double sends), and reports the timings. A memory leg does one run in a fresh
 * process and samples RSS every 20 ms from just before it starts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeType, IVersionedNodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { LegInput, LegResult, LegSpec, RepResult } from './common';
import type { EngineRun } from '../../harness/workflowRunner';
import { DEFAULT_NODE_NAME as TARGET_NAME } from '../../harness/workflowRunner';
import {
	API_KEY,
	HTTP_REQUEST_NODE_PATH,
	HTTP_REQUEST_VERSION,
	REPO_ROOT,
	SMS_PATH,
	httpNodeParameters,
	inputItems,
	mb,
	messageOf,
	nodeParameters,
	phoneOf,
	receiveInput,
	report,
	rssSampler,
	timelineOf,
} from './common';
import type { RecordedRequest } from '../../sandbox/server';

/** Sends the items once; resolves with the run's result (the engine's run data), kept by memory legs. */
type Send = (items: IDataObject[]) => Promise<unknown>;

interface SandboxStats {
	received: number;
	delivered: number;
	duplicateBodies: number;
	maxInFlight: number;
	rateLimited: number;
}

async function control(url: string, path: string, method: 'GET' | 'POST'): Promise<unknown> {
	const response = await fetch(`${url}/__sandbox/${path}`, { method });
	if (!response.ok) throw new Error(`sandbox ${method} ${path}: HTTP ${response.status}`);
	return (await response.json()) as unknown;
}

function checkOutput(output: Array<{ json: IDataObject }> | undefined, error: Error | undefined, count: number): void {
	if (error) throw new Error(`the run failed: ${error.message}`);
	if (!output || output.length !== count) throw new Error(`expected ${count} output items, got ${output?.length ?? 0}`);
	const failed = output.findIndex((item) => item.json.message !== 'success');
	if (failed !== -1) throw new Error(`output item ${failed} is not a success: ${JSON.stringify(output[failed].json)}`);
}

/** Our node, loaded from the built package (dist/) as n8n would load it. */
async function ourNode(spec: LegInput['spec']): Promise<Send> {
	const { createEngineRunner } = await import('../../harness/workflowRunner');
	const dist = join(REPO_ROOT, 'dist');
	const { MultiChannelNotification } = (await import(
		join(dist, 'nodes/MultiChannelNotification/MultiChannelNotification.node.js')
	)) as typeof import('../../nodes/MultiChannelNotification/MultiChannelNotification.node');
	const run = createEngineRunner({
		typeName: 'n8n-nodes-multichannel-notification.multiChannelNotification',
		typeVersion: 1,
		nodeType: new MultiChannelNotification(),
		parameters: nodeParameters(spec.concurrency),
		credentials: await ourCredential(spec.url),
	});
	// Against a rate limit the counts (delivered, failed, twice) are checked per rep instead.
	return spec.rateLimited ? run : checked(run);
}

/** n8n's own HTTP Request node, from the n8n 2.8.4 install (n8n-nodes-base 2.8.1). */
async function httpRequestNode(spec: LegInput['spec'], batching: boolean): Promise<Send> {
	// A mayFail leg's run is measured as it comes: failures are what it shows.
	if (spec.mayFail) {
		const { createEngineRunner } = await import('../../harness/workflowRunner');
		const { HttpRequest } = (await import(HTTP_REQUEST_NODE_PATH)) as {
			HttpRequest: new () => INodeType | IVersionedNodeType;
		};
		return createEngineRunner({
			typeName: 'n8n-nodes-base.httpRequest',
			typeVersion: HTTP_REQUEST_VERSION,
			nodeType: new HttpRequest(),
			parameters: httpNodeParameters(spec.url, batching),
			credentials: { httpHeaderAuth: { data: { name: 'Authorization', value: API_KEY } } },
		});
	}
	const { createEngineRunner } = await import('../../harness/workflowRunner');
	const { HttpRequest } = (await import(HTTP_REQUEST_NODE_PATH)) as {
		HttpRequest: new () => INodeType | IVersionedNodeType;
	};
	const run = createEngineRunner({
		typeName: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		nodeType: new HttpRequest(),
		parameters: httpNodeParameters(spec.url, batching),
		credentials: { httpHeaderAuth: { data: { name: 'Authorization', value: API_KEY } } },
	});
	return async (items) => {
		const result = await run(items);
		checkOutput(result.output, result.error, items.length);
		return result;
	};
}

function smsBody(item: IDataObject): IDataObject {
	return {
		phone_number: item.phone,
		message: `Kode verifikasi Anda: ${String(item.code)}. Jangan berikan kode ini kepada siapa pun.`,
	};
}

/**
 * n8n's request helper alone: a bare node that POSTs ready-made bodies with
 * httpRequestWithAuthentication and the same request options as our transport, `concurrency`
 * at a time. No parameters per item, no expressions, no validation.
 */
async function n8nHelperNode(spec: LegInput['spec']): Promise<Send> {
	const { createEngineRunner } = await import('../../harness/workflowRunner');
	const concurrency = spec.concurrency ?? 1;
	const nodeType: INodeType = {
		description: {
			displayName: 'Helper Only',
			name: 'helperOnly',
			group: ['output'],
			version: 1,
			description: 'Sends ready-made bodies through n8n-core',
			defaults: { name: 'Helper Only' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'multiChannelNotificationApi', required: true }],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const items = this.getInputData();
			const credentials = await this.getCredentials('multiChannelNotificationApi');
			const url = `${String(credentials.baseUrl)}${SMS_PATH}`;
			// Decrypted once and handed to every call, as the node's transport does.
			const credentialsDecrypted = { id: '1', name: 'bench', type: 'multiChannelNotificationApi', data: credentials };
			const results = new Array<{ json: IDataObject; pairedItem: { item: number } }>(items.length);
			let next = 0;
			const worker = async () => {
				while (next < items.length) {
					const index = next++;
					const response = (await this.helpers.httpRequestWithAuthentication.call(
						this,
						'multiChannelNotificationApi',
						{
							method: 'POST',
							url,
							headers: { 'Content-Type': 'application/json' },
							body: smsBody(items[index].json),
							json: true,
							returnFullResponse: true,
							ignoreHttpStatusErrors: true,
							timeout: 30000,
						},
						{ credentialsDecrypted },
					)) as { body: IDataObject };
					results[index] = { json: response.body, pairedItem: { item: index } };
				}
			};
			await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
			return [results];
		},
	};
	const run = createEngineRunner({
		typeName: 'bench.helperOnly',
		typeVersion: 1,
		nodeType,
		parameters: {},
		credentials: await ourCredential(spec.url),
	});
	return checked(run);
}

/**
 * The ceiling: node:https with one keep-alive agent, `concurrency` requests in flight, the same
 * bodies. With `keepAlive` false every request gets a new agent (a new connection), as n8n-core's
 * request helper does.
 */
function rawClient(spec: LegInput['spec'], keepAlive: boolean): Send {
	const concurrency = spec.concurrency ?? 1;
	const target = new URL(`${spec.url}${SMS_PATH}`);
	const shared = new Agent({ keepAlive: true, maxSockets: concurrency });
	const post = (body: string): Promise<IDataObject> =>
		new Promise<IDataObject>((resolve, reject) => {
			const req = request(
				{
					agent: keepAlive ? shared : new Agent({ keepAlive: false }),
					hostname: target.hostname,
					port: target.port,
					path: target.pathname,
					method: 'POST',
					headers: {
						authorization: API_KEY,
						'content-type': 'application/json',
						'content-length': Buffer.byteLength(body),
					},
				},
				(res) => {
					const chunks: Buffer[] = [];
					res.on('data', (chunk: Buffer) => chunks.push(chunk));
					res.on('end', () => {
						try {
							resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as IDataObject);
						} catch (error) {
							reject(error instanceof Error ? error : new Error(String(error)));
						}
					});
					res.on('error', reject);
				},
			);
			req.on('error', reject);
			req.end(body);
		});
	return rawLoop(concurrency, post);
}

/** `concurrency` workers posting the items' SMS bodies in turn; answers kept in order, as a node's output. */
function rawLoop(concurrency: number, post: (body: string) => Promise<IDataObject>): Send {
	return async (items) => {
		const answers = new Array<IDataObject>(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const index = next++;
				const answer = await post(JSON.stringify(smsBody(items[index])));
				if (answer.message !== 'success') throw new Error(`raw client: not a success: ${JSON.stringify(answer)}`);
				answers[index] = answer;
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return answers;
	};
}

async function sender(spec: LegInput['spec']): Promise<Send> {
	switch (spec.kind) {
		case 'node':
			return await ourNode(spec);
		case 'httpNode':
			return await httpRequestNode(spec, false);
		case 'httpNodeBatching':
			return await httpRequestNode(spec, true);
		case 'n8nHelper':
			return await n8nHelperNode(spec);
		case 'raw':
			return rawClient(spec, true);
		case 'rawNoKeepAlive':
			return rawClient(spec, false);
	}
}

async function timedRun(
	spec: LegInput['spec'],
	send: Send,
	items: IDataObject[],
	keep?: (result: unknown) => void,
): Promise<RepResult> {
	await control(spec.url, 'reset', 'POST');
	// Samples less often than memory legs do, to keep the sampler's own cost out of the timing.
	const sampler = rssSampler(200);
	const started = process.hrtime.bigint();
	const result = await send(items);
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const { peak } = sampler.stop();
	keep?.(result);
	const stats = (await control(spec.url, 'stats', 'GET')) as SandboxStats;
	const timeline = spec.rateLimited
		? timelineOf(((await control(spec.url, 'requests', 'GET')) as { requests: RecordedRequest[] }).requests)
		: undefined;
	const engine = engineRunOf(result);
	// An n8n node is timed by its own executionTime, as n8n records it in the run data.
	const nodeMs = engine?.run.data.resultData.runData[TARGET_NAME]?.[0]?.executionTime;
	const ms = nodeMs ?? wallMs;
	let failedItems = 0;
	let runError: string | undefined;
	if (engine) {
		if (engine.error || !engine.output) {
			failedItems = items.length;
			runError = engine.error?.message ?? 'no output';
		} else {
			failedItems = engine.output.filter((item) => item.json.message !== 'success').length;
		}
	}
	return {
		ms,
		wallMs,
		itemsPerSecond: items.length / (ms / 1000),
		received: stats.received,
		delivered: stats.delivered,
		duplicates: stats.duplicateBodies,
		maxInFlight: stats.maxInFlight,
		peakRssMb: mb(peak),
		rateLimited: stats.rateLimited ?? 0,
		failedItems,
		...(runError === undefined ? {} : { runError }),
		...(timeline ? { timeline } : {}),
	};
}

function engineRunOf(result: unknown): EngineRun | undefined {
	return typeof result === 'object' && result !== null && 'run' in result ? (result as EngineRun) : undefined;
}

/**
 * Linux keeps each process's peak RSS (VmHWM in /proc/self/status); writing 5 to
 * /proc/self/clear_refs resets it. Returns false where that is not available.
 */
function resetKernelPeak(): boolean {
	try {
		writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch (error) {
		process.stderr.write(`(no kernel peak RSS here: ${error instanceof Error ? error.message : String(error)})\n`);
		return false;
	}
}

function kernelPeak(): number | undefined {
	const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
	return match ? Number(match[1]) * 1024 : undefined;
}

function problemOf(rep: RepResult, count: number, spec: LegSpec): string | undefined {
	if (spec.mayFail) {
		return rep.duplicates === 0 ? undefined : `the sandbox delivered ${rep.duplicates} items twice`;
	}
	if (spec.rateLimited) {
		if (rep.delivered !== count || rep.duplicates !== 0 || rep.received !== count + rep.rateLimited || rep.failedItems > 0) {
			return `against the rate limit: ${rep.delivered} of ${count} delivered, ${rep.duplicates} twice, ${rep.failedItems} failed, ${rep.received} requests (${rep.rateLimited} refused with 429)`;
		}
		return undefined;
	}
	if (rep.received !== count || rep.delivered !== count || rep.duplicates !== 0) {
		return `the sandbox received ${rep.received} and delivered ${rep.delivered} requests (${rep.duplicates} duplicates) for ${count} items`;
	}
	return undefined;
}

async function measure(spec: LegSpec, send: Send): Promise<LegResult> {
	const items = inputItems(spec.items);
	const result: LegResult = { spec, reps: [] };
	if (spec.profile) {
		const { profileRun } = await import('./profile');
		let rep: RepResult | undefined;
		result.profile = await profileRun(async () => {
			rep = await timedRun(spec, send, items);
		});
		if (rep) {
			result.reps.push(rep);
			result.problem = problemOf(rep, items.length, spec);
		}
		return result;
	}
	if (spec.memory) {
		// Started with --expose-gc: a full collection before the baseline and after the run.
		const gc = (globalThis as { gc?: () => void }).gc;
		if (!gc) throw new Error('memory legs need node --expose-gc');
		gc();
		const before = process.memoryUsage();
		const kernel = resetKernelPeak();
		const sampler = rssSampler(20, true);
		let kept: unknown;
		const rep = await timedRun(spec, send, items, (runResult) => {
			kept = runResult;
		});
		const sampled = sampler.stop();
		const { peakHeap, samples } = sampled;
		// A node that builds all its requests without yielding keeps the sampler's timer from firing:
		// the kernel's own high-water mark catches what the samples miss.
		const kernelPeakBytes = kernel ? kernelPeak() : undefined;
		const peak = Math.max(sampled.peak, kernelPeakBytes ?? 0);
		const end = process.memoryUsage.rss();
		// Half a second for sockets still closing to let go of their buffers, then a full collection.
		await new Promise((resolve) => setTimeout(resolve, 500));
		gc();
		// The run data stays referenced, as n8n keeps an execution's data until it is saved.
		const retainedHeap = process.memoryUsage().heapUsed - before.heapUsed;
		result.memory = {
			baselineMb: mb(before.rss),
			peakMb: mb(peak),
			growthMb: mb(peak - before.rss),
			endMb: mb(end),
			...(kernelPeakBytes === undefined ? {} : { kernelPeakMb: mb(kernelPeakBytes) }),
			peakHeapMb: mb(peakHeap),
			retainedHeapMb: mb(retainedHeap),
			samples,
		};
		result.reps.push(rep);
		result.problem = problemOf(rep, items.length, spec) ?? (kept === undefined ? 'the run returned nothing' : undefined);
		return result;
	}
	for (let index = 0; index < spec.reps; index++) {
		const rep = await timedRun(spec, send, items);
		result.reps.push(rep);
		result.problem ??= problemOf(rep, items.length, spec);
	}
	return result;
}

async function main(): Promise<void> {
	const { spec, runs } = await receiveInput<LegInput>();
	const send = await sender(spec);
	// A one-item sanity check, then the untimed warm-up (module loading, JIT, lazy n8n-core set-up).
	await control(spec.url, 'reset', 'POST');
	await send(inputItems(1));
	if (spec.warmup > 0) await send(inputItems(spec.warmup));
	// The bodies the raw clients and the helper build must be the ones the nodes' expressions give.
	const body = smsBody(inputItems(1)[0]);
	if (body.phone_number !== phoneOf(0) || body.message !== messageOf(0)) throw new Error('items and bodies disagree');
	const results: LegResult[] = [];
	for (const { items, reps } of runs) {
		try {
			results.push(await measure({ ...spec, items, reps }, send));
		} catch (error) {
			const problem = error instanceof Error ? (error.stack ?? error.message) : String(error);
			results.push({ spec: { ...spec, items, reps }, reps: [], problem });
		}
	}
	await report({ type: 'leg', results });
}

main().then(
	() => process.exit(0),
	async (error: unknown) => {
		await report({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
		process.exit(1);
	},
);

/** This package's credential (from dist/), pointing at the sandbox. */
async function ourCredential(url: string) {
	const { MultiChannelNotificationApi } = (await import(
		join(REPO_ROOT, 'dist', 'credentials', 'MultiChannelNotificationApi.credentials.js')
	)) as typeof import('../../credentials/MultiChannelNotificationApi.credentials');
	return {
		multiChannelNotificationApi: {
			type: new MultiChannelNotificationApi(),
			data: { apiKey: API_KEY, baseUrl: url },
		},
	};
}

/** Wraps a runner so every run is checked: one output item per input item, no error. */
function checked(run: (items: IDataObject[]) => Promise<EngineRun>): (items: IDataObject[]) => Promise<EngineRun> {
	return async (items) => {
		const result = await run(items);
		checkOutput(result.output, result.error, items.length);
		return result;
	};
}
