/**
 * Per-item cost of validating and building each request kind, in its own process.
 *
 * A probe node with our node's exact description (from dist/) runs inside n8n's engine, so the
 * `this` it gets is n8n-core's real ExecuteContext for N input items. Its execute calls the
 * operation's `prepare(itemIndex)` — read parameters with n8n's getNodeParameter (expressions
 * resolved by n8n), build the body, validate it with zod — for every item, and times that. It
 * also records which getNodeParameter calls `prepare` makes and times replaying just those calls,
 * so the node's own share (build + validate) is `prepare − reads`. Nothing is sent. The cases are
 * the demo's four sends (inProcess.ts), each with every field given as is and from the item.
 */
import { join } from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';

import { API_KEY, REPO_ROOT, median, report, runChild } from './common';
import { EXAMPLE_SENDS, inProcessRunner } from './inProcess';

type Prepare = (this: IExecuteFunctions, itemIndex: number) => unknown;
type ParameterCall = Parameters<IExecuteFunctions['getNodeParameter']>;
type Timings = Record<'prepareUs' | 'readUs' | 'prepareCpuUs' | 'readCpuUs', number[]>;

function items(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({
		phone: `0812-${String(index).padStart(4, '0')}-${String(index % 10000).padStart(4, '0')}`,
		name: `Pelanggan ${index}`,
		order: `A-${10000 + index}`,
		code: String(100000 + index),
	}));
}

/** The getNodeParameter calls one `prepare` makes, recorded by wrapping the real context's method for one call. */
function recordReads(context: IExecuteFunctions, prepare: Prepare): ParameterCall[] {
	const calls: ParameterCall[] = [];
	const getNodeParameter = context.getNodeParameter as (...args: ParameterCall) => unknown;
	context.getNodeParameter = ((...args: ParameterCall) => {
		calls.push(args);
		return getNodeParameter.apply(context, args);
	}) as IExecuteFunctions['getNodeParameter'];
	try {
		prepare.call(context, 0);
	} finally {
		context.getNodeParameter = getNodeParameter as IExecuteFunctions['getNodeParameter'];
	}
	return calls;
}

/** Our node's description, its execute replaced: `reps` timed passes of `prepare`, then of its reads alone. */
function probeNode(real: INodeType, prepare: Prepare, reps: number): INodeType {
	return {
		description: real.description,
		async execute(this: IExecuteFunctions) {
			const count = this.getInputData().length;
			const reads = recordReads(this, prepare);
			const getNodeParameter = this.getNodeParameter as (...args: ParameterCall) => unknown;
			const timings: Timings = { prepareUs: [], readUs: [], prepareCpuUs: [], readCpuUs: [] };
			let sink = 0;
			const cpu = () => {
				const { user, system } = process.cpuUsage();
				return user + system;
			};
			/** Times `pass` over every item: µs per item, elapsed and of CPU. */
			const time = (wall: number[], cpuTime: number[], pass: (index: number) => void) => {
				const cpuStarted = cpu();
				const started = process.hrtime.bigint();
				for (let index = 0; index < count; index++) pass(index);
				wall.push(Number(process.hrtime.bigint() - started) / 1000 / count);
				cpuTime.push((cpu() - cpuStarted) / count);
			};
			for (let rep = 0; rep < reps; rep++) {
				time(timings.prepareUs, timings.prepareCpuUs, (index) => {
					if (prepare.call(this, index)) sink++;
				});
				time(timings.readUs, timings.readCpuUs, (index) => {
					for (const [name, , fallback, options] of reads) {
						if (getNodeParameter(name, index, fallback, options) !== undefined) sink++;
					}
				});
			}
			return [[{ json: { ...timings, sink, reads: reads.map(([name]) => name) }, pairedItem: { item: 0 } }]];
		},
	};
}

/**
 * Median µs per item of the whole `prepare` (read + build + validate), of only its getNodeParameter
 * calls, and the difference (the node's own build + validate); then `prepare`'s µs in each timed
 * rep. The first rep is a warm-up (JIT, n8n's expression cache); the medians are over the rest.
 */
function cost(prepareReps: number[], readReps: number[]) {
	const prepareUs = median(prepareReps.slice(1));
	const readUs = median(readReps.slice(1));
	return { prepareUs, readUs, buildValidateUs: prepareUs - readUs, reps: prepareReps.slice(1) };
}

/** One operation's cost with fixed values or expressions: elapsed, and CPU time of the process (what other load inflates least). */
function result(operation: string, mode: 'literal' | 'expressions', items: number, timings: Timings) {
	return { operation, mode, items, wall: cost(timings.prepareUs, timings.readUs), cpu: cost(timings.prepareCpuUs, timings.readCpuUs) };
}

export type PrepareResult = ReturnType<typeof result>;

runChild<{ quick: boolean }>(async ({ quick }) => {
	// Items per run (expressions cost far more per item), and timed passes after one warm-up pass.
	const ITEMS = quick ? { literal: 200, expressions: 100 } : { literal: 2000, expressions: 1000 };
	const PASSES = quick ? 1 : 5;
	const registry = join(REPO_ROOT, 'dist', 'nodes', 'MultiChannelNotification', 'actions', 'registry.js');
	const operations = ((await import(registry)) as { registry: Record<string, Record<string, { prepare: Prepare }>> }).registry;
	const results: PrepareResult[] = [];
	for (const send of EXAMPLE_SENDS) {
		const prepare = operations[send.resource][send.name].prepare;
		// Nothing is sent: the credential points at a closed port.
		const run = await inProcessRunner('https://127.0.0.1:9', API_KEY, {
			node: (ours) => ({ ...ours, nodeType: probeNode(ours.nodeType as INodeType, prepare, PASSES + 1) }),
		});
		for (const mode of ['literal', 'expressions'] as const) {
			const { output, error } = await run({ resource: send.resource, operation: send.name, ...send[mode] }, items(ITEMS[mode]));
			if (error || !output?.[0]) throw new Error(`${send.operation} (${mode}): ${error?.message ?? 'no output'}`);
			results.push(result(send.operation, mode, ITEMS[mode], output[0].json as Timings));
		}
	}
	await report({ type: 'prepare', results });
});
