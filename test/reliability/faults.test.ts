/**
 * Fault injection through the sandbox, on each of the four sends: 5xx, 429 with and without
 * Retry-After, a response that never comes, a reset connection, a non-JSON body, a 2xx whose
 * message is an error, and each of those after the message was already delivered. For every
 * fault: a clear NodeApiError with the HTTP code and the service's text; with continue-on-fail
 * exactly one output item per input item with the right pairedItem; the sandbox's records prove
 * no message was sent twice; and a distinctive API key appears nowhere — not in the output, the
 * error, the serialised run, nor anything n8n or the node logged.
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject, INodeExecutionData, INodeParameters, IPairedItemData } from 'n8n-workflow';

import type { Fault, Sandbox } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';
import { runNode } from '../helpers/engine';
import type { LogCapture } from '../helpers/logCapture';
import { captureLogs, findSecret } from '../helpers/logCapture';
import { recordFigures } from '../helpers/reliabilityFigures';
import type { SendKind } from '../fixtures/sends';
import { OPERATION, SEND_KINDS } from '../fixtures/sends';

/** Distinctive, random per run: a match anywhere can only be a leak. */
const API_KEY = `mcn-live-${randomBytes(20).toString('hex')}`;
const CHAT_STARTED = '+6281300000003';
const SHORT_TIMEOUT_MS = 500;
const NORMAL_TIMEOUT_MS = 15000;
/**
 * The short limit when five requests start together: any of them may take the hanging answer, so
 * the four answered at once share it. Five seconds is far above a prompt answer from this machine
 * even with every core over-committed; only the faulted request waits it out.
 */
const PARALLEL_SHORT_TIMEOUT_MS = 5000;

interface Scenario {
	name: string;
	faults: Fault[];
	/** The item hit by the fault: its error, or 'success' for a fault the node recovers from. */
	expect: { message: RegExp; httpCode?: string } | 'success';
	/** For a fault after which the message may have gone out: the error must say so. */
	mayHaveBeenDelivered?: boolean;
	/** How many times the faulted body reaches the sandbox, and how many times it is delivered. */
	received: number;
	delivered: number;
	timeout?: number;
	rateLimitRetries?: number;
}

