/**
 * Load: 10,000 items in ONE execution against the sandbox. Every message must be received
 * exactly once (counted by the ids the sandbox issued and by each item's own text), and the
 * output must hold exactly one item per input item, in order, each with its pairedItem and the
 * id of its own delivery. A second run sprinkles faults over the stream: nothing is lost,
 * nothing is sent twice, and exactly the faulted items come out as errors.
 */
import type { IDataObject, INodeParameters, IPairedItemData } from 'n8n-workflow';

import type { Fault, Sandbox } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';
import { runNode } from '../helpers/engine';
import { recordFigures } from '../helpers/reliabilityFigures';
import { OPERATION } from '../fixtures/sends';

const ITEMS = 10_000;
const API_KEY = 'load-test-key-7c1d';

const parameters = (options: INodeParameters): INodeParameters => ({
	...OPERATION.sms,
	phoneNumber: '={{ $json.phone }}',
	message: '={{ $json.text }}',
	options: { phoneNumberFormat: 'strict', ...options },
});

const textOf = (run: string, index: number) => `Pesan ${run} #${index}: pesanan Anda sedang dikirim`;

function inputItems(run: string): IDataObject[] {
	return Array.from({ length: ITEMS }, (_, index) => ({
		phone: `+628${String(1_000_000_000 + index)}`,
		text: textOf(run, index),
	}));
}

/**
 * Each test's time limit: 10,000 real https requests through n8n's engine take about a minute on
 * a quiet 2-core machine; the limit leaves room for the same machine with every core several
 * times over-committed (the suite is proven beside six busy loops). Only a run that stopped
 * making progress reaches it.
 */
const LOAD_TEST_TIMEOUT_MS = 1_200_000;

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, apiKey: API_KEY });
});

afterAll(async () => {
	await sandbox.stop();
});

beforeEach(() => sandbox.reset());

test(`${ITEMS.toLocaleString('en')} items in one execution: every message received exactly once`, async () => {
	const started = Date.now();
	const { output, error } = await runNode({
		parameters: parameters({}),
		items: inputItems('load'),
		credentials: { apiKey: API_KEY, baseUrl: sandbox.url },
	});
	const durationMs = Date.now() - started;

	const stats = sandbox.stats();
	const deliveries = sandbox.deliveries();
	const ids = new Set(deliveries.map((request) => request.id));
	const texts = new Map<string, number>();
	for (const request of deliveries) {
		const text = (request.body as { message: string }).message;
		texts.set(text, (texts.get(text) ?? 0) + 1);
	}
	const idByText = new Map(deliveries.map((request) => [(request.body as { message: string }).message, request.id]));
	const mismatched = (output ?? []).filter(
		(item, index) =>
			(item.pairedItem as IPairedItemData).item !== index ||
			item.json.message !== 'success' ||
			(item.json.data as IDataObject).id !== idByText.get(textOf('load', index)),
	).length;
	recordFigures('load', {
		items: ITEMS,
		durationMs,
		outputItems: output?.length ?? 0,
		requestsReceived: stats.received,
		delivered: stats.delivered,
		uniqueIds: ids.size,
		duplicateBodies: stats.duplicateBodies,
		outputItemsNotMatchingTheirDelivery: mismatched,
	});

	expect(error).toBeUndefined();
	expect(output).toHaveLength(ITEMS);
	expect(stats.received).toBe(ITEMS);
	expect(stats.delivered).toBe(ITEMS);
	expect(ids.size).toBe(ITEMS);
	expect(stats.duplicateBodies).toBe(0);
	for (let index = 0; index < ITEMS; index++) expect(texts.get(textOf('load', index))).toBe(1);
	expect(mismatched).toBe(0);
}, LOAD_TEST_TIMEOUT_MS);

test(`${ITEMS.toLocaleString('en')} items with faults sprinkled in, continue-on-fail: none lost, none sent twice`, async () => {
	// One fault after every 45 requests or so, cycling through the kinds, while the run is under
	// way. Which items they hit depends on arrival order, so the sandbox's record of which
	// request took each fault is the reference, not a precomputed list.
	const kinds: Fault[] = [
		{ kind: 'status', status: 500 },
		{ kind: 'status', status: 502 },
		{ kind: 'reset' },
		{ kind: 'errorMessage', message: 'quota exceeded' },
		{ kind: 'status', status: 500, afterDelivery: true },
		{ kind: 'status', status: 429 },
		// Timeouts are covered in faults.test.ts: here every request keeps the default timeout, so a
		// slow machine cannot turn an unfaulted request into a failure.
	];
	let injected = 0;
	const injector = setInterval(() => {
		const arrived = sandbox.requests.length;
		while (injected < 200 && arrived >= injected * 45 && arrived < ITEMS - 500) {
			sandbox.injectFault(kinds[injected % kinds.length]);
			injected++;
		}
	}, 2);
	const started = Date.now();
	const { output, error } = await runNode({
		parameters: parameters({ rateLimitMaxWait: 0 }),
		items: inputItems('faulty'),
		credentials: { apiKey: API_KEY, baseUrl: sandbox.url },
		continueOnFail: true,
	});
	clearInterval(injector);
	const durationMs = Date.now() - started;
	const notTaken = sandbox.stats().pendingFaults;
	sandbox.clearFaults();

	const stats = sandbox.stats();
	const takers = sandbox.requests.filter((request) => request.fault !== undefined);
	const faulted = new Set(takers.map((request) => (request.body as { message: string }).message));
	const lostAnswers = takers.filter((request) => request.delivered).length;
	const receivedPerText = new Map<string, number>();
	for (const request of sandbox.requests) {
		const text = (request.body as { message: string }).message;
		receivedPerText.set(text, (receivedPerText.get(text) ?? 0) + 1);
	}
	const errorItems = (output ?? []).filter((item) => item.json.error !== undefined);
	const wrong = (output ?? []).filter((item, index) => {
		const expectedError = faulted.has(textOf('faulty', index));
		return (item.pairedItem as IPairedItemData).item !== index || (item.json.error !== undefined) !== expectedError;
	});
	const wrongOutcome = wrong.length;
	recordFigures('load', {
		faultyRun: {
			items: ITEMS,
			faultsInjected: injected,
			faultsTaken: takers.length,
			faultsNotReached: notTaken,
			durationMs,
			outputItems: output?.length ?? 0,
			errorItems: errorItems.length,
			requestsReceived: stats.received,
			delivered: stats.delivered,
			duplicateBodies: stats.duplicateBodies,
			itemsReceivedMoreThanOnce: [...receivedPerText.values()].filter((count) => count > 1).length,
			itemsWithWrongOutcome: wrongOutcome,
			wrongOutcomeExamples: wrong.slice(0, 5),
		},
	});

	expect(error).toBeUndefined();
	expect(output).toHaveLength(ITEMS);
	expect(takers.length).toBeGreaterThanOrEqual(100);
	expect(faulted.size).toBe(takers.length);
	// Every item reached the service exactly once: no fault was answered by a resend.
	expect(stats.received).toBe(ITEMS);
	expect([...receivedPerText.entries()].filter(([, count]) => count !== 1)).toEqual([]);
	expect(stats.duplicateBodies).toBe(0);
	expect(errorItems).toHaveLength(takers.length);
	expect(wrongOutcome).toBe(0);
	// Delivered: every unfaulted item, plus those whose answer was lost after delivery.
	expect(stats.delivered).toBe(ITEMS - takers.length + lostAnswers);
}, LOAD_TEST_TIMEOUT_MS);
