import type { INodeProperties } from 'n8n-workflow';

import { ADAPTIVE_CEILING, INITIAL_LIMIT } from '../delivery/pace';
import {
	DEFAULT_DEDUPE_HISTORY_SIZE,
	DEFAULT_RATE_LIMIT_MAX_WAIT_S,
	DEFAULT_TIMEOUT_MS,
	ITEM_OPTIONS_LABELS,
	LANGUAGE_POLICY,
	MAX_CONCURRENCY,
	MAX_DEDUPE_HISTORY_SIZE,
	MAX_SMS_PARTS,
} from '../schemas/itemOptions.schema';

/** The Options collection every send has: number handling, pacing, 429 handling, timeout, dry run, send once. */

export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Batch Interval (Milliseconds)',
			name: 'batchInterval',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Pause between batches, in milliseconds; a batch is as many items as are in flight. 0 sends continuously. Read once per execution, from the first item.',
		},
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
			default: INITIAL_LIMIT,
			description: `Pins how many requests are in flight at once (1 = one after another). Leave this option out to let the node adapt: it starts at ${INITIAL_LIMIT} and rises to at most ${ADAPTIVE_CEILING} while answers come back quickly, holds or backs off when they slow down, and slows to the service's pace when it answers HTTP 429. Without this option, every execution sending to the same service (credential and Base URL) in this n8n process shares one pace. Read once per execution, from the first item.`,
		},
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			// On when added: a user who adds Dry Run means "don't send". Absent means off.
			default: true,
			description:
				'Whether to check each item and output the exact request that would be sent (method, URL, body; the key masked) without sending anything. Turn off, or remove the option, to send.',
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
			displayName: 'Rate Limit Max Wait (Seconds)',
			name: 'rateLimitMaxWait',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_RATE_LIMIT_MAX_WAIT_S,
			description:
				'How long one item may wait in total while the service answers HTTP 429 (too many requests), in seconds; then the item fails. 0 never resends a 429. No other failure is ever resent: it may already have been delivered. Read once per execution.',
		},
		{
			displayName: 'Send Once History Size',
			name: 'dedupeHistorySize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_DEDUPE_HISTORY_SIZE },
			default: DEFAULT_DEDUPE_HISTORY_SIZE,
			description:
				'How many Send Once Per Key keys this node remembers, the newest ones (like the Remove Duplicates node\'s History Size). An item whose key was forgotten is sent again. Each check reads the whole list, so a larger size makes every keyed send a little slower.',
		},
		{
			displayName: 'Send Once Per Key',
			name: 'dedupeKey',
			type: 'string',
			default: '',
			placeholder: '={{ $json.orderId }}',
			description:
				'A key per message, e.g. an order ID. An item whose key this node already sent, or may have sent (the service gave no clear answer), in any execution, is skipped and marked as such, so re-running a failed execution sends only what certainly did not go out. Empty sends every item.',
		},
		{
			displayName: 'Timeout (Milliseconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_MS,
			description:
				'How long one request may take in all (connecting, waiting, reading the answer), in milliseconds',
		},
	],
};

/** The Options every send has, plus the template's language policy. */
export const templateOptionsField: INodeProperties = {
	...optionsField,
	options: [
		...(optionsField.options as INodeProperties[]),
		{
			displayName: ITEM_OPTIONS_LABELS.languagePolicy.label,
			name: 'languagePolicy',
			type: 'string',
			default: LANGUAGE_POLICY,
			description: `How the service picks the template’s language. The service documents only "${LANGUAGE_POLICY}"; change it only if the operator tells you to.`,
		} satisfies INodeProperties,
	].sort((a, b) => a.displayName.localeCompare(b.displayName)),
};

/** What only an SMS has: a cap on its segments, and look-alike characters replaced (docs/sms-segments.md). */
const smsOptions: INodeProperties[] = [
	{
		displayName: 'Max SMS Segments',
		name: 'maxSmsSegments',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_SMS_PARTS },
		default: 0,
		description:
			'Refuse, before anything is sent, an item whose SMS needs more segments (each billed as one SMS: 160 GSM-7 characters in one, 153 per segment when split; 70 and 67 once a character outside GSM-7, such as an emoji or a curly quote, is in it). 0 means no limit.',
	},
	{
		displayName: 'Replace Look-Alike Characters',
		name: 'replaceLookAlikes',
		type: 'boolean',
		// On when added, as Dry Run: a user who adds it means "replace". Absent means off.
		default: true,
		description:
			'Whether to replace, in the SMS text, characters that look like GSM-7 ones (curly quotes, long dashes, ellipsis, non-breaking spaces) with those, so one pasted character does not make the whole SMS UCS-2 (70 characters per SMS instead of 160)',
	},
];

const withSmsOptions = (base: INodeProperties): INodeProperties => ({
	...base,
	options: [...(base.options as INodeProperties[]), ...smsOptions].sort((a, b) => a.displayName.localeCompare(b.displayName)),
});

/** The Options of an operation that sends an SMS. */
export const smsOptionsField: INodeProperties = withSmsOptions(optionsField);

/** The Options of a combined send: the template's and the SMS's. */
export const smsTemplateOptionsField: INodeProperties = withSmsOptions(templateOptionsField);