const SCENARIOS: Scenario[] = [
	{ name: 'HTTP 500', mayHaveBeenDelivered: true, faults: [{ kind: 'status', status: 500, message: 'internal failure' }], expect: { message: /^The service answered HTTP 500: internal failure$/, httpCode: '500' }, received: 1, delivered: 0 },
	{ name: 'HTTP 502', mayHaveBeenDelivered: true, faults: [{ kind: 'status', status: 502 }], expect: { message: /^The service answered HTTP 502: Bad Gateway$/, httpCode: '502' }, received: 1, delivered: 0 },
	{ name: 'HTTP 429 with Retry-After, no retries', faults: [{ kind: 'status', status: 429, message: 'slow down', retryAfter: '1' }], expect: { message: /^The service answered HTTP 429: slow down$/, httpCode: '429' }, received: 1, delivered: 0, rateLimitRetries: 0 },
	{ name: 'HTTP 429 without Retry-After, no retries', faults: [{ kind: 'status', status: 429, message: 'too many requests' }], expect: { message: /^The service answered HTTP 429: too many requests$/, httpCode: '429' }, received: 1, delivered: 0, rateLimitRetries: 0 },
	{ name: 'no answer (timeout)', mayHaveBeenDelivered: true, faults: [{ kind: 'timeout' }], expect: { message: new RegExp(`did not answer within ${SHORT_TIMEOUT_MS} ms`) }, received: 1, delivered: 0, timeout: SHORT_TIMEOUT_MS },
	{ name: 'connection reset', mayHaveBeenDelivered: true, faults: [{ kind: 'reset' }], expect: { message: /^Could not reach the service\b/ }, received: 1, delivered: 0 },
	{ name: 'non-JSON body with 200', mayHaveBeenDelivered: true, faults: [{ kind: 'nonJson' }], expect: { message: /^The service did not confirm the send \(HTTP 200\): a non-JSON answer$/, httpCode: '200' }, received: 1, delivered: 0 },
	{ name: 'non-JSON body with 502', mayHaveBeenDelivered: true, faults: [{ kind: 'nonJson', status: 502 }], expect: { message: /^The service answered HTTP 502: a non-JSON answer$/, httpCode: '502' }, received: 1, delivered: 0 },
	{ name: '2xx with an error message', mayHaveBeenDelivered: true, faults: [{ kind: 'errorMessage', message: 'quota exceeded' }], expect: { message: /^The service did not confirm the send \(HTTP 200\): quota exceeded$/, httpCode: '200' }, received: 1, delivered: 0 },
	{ name: 'HTTP 500 after delivery', mayHaveBeenDelivered: true, faults: [{ kind: 'status', status: 500, message: 'lost the answer', afterDelivery: true }], expect: { message: /^The service answered HTTP 500: lost the answer$/, httpCode: '500' }, received: 1, delivered: 1 },
	{ name: 'no answer after delivery (timeout)', mayHaveBeenDelivered: true, faults: [{ kind: 'timeout', afterDelivery: true }], expect: { message: new RegExp(`did not answer within ${SHORT_TIMEOUT_MS} ms`) }, received: 1, delivered: 1, timeout: SHORT_TIMEOUT_MS },
	{ name: 'connection reset after delivery', mayHaveBeenDelivered: true, faults: [{ kind: 'reset', afterDelivery: true }], expect: { message: /^Could not reach the service\b/ }, received: 1, delivered: 1 },
	{ name: 'non-JSON body after delivery', mayHaveBeenDelivered: true, faults: [{ kind: 'nonJson', afterDelivery: true }], expect: { message: /^The service did not confirm the send \(HTTP 200\): a non-JSON answer$/, httpCode: '200' }, received: 1, delivered: 1 },
	{ name: '2xx with an error message after delivery', mayHaveBeenDelivered: true, faults: [{ kind: 'errorMessage', message: 'queued twice?', afterDelivery: true }], expect: { message: /^The service did not confirm the send \(HTTP 200\): queued twice\?$/, httpCode: '200' }, received: 1, delivered: 1 },
	{ name: 'HTTP 429 after delivery, no retries', faults: [{ kind: 'status', status: 429, afterDelivery: true }], expect: { message: /^The service answered HTTP 429: Too Many Requests$/, httpCode: '429' }, received: 1, delivered: 1, rateLimitRetries: 0 },
	{ name: 'HTTP 429 then accepted on the retry', faults: [{ kind: 'status', status: 429, retryAfter: '0' }], expect: 'success', received: 2, delivered: 1, rateLimitRetries: 1 },
	{ name: 'the service echoes the API key in a 401', faults: [{ kind: 'status', status: 401, message: `invalid key ${API_KEY}` }], expect: { message: /^The service answered HTTP 401: invalid key \*\*\*$/, httpCode: '401' }, received: 1, delivered: 0 },
	{ name: 'the service echoes the API key in a 2xx error', faults: [{ kind: 'errorMessage', message: `key ${API_KEY} is over quota` }], expect: { message: /^The service did not confirm the send \(HTTP 200\): key \*\*\* is over quota$/, httpCode: '200' }, received: 1, delivered: 0 },
];

/** One send's parameters reading everything per item, and the labels its invalid item must name. */
function parametersFor(kind: SendKind, options: INodeParameters): INodeParameters {
	const template = {
		from: '+6281100000001',
		to: '={{ $json.phone }}',
		templateName: 'order_update',
		languageCode: 'id',
		componentsInputMode: 'fields',
		bodyParameters: { parameter: [{ text: '={{ $json.text }}' }] },
	};
	switch (kind) {
		case 'sms':
			return { ...OPERATION.sms, phoneNumber: '={{ $json.phone }}', message: '={{ $json.text }}', options };
		case 'media':
			return {
				...OPERATION.media,
				from: '+6281100000001',
				to: CHAT_STARTED,
				mediaType: 'image',
				mediaUrl: '={{ $json.url }}',
				caption: '={{ $json.text }}',
				options,
			};
		case 'template':
			return { ...OPERATION.template, ...template, options };
		case 'combined':
			return { ...OPERATION.combined, ...template, smsPhoneNumber: '={{ $json.smsPhone }}', smsMessage: '={{ $json.text }}', options };
	}
}

