/**
 * Generated valid inputs for the four sends, with Unicode, padding the node trims, numbers given
 * where text is expected, long messages and every combination of template parts. The sandbox
 * (an independent implementation of the spec) must accept every request the node sends, each
 * item must come out as the service's answer with its pairedItem, and each delivered body must
 * be exactly the request the fields describe. Numbers are generated already in E.164 and the
 * node is told `phoneNumberFormat: 'strict'`, so they are sent as given whatever the default.
 */
import { isDeepStrictEqual } from 'node:util';

import fc from 'fast-check';
import type { IPairedItemData } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox/server';
import { runNode } from '../helpers/engine';
import { validTreeArbitrary } from '../helpers/inputArbitraries';
import { batchCases, resolve } from '../helpers/perItem';
import { fuzzSeed, recordFigures } from '../helpers/reliabilityFigures';
import type { SendKind } from '../helpers/requestModel';
import { requestFor, SEND_KINDS } from '../helpers/requestModel';
import { credentialsFor, useSandbox } from '../helpers/sandbox';

type Params = Record<string, unknown>;

const SEED = fuzzSeed();
const PER_SEND = 300;

const sandbox = useSandbox();


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
		const expected = cases.map((tree) => JSON.parse(JSON.stringify(requestFor(kind, resolve(tree) as Params))) as Params);
		if (kind === 'media') {
			// Media goes only to numbers that started the chat (spec, endpoint 1, rule 1).
			for (const body of expected) sandbox().startChat(body.to as string);
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
				const want = expected[byCase.get(tree) ?? -1];
				if ((item.pairedItem as IPairedItemData).item !== index) {
					problems.push(`item ${index}: pairedItem ${JSON.stringify(item.pairedItem)}`);
				} else if (item.json.message !== 'success') {
					problems.push(`item ${index}: ${JSON.stringify(item.json).slice(0, 400)} for ${JSON.stringify(want).slice(0, 400)}`);
				} else {
					const request = delivered.get(idOf(kind, item.json));
					if (!request) problems.push(`item ${index}: no delivery with the id the node output`);
					else if (!isDeepStrictEqual(request.body, want)) {
						problems.push(`item ${index}: sent ${request.rawBody.slice(0, 300)}, expected ${JSON.stringify(want).slice(0, 300)}`);
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
