/**
 * Fuzzed validation: more than 10,000 generated invalid inputs across the four sends must each
 * be refused with an error that names the field by its UI label, and not one request may reach
 * the sandbox. Inputs are batched as the items of one execution per parameter shape (continue
 * on fail on, so each item yields its own error item), and a sample also runs without continue
 * on fail, mixed behind valid items, where the whole run must stop before sending anything.
 *
 * Every generated input is first confirmed invalid independently of the node, by the spec rule its
 * category breaks applied to the bad value alone (test/fixtures/specRules.ts; no second
 * implementation of the node's field-to-body mapping). The categories are in
 * test/helpers/invalidCategories.ts. Reproduce a run with RELIABILITY_SEED=<seed printed below>.
 */
import fc from 'fast-check';
import type { INodeExecutionData, IPairedItemData } from 'n8n-workflow';

import { runNode } from '../helpers/engine';
import type { InvalidCase } from '../helpers/invalidCategories';
import { CATEGORIES, hash } from '../helpers/invalidCategories';
import { batchCases, hasValidFallback, MISSING, toWorkflowInput } from '../helpers/perItem';
import { fuzzSeed, recordFigures } from '../helpers/reliabilityFigures';
import { credentialsFor, useSandbox } from '../helpers/sandbox';

const SEED = fuzzSeed();

const sandbox = useSandbox();

