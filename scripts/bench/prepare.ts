/**
 * Per-item cost of validating and building each request kind, in its own process.
 *
 * A probe node with our node's exact description (from dist/) runs inside n8n's engine, so the
 * `this` it gets is n8n-core's real ExecuteContext for N input items. Its execute calls the
 * operation's `prepare(itemIndex)` — read parameters with n8n's getNodeParameter (expressions
 * resolved by n8n), build the body, validate it with zod — for every item, and times that. It
 * also records which getNodeParameter calls `prepare` makes and times replaying just those calls,
 * so the node's own share (build + validate) is `prepare − reads`. Nothing is sent.
 */
import { join } from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeParameters, INodeType } from 'n8n-workflow';

import type { PrepareCost, PrepareResult } from './common';
import { API_KEY, REPO_ROOT, median, receiveInput, report } from './common';

type Prepare = (this: IExecuteFunctions, itemIndex: number) => unknown;

interface Case {
	operation: string;
	resource: string;
	name: string;
	literal: INodeParameters;
	expressions: INodeParameters;
}

const FROM = '+628110000000';

const CASES: Case[] = [
	{
		operation: 'Chat → Send Template',
		resource: 'chatMessage',
		name: 'sendTemplate',
		literal: {
			from: FROM,
			to: '+6281234567890',
			templateName: 'order_shipped',
			templateContent: 'Halo {{1}}, pesanan {{2}} sudah dikirim.',
			bodyParameters: { parameter: [{ text: 'Budi' }, { text: 'A-1042' }] },
			headerImageUrl: 'https://cdn.example.com/shipped.png',
			quickReplyButtons: { button: [{ index: '0', payload: 'track-A-1042' }, { index: '1', payload: 'help' }] },
		},
		expressions: {
			from: FROM,
			to: '={{ $json.phone }}',
			templateName: 'order_shipped',
			templateContent: 'Halo {{1}}, pesanan {{2}} sudah dikirim.',
			bodyParameters: { parameter: [{ text: '={{ $json.name }}' }, { text: '={{ $json.order }}' }] },
			headerImageUrl: 'https://cdn.example.com/shipped.png',
			quickReplyButtons: {
				button: [{ index: '0', payload: '={{ "track-" + $json.order }}' }, { index: '1', payload: 'help' }],
			},
		},
	},
	{
		operation: 'Chat → Send Media',
		resource: 'chatMessage',
		name: 'sendMedia',
		literal: {
			from: FROM,
			to: '+6281234567890',
			mediaType: 'document',
			mediaUrl: 'https://cdn.example.com/invoice-A-1042.pdf',
		},
		expressions: {
			from: FROM,
			to: '={{ $json.phone }}',
			mediaType: 'document',
			mediaUrl: '={{ "https://cdn.example.com/invoice-" + $json.order + ".pdf" }}',
		},
	},
	{
		operation: 'SMS → Send SMS',
		resource: 'sms',
		name: 'send',
		literal: { phoneNumber: '+6281234567890', message: 'Kode verifikasi Anda: 734201' },
		expressions: { phoneNumber: '={{ $json.phone }}', message: '=Kode verifikasi Anda: {{ $json.code }}' },
	},
	{
		operation: 'Combined → Send with Failover',
		resource: 'combined',
		name: 'sendWithFailover',
		literal: {
			from: FROM,
			to: '+6281234567890',
			templateName: 'otp',
			bodyParameters: { parameter: [{ text: '734201' }] },
			smsPhoneNumber: '+6281234567890',
			smsMessage: 'Kode verifikasi Anda: 734201',
		},
		expressions: {
			from: FROM,
			to: '={{ $json.phone }}',
			templateName: 'otp',
			bodyParameters: { parameter: [{ text: '={{ $json.code }}' }] },
			smsPhoneNumber: '={{ $json.phone }}',
			smsMessage: '=Kode verifikasi Anda: {{ $json.code }}',
		},
	},
];

function items(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({
		phone: `0812-${String(index).padStart(4, '0')}-${String(index % 10000).padStart(4, '0')}`,
		name: `Pelanggan ${index}`,
		order: `A-${10000 + index}`,
		code: String(100000 + index),
	}));
}

type ParameterCall = Parameters<IExecuteFunctions['getNodeParameter']>;

/** The getNodeParameter calls one `prepare` makes, recorded on a proxy of the real context. */
function recordReads(context: IExecuteFunctions, prepare: Prepare): ParameterCall[] {
	const calls: ParameterCall[] = [];
	const recorder = new Proxy(context, {
		get(target, key) {
			if (key === 'getNodeParameter') {
				return (...args: ParameterCall) => {
					calls.push(args);
					return (target.getNodeParameter as (...a: ParameterCall) => unknown)(...args);
				};
			}
			const value: unknown = Reflect.get(target, key, target);
			return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
		},
	});
	prepare.call(recorder, 0);
	return calls;
}

