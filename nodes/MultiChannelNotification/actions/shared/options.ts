import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PhoneNumberFormat } from '../../helpers/phoneNumber';

/** The Options collection every send has: number handling, pacing, 429 handling, timeout. */

export const DEFAULT_CONCURRENCY = 10;
export const MAX_CONCURRENCY = 100;
export const DEFAULT_RATE_LIMIT_RETRIES = 3;
export const DEFAULT_TIMEOUT_MS = 30000;

/** Per item: how numbers are read and how each request is sent. */
export interface ItemOptions {
	phoneNumberFormat: PhoneNumberFormat;
	rateLimitRetries: number;
	timeout: number;
}

/** Per execution: how the items are paced. */
export interface Pacing {
	concurrency: number;
	batchInterval: number;
}

export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Batch Interval (Ms)',
			name: 'batchInterval',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Pause between batches, in milliseconds. A batch is as many items as Concurrency. 0 sends continuously.',
		},
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
			default: DEFAULT_CONCURRENCY,
			description:
				'How many requests may be in flight at once; 1 sends strictly one after another. Output order is the same either way.',
		},
		{
			displayName: 'Phone Number Format',
			name: 'phoneNumberFormat',
			type: 'options',
			options: [
				{
					name: 'Normalize',
					value: 'normalize',
					description:
						'Remove spaces, dashes, dots and brackets; turn 0812… or 62812… into +62812…; anything else must already be E.164',
				},
				{
					name: 'Strict E.164',
					value: 'strict',
					description: 'Send numbers exactly as given; anything not E.164 is an error',
				},
			],
			default: 'normalize',
			description: 'How From, To and Phone Number values are read',
		},
		{
			displayName: 'Rate Limit Retries',
			name: 'rateLimitRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: DEFAULT_RATE_LIMIT_RETRIES,
			description:
				'How often to resend a request the service refused with HTTP 429 (too many requests), after the wait it asks for. No other failure is ever resent: it may already have been delivered.',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_MS,
			description: 'How long to wait for the service to answer one request, in milliseconds',
		},
	],
};

function whole(value: unknown, fallback: number, min: number, max: number): number {
	const number = typeof value === 'number' ? value : Number(value);
	if (!Number.isFinite(number)) return fallback;
	return Math.min(max, Math.max(min, Math.floor(number)));
}

function optionsOf(context: IExecuteFunctions, itemIndex: number): Record<string, unknown> {
	return context.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>;
}

/**
 * The per-item options. A timeout under 1 ms (possible through an expression) would abandon
 * every request while the service may still deliver it, so it is refused before sending.
 */
export function readItemOptions(context: IExecuteFunctions, itemIndex: number): ItemOptions {
	const options = optionsOf(context, itemIndex);
	const timeout = options.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(options.timeout);
	if (!Number.isFinite(timeout) || timeout < 1) {
		throw new NodeOperationError(
			context.getNode(),
			`Item ${itemIndex}: Timeout (Ms) must be a number of milliseconds, at least 1 — got ${JSON.stringify(options.timeout)}`,
			{ itemIndex, description: 'Nothing was sent for this item.' },
		);
	}
	return {
		phoneNumberFormat: options.phoneNumberFormat === 'strict' ? 'strict' : 'normalize',
		rateLimitRetries: whole(options.rateLimitRetries, DEFAULT_RATE_LIMIT_RETRIES, 0, 10),
		timeout: Math.min(Math.ceil(timeout), 3600000),
	};
}

/** How From, To and Phone Number values are read for one item. */
export function readPhoneNumberFormat(context: IExecuteFunctions, itemIndex: number): PhoneNumberFormat {
	return optionsOf(context, itemIndex).phoneNumberFormat === 'strict' ? 'strict' : 'normalize';
}

/** Concurrency and batch interval, read once per execution (from the first item). */
export function readPacing(context: IExecuteFunctions): Pacing {
	const options = optionsOf(context, 0);
	return {
		concurrency: whole(options.concurrency, DEFAULT_CONCURRENCY, 1, MAX_CONCURRENCY),
		batchInterval: whole(options.batchInterval, 0, 0, 3600000),
	};
}
