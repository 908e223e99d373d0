/**
 * Generated valid inputs for the four sends, with Unicode, padding the node trims, numbers given
 * where text is expected, long messages and every combination of template parts. The sandbox
 * (an independent implementation of the spec) must accept every request the node sends, each
 * item must come out as the service's answer with its pairedItem, and each delivered body must
 * carry every value the item gave (as given, or trimmed), so no value is lost or swapped with
 * another item's. The exact body of each request shape is checked against spec-written fixtures
 * in the operation tests (test/fixtures/requests/); here nothing re-implements the node's
 * field-to-body mapping. Numbers are generated already in E.164 and the node is told
 * `phoneNumberFormat: 'strict'`, so they are sent as given whatever the default.
 */

import fc from 'fast-check';
import type { IPairedItemData } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox/server';
import { runNode } from '../helpers/engine';
import { validTreeArbitrary } from '../helpers/validInputs';
import { batchCases, resolve } from '../helpers/perItem';
import { fuzzSeed, recordFigures } from '../helpers/reliabilityFigures';
import type { SendKind } from '../fixtures/sends';
import { SEND_KINDS } from '../fixtures/sends';
import { credentialsFor, useSandbox } from '../helpers/sandbox';

type Params = Record<string, unknown>;

const SEED = fuzzSeed();
const PER_SEND = 300;

const sandbox = useSandbox();

/** Parameters that choose what to send, not values that are sent. */
const SELECTORS = new Set(['resource', 'operation', 'componentsInputMode', 'phoneNumberFormat']);

/** The values a user gave: every leaf of the parameters (a JSON text in JSON mode parsed), selectors left out. */
function givenValues(tree: unknown, key = ''): unknown[] {
	if (SELECTORS.has(key)) return [];
	if (typeof tree === 'string' && key === 'componentsJson') return givenValues(JSON.parse(tree) as unknown);
	if (Array.isArray(tree)) return tree.flatMap((entry) => givenValues(entry));
	if (tree !== null && typeof tree === 'object') return Object.entries(tree).flatMap(([name, value]) => givenValues(value, name));
	return [tree];
}

function stringsIn(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(stringsIn);
	if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
	return [];
}

/** The given values that are not in the body as text (as given, or trimmed); blank ones may be left out. */
function missingValues(params: Params, body: unknown): string[] {
	const sent = new Set(stringsIn(body));
	return givenValues(params)
		.map((value) => String(value))
		.filter((text) => text.trim() !== '' && !sent.has(text) && !sent.has(text.trim()));
}

function idOf(kind: SendKind, json: Params): unknown {
	const data = json.data as Params | undefined;
	return kind === 'combined' ? data?.request_id : data?.id;
}

describe(`generated valid inputs are all accepted by the sandbox (seed ${SEED})`, () => {
	const figures: Record<
		string,
		{
			inputs: number;
			executions: number;
			received: number;
			delivered: number;
			duplicateBodies: number;
			problems: number;
			problemExamples: string[];
		}
	> = {};

	afterAll(() => recordFigures('valid-inputs', { seed: SEED, perSend: figures }));

	test.each(SEND_KINDS)('%s', async (kind) => {
		const cases = fc.sample(validTreeArbitrary(kind), { seed: SEED + SEND_KINDS.indexOf(kind), numRuns: PER_SEND });
		const given = cases.map((tree) => resolve(tree) as Params);
		if (kind === 'media') {
			// Media goes only to numbers that started the chat (spec, endpoint 1, rule 1).
			for (const params of given) sandbox().startChat(String(params.to).trim());
		}

		const problems: string[] = [];
		const byCase = new Map(cases.map((tree, index) => [tree, index]));
		const batches = batchCases(cases, (tree) => tree);
		for (const batch of batches) {
			const { output, error } = await runNode({
				parameters: batch.parameters,
				items: batch.items,
				credentials: credentialsFor(sandbox()),
				continueOnFail: true,
			});
			if (output?.length !== batch.items.length) {
				problems.push(`${batch.items.length} items in, ${output?.length ?? 0} out${error ? `: ${error.message}` : ''}`);
				continue;
			}
			const delivered = new Map<unknown, RecordedRequest>(sandbox().deliveries().map((request) => [request.id, request]));
			batch.cases.forEach((tree, index) => {
				const item = output[index];
				const params = given[byCase.get(tree) ?? -1];
				if ((item.pairedItem as IPairedItemData).item !== index) {
					problems.push(`item ${index}: pairedItem ${JSON.stringify(item.pairedItem)}`);
				} else if (item.json.message !== 'success') {
					problems.push(`item ${index}: ${JSON.stringify(item.json).slice(0, 400)} for ${JSON.stringify(params).slice(0, 400)}`);
				} else {
					const request = delivered.get(idOf(kind, item.json));
					if (!request) problems.push(`item ${index}: no delivery with the id the node output`);
					else {
						const missing = missingValues(params, request.body);
						if (missing.length > 0) {
							problems.push(`item ${index}: sent ${request.rawBody.slice(0, 300)}, without ${JSON.stringify(missing).slice(0, 200)}`);
						}
					}
				}
			});
		}

		const stats = sandbox().stats();
		figures[kind] = {
			inputs: cases.length,
			executions: batches.length,
			received: stats.received,
			delivered: stats.delivered,
			duplicateBodies: stats.duplicateBodies,
			problems: problems.length,
			problemExamples: problems.slice(0, 5),
		};
		expect(problems.slice(0, 10)).toEqual([]);
		expect(stats.received).toBe(cases.length);
		expect(stats.delivered).toBe(cases.length);
		expect(stats.byStatus).toEqual({ '200': cases.length });
		expect(stats.duplicateBodies).toBe(0);
	}, 120_000);
});