function probeNode(real: INodeType, prepare: Prepare, reps: number): INodeType {
	return {
		description: real.description,
		async execute(this: IExecuteFunctions) {
			const count = this.getInputData().length;
			const reads = recordReads(this, prepare);
			const getNodeParameter = this.getNodeParameter as (...args: ParameterCall) => unknown;
			const prepareUs: number[] = [];
			const readUs: number[] = [];
			const prepareCpuUs: number[] = [];
			const readCpuUs: number[] = [];
			let sink = 0;
			const cpu = () => {
				const { user, system } = process.cpuUsage();
				return user + system;
			};
			for (let rep = 0; rep < reps; rep++) {
				let cpuStarted = cpu();
				let started = process.hrtime.bigint();
				for (let index = 0; index < count; index++) {
					if (prepare.call(this, index)) sink++;
				}
				prepareUs.push(Number(process.hrtime.bigint() - started) / 1000 / count);
				prepareCpuUs.push((cpu() - cpuStarted) / count);
				cpuStarted = cpu();
				started = process.hrtime.bigint();
				for (let index = 0; index < count; index++) {
					for (const [name, , fallback, options] of reads) {
						if (getNodeParameter(name, index, fallback, options) !== undefined) sink++;
					}
				}
				readUs.push(Number(process.hrtime.bigint() - started) / 1000 / count);
				readCpuUs.push((cpu() - cpuStarted) / count);
			}
			const json = { prepareUs, readUs, prepareCpuUs, readCpuUs, sink, reads: reads.map(([name]) => name) };
			return [[{ json, pairedItem: { item: 0 } }]];
		},
	};
}

async function main(): Promise<void> {
	const { quick } = await receiveInput<{ quick: boolean }>();
	// Items per run (expressions cost far more per item), and timed passes after one warm-up pass.
	const ITEMS = quick ? { literal: 200, expressions: 100 } : { literal: 2000, expressions: 1000 };
	const PASSES = quick ? 1 : 5;
	const { createEngineRunner } = await import('../../harness/workflowRunner');
	const dist = join(REPO_ROOT, 'dist', 'nodes', 'MultiChannelNotification');
	const { MultiChannelNotification } = (await import(join(dist, 'MultiChannelNotification.node.js'))) as typeof import(
		'../../nodes/MultiChannelNotification/MultiChannelNotification.node'
	);
	const { MultiChannelNotificationApi } = (await import(
		join(REPO_ROOT, 'dist', 'credentials', 'MultiChannelNotificationApi.credentials.js')
	)) as typeof import('../../credentials/MultiChannelNotificationApi.credentials');
	const operations = ((await import(join(dist, 'actions/registry.js'))) as { registry: Record<string, Record<string, { prepare: Prepare }>> })
		.registry;
	const real = new MultiChannelNotification();
	const results: PrepareResult[] = [];
	for (const testCase of CASES) {
		for (const mode of ['literal', 'expressions'] as const) {
			const prepare = operations[testCase.resource][testCase.name].prepare;
			const run = createEngineRunner({
				typeName: 'n8n-nodes-multichannel-notification.multiChannelNotification',
				typeVersion: 1,
				nodeType: probeNode(real, prepare, PASSES + 1),
				parameters: { resource: testCase.resource, operation: testCase.name, ...testCase[mode] },
				credentials: {
					multiChannelNotificationApi: {
						type: new MultiChannelNotificationApi(),
						data: { apiKey: API_KEY, baseUrl: 'https://127.0.0.1:9' },
					},
				},
			});
			const { output, error } = await run(items(ITEMS[mode]));
			if (error || !output?.[0]) throw new Error(`${testCase.operation} (${mode}): ${error?.message ?? 'no output'}`);
			// The first rep is a warm-up (JIT, n8n's expression cache); the medians are over the rest.
			const json = output[0].json as Record<'prepareUs' | 'readUs' | 'prepareCpuUs' | 'readCpuUs', number[]>;
			const cost = (prepareReps: number[], readReps: number[]): PrepareCost => {
				const prepareUs = median(prepareReps.slice(1));
				const readUs = median(readReps.slice(1));
				return { prepareUs, readUs, buildValidateUs: prepareUs - readUs, reps: prepareReps.slice(1) };
			};
			results.push({
				operation: testCase.operation,
				mode,
				items: ITEMS[mode],
				wall: cost(json.prepareUs, json.readUs),
				cpu: cost(json.prepareCpuUs, json.readCpuUs),
			});
		}
	}
	await report({ type: 'prepare', results });
}

main().then(
	() => process.exit(0),
	async (error: unknown) => {
		await report({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
		process.exit(1);
	},
);