const INVALID: Record<SendKind, { item: IDataObject; label: string }> = {
	sms: { item: { phone: '0812 not a number', text: 'x' }, label: 'Phone Number' },
	media: { item: { url: 'http://cdn.example.com/plain.png', text: 'x' }, label: 'Media URL' },
	template: { item: { phone: 'abc', text: 'x' }, label: 'To' },
	combined: { item: { phone: '+6281200000002', smsPhone: '+15551234567', text: 'x' }, label: 'SMS Phone Number' },
};

/** `timeout` is read per item, so only the item meant to meet a hanging answer gets the short one. */
function validItem(marker: string, timeout = NORMAL_TIMEOUT_MS): IDataObject {
	return {
		timeout,
		phone: '+6281200000002',
		smsPhone: '+6281200000002',
		url: `https://cdn.example.com/${marker}.png`,
		text: `Pesanan ${marker} dikirim`,
	};
}

let sandbox: Sandbox;
let logs: LogCapture;
const totals = {
	runs: 0,
	faultsInjected: 0,
	itemsIn: 0,
	continueOnFailItemsIn: 0,
	continueOnFailItemsOut: 0,
	requestsReceived: 0,
	delivered: 0,
	duplicateDeliveries: 0,
	resentAfterUnsafeFault: 0,
	textsScanned: 0,
	logLinesScanned: 0,
	leaks: 0,
};
const leakReports: string[] = [];

beforeAll(async () => {
	logs = captureLogs();
	sandbox = await startSandbox({ port: 0, apiKey: API_KEY, startedChats: [CHAT_STARTED] });
});

afterAll(async () => {
	logs.restore();
	await sandbox.stop();
	recordFigures('faults', { scenarios: SCENARIOS.map((scenario) => scenario.name), ...totals, leakReports });
});

/** Everything a user, a log collector or an execution store could see of one run. */
function scanForKey(label: string, ...texts: unknown[]): string[] {
	const everything = [...texts.map((text) => (typeof text === 'string' ? text : JSON.stringify(text))), logs.text()].join('\n');
	totals.textsScanned += texts.length;
	totals.logLinesScanned += logs.lines.length;
	const found = findSecret(everything, API_KEY).map((excerpt) => `${label}: …${excerpt}…`);
	totals.leaks += found.length;
	leakReports.push(...found);
	return found;
}

function sandboxCounts(marker: string) {
	const matching = sandbox.requests.filter((request) => request.rawBody.includes(marker));
	return { received: matching.length, delivered: matching.filter((request) => request.delivered).length };
}

function account(items: number, output: INodeExecutionData[] | undefined, continueOnFail: boolean) {
	const stats = sandbox.stats();
	totals.runs++;
	totals.itemsIn += items;
	if (continueOnFail) {
		totals.continueOnFailItemsIn += items;
		totals.continueOnFailItemsOut += output?.length ?? 0;
	}
	totals.requestsReceived += stats.received;
	totals.delivered += stats.delivered;
	totals.duplicateDeliveries += stats.duplicateBodies;
	return stats;
}

function optionsFor(scenario: Scenario, concurrency: number): INodeParameters {
	return {
		phoneNumberFormat: 'strict',
		concurrency,
		timeout: '={{ $json.timeout }}',
		// The scenarios count 429 retries; the option is a total wait budget (0 = never resend a 429).
		rateLimitMaxWait: (scenario.rateLimitRetries ?? 0) > 0 ? 60 : 0,
	};
}

