/**
 * Hostile values the invalid-input fuzz (invalid-inputs.test.ts) led to, each run on its own: a
 * Components (JSON) nested thousands of levels deep, and a Timeout (Ms) from an expression that
 * the field itself would never allow. Each is refused naming the field, or made harmless, and
 * nothing the service could deliver is sent with it.
 */
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';

import { OPERATION } from '../fixtures/sends';
import { runNode } from '../helpers/engine';
import { fuzzSeed } from '../helpers/reliabilityFigures';
import { credentialsFor, useSandbox } from '../helpers/sandbox';
import { templateJsonTree, templateValues } from '../helpers/validInputs';

const SEED = fuzzSeed();

const sandbox = useSandbox();

describe('hostile shapes found while fuzzing', () => {
	test.each([2_000, 10_000])(
		'Components (JSON) nested %i levels deep is refused naming the field, not with a stack overflow',
		async (depth) => {
			const base = fc.sample(templateValues, { seed: SEED, numRuns: 1 })[0];
			const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
			const { output } = await runNode({
				parameters: templateJsonTree(base, nested) as INodeParameters,
				credentials: credentialsFor(sandbox()),
				continueOnFail: true,
			});
			const error = String(output?.[0]?.json.error);
			expect(error).toMatch(/^Item 0: (Components \(JSON\)|\d+ problems \(Components \(JSON\))/);
			expect(sandbox().requests).toHaveLength(0);
		},
	);
});

describe('hostile option values', () => {
	// A Timeout (Ms) of 0 or below can only come from an expression (the field's minimum is 1). It
	// must not turn every send into a request abandoned after a millisecond, which the service may
	// still deliver while the item reports a failure: either the value is refused before anything
	// is sent, naming the option, or a usable timeout is used instead.
	test.each([0, -1, 0.5])('Timeout (Ms) %p: refused naming the option, or the sends complete', async (timeout) => {
		const { output, error } = await runNode({
			parameters: {
				...OPERATION.sms,
				phoneNumber: '+6281234567890',
				message: '={{ "Kode " + $itemIndex }}',
				options: { phoneNumberFormat: 'strict', timeout: '={{ $json.timeout }}' },
			},
			items: [{ timeout }, { timeout }, { timeout }],
			credentials: credentialsFor(sandbox()),
			continueOnFail: true,
		});
		const outcomes = (output ?? []).map((item) => (item.json.message === 'success' ? 'sent' : String(item.json.error)));
		const sent = outcomes.length === 3 && outcomes.every((outcome) => outcome === 'sent');
		const refused =
			sandbox().requests.length === 0 &&
			(error ? /Timeout/.test(error.message) : outcomes.length === 3 && outcomes.every((outcome) => /Timeout/.test(outcome)));
		expect({ outcomes, error: error?.message, verdict: sent || refused ? 'ok' : 'sent with an unusable timeout' }).toMatchObject({
			verdict: 'ok',
		});
	});
});
