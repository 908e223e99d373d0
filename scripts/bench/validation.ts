/**
 * Micro-benchmark of the node's own per-item work: each operation's `prepare` (build the
 * candidate request from the item's parameters and validate it with zod) on a representative
 * item, 10,000 times, with a stub context whose getNodeParameter returns the literal values —
 * so n8n's parameter resolution is left out and what is timed is ours alone.
 *
 *   npx tsx scripts/bench/validation.ts [--items N] [--only <operation name prefix, e.g. Chat>]
 *
 * Prints CPU µs/item per operation: the best and the median of 7 timed passes after 2 warm-up
 * passes (CPU time, not wall time: this machine is shared, and the best pass is the least
 * disturbed one).
 */
import type { IExecuteFunctions, INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { SendOperation } from '../../nodes/MultiChannelNotification/actions/node.type';
import { operationProperties, registry } from '../../nodes/MultiChannelNotification/actions/registry';

const itemsArgument = process.argv.indexOf('--items');
const ITEMS = itemsArgument > 0 ? Number(process.argv[itemsArgument + 1]) : 10000;
const WARMUP = 2;
const PASSES = 7;

const node: INode = {
	id: 'bench',
	name: 'Multi-Channel Notification',
	type: 'n8n-nodes-multichannel-notification.multiChannelNotification',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

// The node's properties (its Resource selector stood in for: tsx resolves `*.node` to the codex JSON).
const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		options: ['chatMessage', 'sms', 'combined'].map((value) => ({ name: value, value })),
		default: 'chatMessage',
	},
	...operationProperties,
];

/**
 * getNodeParameter over literal parameters with the description's defaults filled in (as n8n's
 * Workflow does when it loads a node), dotted paths included ("options.phoneNumberFormat").
 */
function stubContext(given: INodeParameters): IExecuteFunctions {
	const parameters = NodeHelpers.getNodeParameters(properties, given, true, false, node, null) ?? given;
	const getNodeParameter = (name: string, _itemIndex: number, fallback?: unknown): unknown => {
		let value: unknown = parameters;
		for (const key of name.split('.')) {
			if (typeof value !== 'object' || value === null) return fallback;
			value = (value as Record<string, unknown>)[key];
		}
		return value === undefined ? fallback : value;
	};
	return { getNodeParameter, getNode: () => node } as unknown as IExecuteFunctions;
}

const FROM = '+628110000000';

const CASES: Array<{ name: string; operation: SendOperation; parameters: INodeParameters }> = [
	{
		name: 'Chat → Send Template',
		operation: registry.chatMessage.sendTemplate,
		parameters: {
			from: FROM,
			to: '0812-3456-7890',
			templateName: 'order_shipped',
			templateContent: 'Halo {{1}}, pesanan {{2}} sudah dikirim.',
			bodyParameters: { parameter: [{ text: 'Budi' }, { text: 'A-1042' }] },
			headerImageUrl: 'https://cdn.example.com/shipped.png',
			quickReplyButtons: { button: [{ index: '0', payload: 'track-A-1042' }, { index: '1', payload: 'help' }] },
			urlButton: { button: { index: '2', text: 'A-1042' } },
		},
	},
	{
		name: 'Chat → Send Media',
		operation: registry.chatMessage.sendMedia,
		parameters: {
			from: FROM,
			to: '0812-3456-7890',
			mediaType: 'image',
			mediaUrl: 'https://cdn.example.com/invoice-A-1042.png',
			caption: 'Invoice A-1042',
		},
	},
	{
		name: 'SMS → Send',
		operation: registry.sms.send,
		parameters: { phoneNumber: '0812-3456-7890', message: 'Kode verifikasi Anda: 734201' },
	},
	{
		name: 'Combined → Send with Failover',
		operation: registry.combined.sendWithFailover,
		parameters: {
			from: FROM,
			to: '0812-3456-7890',
			templateName: 'otp',
			templateContent: 'Kode Anda {{1}}',
			bodyParameters: { parameter: [{ text: '734201' }] },
			smsPhoneNumber: '0812-3456-7890',
			smsMessage: 'Kode verifikasi Anda: 734201',
		},
	},
];

const RESOURCE: Record<string, [string, string]> = {
	'Chat → Send Template': ['chatMessage', 'sendTemplate'],
	'Chat → Send Media': ['chatMessage', 'sendMedia'],
	'SMS → Send': ['sms', 'send'],
	'Combined → Send with Failover': ['combined', 'sendWithFailover'],
};

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

export function contextFor(name: string): IExecuteFunctions {
	const found = CASES.find((c) => c.name === name)!;
	const [resource, operationName] = RESOURCE[name];
	return stubContext({ resource, operation: operationName, ...found.parameters });
}

const only = process.argv.indexOf('--only');
const selected = only > 0 ? CASES.filter((c) => c.name.startsWith(process.argv[only + 1])) : CASES;

if (!process.env.NO_MAIN) for (const { name, operation, parameters } of selected) {
	const [resource, operationName] = RESOURCE[name];
	const context = stubContext({ resource, operation: operationName, ...parameters });
	operation.prepare.call(context, 0); // throws here if the representative item is not valid
	const perItem: number[] = [];
	for (let pass = 0; pass < WARMUP + PASSES; pass++) {
		const started = process.cpuUsage();
		for (let index = 0; index < ITEMS; index++) operation.prepare.call(context, index);
		const { user, system } = process.cpuUsage(started);
		if (pass >= WARMUP) perItem.push((user + system) / ITEMS);
	}
	const best = Math.min(...perItem).toFixed(2).padStart(7);
	console.log(`${name.padEnd(32)} best ${best} µs/item, median ${median(perItem).toFixed(2).padStart(7)} µs/item`);
}