describe.each(SCENARIOS)('fault: $name', (scenario) => {
	beforeEach(() => {
		sandbox.reset();
		logs.clear();
	});

	test.each(SEND_KINDS)('%s, continue-on-fail: one item per input item, right pairedItem, nothing sent twice', async (kind) => {
		const tag = `${SCENARIOS.indexOf(scenario)}-${kind}-cof`;
		const markers = [1, 2, 3].map((index) => `${tag}-${index}`);
		// Item 0 is invalid (never sent), so the first request, which takes the fault, is item 1.
		const faultTimeout = scenario.timeout ?? NORMAL_TIMEOUT_MS;
		const items = [INVALID[kind].item, validItem(markers[0], faultTimeout), validItem(markers[1]), validItem(markers[2])];
		scenario.faults.forEach((fault) => sandbox.injectFault(fault));
		totals.faultsInjected += scenario.faults.length;

		const { output, error, run } = await runNode({
			parameters: parametersFor(kind, optionsFor(scenario, 1)),
			items,
			credentials: { apiKey: API_KEY, baseUrl: sandbox.url },
			continueOnFail: true,
		});
		const stats = account(items.length, output, true);

		expect(error).toBeUndefined();
		expect(output).toHaveLength(items.length);
		output?.forEach((item, index) => expect((item.pairedItem as IPairedItemData).item).toBe(index));
		expect(String(output?.[0].json.error)).toMatch(new RegExp(`^Item 0: ${INVALID[kind].label} `));

		const hit = output?.[1].json ?? {};
		if (scenario.expect === 'success') {
			expect(hit.message).toBe('success');
		} else {
			expect(String(hit.error)).toMatch(scenario.expect.message);
			expect(hit.httpCode).toBe(scenario.expect.httpCode);
			expect(String(hit.description ?? '')).not.toBe('');
			if (scenario.mayHaveBeenDelivered) expect(String(hit.description)).toMatch(/may or may not have been delivered/);
		}
		expect(output?.[2].json.message).toBe('success');
		expect(output?.[3].json.message).toBe('success');

		expect(sandboxCounts(markers[0])).toEqual({ received: scenario.received, delivered: scenario.delivered });
		expect(sandboxCounts(markers[1])).toEqual({ received: 1, delivered: 1 });
		expect(sandboxCounts(markers[2])).toEqual({ received: 1, delivered: 1 });
		expect(stats.duplicateBodies).toBe(0);
		expect(stats.pendingFaults).toBe(0);
		expect(scanForKey(`${scenario.name} / ${kind} / continue-on-fail`, output, run)).toEqual([]);
	});

	const expectedError = scenario.expect === 'success' ? undefined : scenario.expect;
	const stopOnErrorTest = expectedError ? test.each(SEND_KINDS) : () => undefined;
	stopOnErrorTest('%s, stop on error: NodeApiError naming the HTTP code and text, nothing after it sent', async (kind) => {
		if (!expectedError) throw new Error('unreachable: only defined for failing scenarios');
		const tag = `${SCENARIOS.indexOf(scenario)}-${kind}-stop`;
		const markers = [1, 2, 3].map((index) => `${tag}-${index}`);
		scenario.faults.forEach((fault) => sandbox.injectFault(fault));
		totals.faultsInjected += scenario.faults.length;

		const { output, error, run } = await runNode({
			parameters: parametersFor(kind, optionsFor(scenario, 1)),
			items: markers.map((marker, index) => validItem(marker, index === 0 ? (scenario.timeout ?? NORMAL_TIMEOUT_MS) : NORMAL_TIMEOUT_MS)),
			credentials: { apiKey: API_KEY, baseUrl: sandbox.url },
		});
		const stats = account(markers.length, output, false);

		expect(output).toBeUndefined();
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toMatch(expectedError.message);
		expect(error?.httpCode ?? undefined).toBe(expectedError.httpCode);
		expect(error?.context?.itemIndex).toBe(0);
		if (scenario.mayHaveBeenDelivered) expect(error?.description).toMatch(/may or may not have been delivered/);
		// One at a time: the failing first item stops the run, so the others are never sent.
		expect(sandboxCounts(markers[0])).toEqual({ received: scenario.received, delivered: scenario.delivered });
		expect(stats.received).toBe(scenario.received);
		expect(stats.duplicateBodies).toBe(0);
		expect(scanForKey(`${scenario.name} / ${kind} / stop`, error, error?.message, error?.description, run)).toEqual([]);
	});

	test('sms, continue-on-fail with 5 requests in flight: every item accounted for once', async () => {
		const tag = `${SCENARIOS.indexOf(scenario)}-sms-parallel`;
		const markers = Array.from({ length: 8 }, (_, index) => `${tag}-${index}`);
		scenario.faults.forEach((fault) => sandbox.injectFault(fault));
		totals.faultsInjected += scenario.faults.length;

		const shortTimeout = scenario.timeout === undefined ? NORMAL_TIMEOUT_MS : PARALLEL_SHORT_TIMEOUT_MS;
		const { output, error, run } = await runNode({
			parameters: parametersFor('sms', optionsFor(scenario, 5)),
			// The first five start together and one of them takes the fault.
			items: markers.map((marker, index) => validItem(marker, index < 5 ? shortTimeout : NORMAL_TIMEOUT_MS)),
			credentials: { apiKey: API_KEY, baseUrl: sandbox.url },
			continueOnFail: true,
		});
		const stats = account(markers.length, output, true);

		expect(error).toBeUndefined();
		expect(output).toHaveLength(markers.length);
		// Whichever request arrived first took the fault; find it by its body.
		const faulted = sandbox.requests.find((request) => request.fault !== undefined);
		const faultedIndex = markers.findIndex((marker) => faulted?.rawBody.includes(`Pesanan ${marker} dikirim`));
		expect(faultedIndex).toBeGreaterThanOrEqual(0);
		output?.forEach((item, index) => {
			expect((item.pairedItem as IPairedItemData).item).toBe(index);
			const counts = sandboxCounts(`Pesanan ${markers[index]} dikirim`);
			if (index === faultedIndex) {
				expect(counts).toEqual({ received: scenario.received, delivered: scenario.delivered });
				if (scenario.timeout !== undefined) expect(String(item.json.error)).toContain(`did not answer within ${PARALLEL_SHORT_TIMEOUT_MS} ms`);
				else if (scenario.expect !== 'success') expect(String(item.json.error)).toMatch(scenario.expect.message);
			} else {
				expect(counts).toEqual({ received: 1, delivered: 1 });
				expect(item.json.message).toBe('success');
				expect((item.json.data as IDataObject).full_content).toBe(`Pesanan ${markers[index]} dikirim`);
			}
		});
		expect(stats.duplicateBodies).toBe(0);
		expect(scanForKey(`${scenario.name} / sms / parallel`, output, run)).toEqual([]);
	});
});