function shorten(value: unknown, max = 160): string {
	let text: string;
	if (value === MISSING) text = '(missing)';
	else if (typeof value === 'string') text = JSON.stringify(value);
	else text = JSON.stringify(value) ?? String(value);
	return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** Null when the item is the expected error item, else what is wrong with it. */
function problemWith(output: INodeExecutionData | undefined, itemIndex: number, label: string): string | null {
	if (!output) return 'no output item';
	const paired = output.pairedItem as IPairedItemData | undefined;
	if (paired?.item !== itemIndex) return `pairedItem is ${JSON.stringify(output.pairedItem)}`;
	const { error, httpCode, description } = output.json;
	if (typeof error !== 'string') return `not an error item: ${shorten(output.json)}`;
	if (httpCode !== undefined) return `the service answered (a request was sent): ${shorten(error)}`;
	return namesField(error, itemIndex, label, description)
		? null
		: `error does not name "${label}": ${shorten(error, 300)}`;
}

/**
 * The error is about the field: its title starts with the label ("Item 2: To must be …"), or, when
 * the item has several problems ("Item 2: 3 problems (…)"), one of the listed problems does.
 */
function namesField(message: string, itemIndex: number, label: string, description?: unknown): boolean {
	const startsWithLabel = (text: string) =>
		text.startsWith(label) && (text.length === label.length || text[label.length] === ' ');
	const prefix = `Item ${itemIndex}: `;
	if (!message.startsWith(prefix)) return false;
	if (startsWithLabel(message.slice(prefix.length))) return true;
	if (!/^\d+ problems \(/.test(message.slice(prefix.length)) || typeof description !== 'string') return false;
	return description.split('\n').some((line) => line.startsWith('• ') && startsWithLabel(line.slice(2)));
}

interface Failure {
	category: string;
	item: number;
	input: string;
	problem: string;
}

const generated = new Map<string, { cases: InvalidCase[]; discarded: number }>();
let totalCases = 0;

beforeAll(() => {
	// Printed so a failing run can be reproduced exactly.
	console.log(`reliability fuzz seed: ${SEED} (set RELIABILITY_SEED to change it)`);
	for (const item of CATEGORIES) {
		const result = item.generate(SEED);
		generated.set(item.name, result);
		totalCases += result.cases.length;
	}
});


describe(`invalid inputs are refused naming the field, nothing is sent (seed ${SEED})`, () => {
	test('more than 10,000 generated invalid inputs, batched with continue-on-fail', async () => {
		const started = Date.now();
		const failures: Failure[] = [];
		let executions = 0;
		let checked = 0;
		const perCategory: Record<
			string,
			{ label: string; inputs: number; discardedAsValid: number; failures: number; example?: { input: string; error: string } }
		> = {};

		for (const item of CATEGORIES) {
			const { cases, discarded } = generated.get(item.name) ?? { cases: [], discarded: 0 };
			let categoryFailures = 0;
			let example: { input: string; error: string } | undefined;
			for (const batch of batchCases(cases, (testCase) => testCase.params)) {
				executions++;
				const { output, error } = await runNode({
					parameters: batch.parameters,
					items: batch.items,
					credentials: credentialsFor(sandbox()),
					continueOnFail: true,
				});
				if (output?.length !== batch.items.length) {
					failures.push({
						category: item.name,
						item: -1,
						input: `${batch.items.length} items`,
						problem: `got ${output?.length ?? 0} output items${error ? `; the run failed: ${error.name}: ${error.message}` : ''}`,
					});
				}
				batch.cases.forEach((testCase, index) => {
					checked++;
					example ??= { input: shorten(testCase.bad, 60), error: shorten(output?.[index]?.json.error, 200) };
					const problem = problemWith(output?.[index], index, testCase.label);
					if (problem !== null) {
						categoryFailures++;
						failures.push({ category: item.name, item: index, input: shorten(testCase.bad), problem });
					}
				});
			}
			perCategory[item.name] = {
				label: item.label,
				inputs: cases.length,
				discardedAsValid: discarded,
				failures: categoryFailures,
				example,
			};
		}

		const requests = sandbox().requests.length;
		recordFigures('invalid-inputs', {
			seed: SEED,
			invalidInputs: checked,
			executions,
			categories: perCategory,
			requestsReceived: requests,
			failures: failures.length,
			failureExamples: failures.slice(0, 20),
			durationMs: Date.now() - started,
		});

		expect(checked).toBeGreaterThanOrEqual(10_000);
		expect(checked).toBe(totalCases);
		expect(failures.slice(0, 10)).toEqual([]);
		expect(failures).toHaveLength(0);
		expect(requests).toBe(0);
	}, 180_000);

	test('without continue-on-fail, one invalid item behind valid ones stops the run before anything is sent', async () => {
		const failures: Failure[] = [];
		let runs = 0;
		for (const item of CATEGORIES) {
			const { cases } = generated.get(item.name) ?? { cases: [] };
			const sample = fc.sample(fc.constantFrom(...cases), { seed: SEED + hash(item.name), numRuns: 4 });
			for (const testCase of sample) {
				runs++;
				// Valid items first (when the field has a valid value to put there), the invalid one last.
				const mixed = hasValidFallback(testCase.params) && testCase.bad !== MISSING;
				const bad = toWorkflowInput(testCase.params);
				const items = mixed ? [...Array.from({ length: 3 }, () => toWorkflowInput(testCase.params, { useValid: true }).item), bad.item] : [bad.item];
				const invalidIndex = items.length - 1;
				const { output, error } = await runNode({ parameters: bad.parameters, items, credentials: credentialsFor(sandbox()) });
				const problem =
					output !== undefined
						? `the run succeeded with ${output.length} items`
						: error?.name !== 'NodeOperationError'
							? `${error?.name}: ${error?.message}`
							: !namesField(error.message, invalidIndex, testCase.label, error.description)
								? `error does not name "${testCase.label}": ${shorten(error.message, 300)}`
								: sandbox().requests.length > 0
									? `${sandbox().requests.length} requests reached the sandbox`
									: null;
				if (problem !== null) failures.push({ category: item.name, item: invalidIndex, input: shorten(testCase.bad), problem });
			}
		}
		recordFigures('invalid-inputs', { failFastRuns: runs, failFastFailures: failures.length, failFastExamples: failures.slice(0, 10) });
		expect(failures.slice(0, 10)).toEqual([]);
		expect(sandbox().requests).toHaveLength(0);
	}, 120_000);
});