describe('unsafe faults are never retried', () => {
	test('a 5xx, a timeout or a reset is not sent again even with rate-limit retries on', async () => {
		sandbox.reset();
		const unsafe: Fault[] = [
			{ kind: 'status', status: 500 },
			{ kind: 'status', status: 503, retryAfter: '0' },
			{ kind: 'timeout' },
			{ kind: 'reset' },
			{ kind: 'status', status: 500, afterDelivery: true },
		];
		unsafe.forEach((fault) => sandbox.injectFault(fault));
		totals.faultsInjected += unsafe.length;
		const markers = unsafe.map((_, index) => `unsafe-${index}`);

		const { output, run } = await runNode({
			parameters: parametersFor('sms', { phoneNumberFormat: 'strict', concurrency: 1, rateLimitMaxWait: 60, timeout: SHORT_TIMEOUT_MS }),
			items: markers.map((marker) => validItem(marker)),
			credentials: { apiKey: API_KEY, baseUrl: sandbox.url },
			continueOnFail: true,
		});
		const stats = account(markers.length, output, true);

		expect(output).toHaveLength(markers.length);
		markers.forEach((marker, index) => {
			const counts = sandboxCounts(marker);
			if (counts.received !== 1) totals.resentAfterUnsafeFault++;
			expect(counts).toEqual({ received: 1, delivered: index === 4 ? 1 : 0 });
			expect(output?.[index].json.error).toEqual(expect.any(String));
		});
		expect(stats.received).toBe(markers.length);
		expect(scanForKey('unsafe faults', output, run)).toEqual([]);
	});
});
