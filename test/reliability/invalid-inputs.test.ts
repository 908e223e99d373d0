/**
 * Fuzzed validation: more than 10,000 generated invalid inputs across the four sends must each
 * be refused with an error that names the field by its UI label, and not one request may reach
 * the sandbox. Inputs are batched as the items of one execution per parameter shape (continue
 * on fail on, so each item yields its own error item), and a sample also runs without continue
 * on fail, mixed behind valid items, where the whole run must stop before sending anything.
 *
 * Every generated input is first confirmed invalid independently of the node, by the spec rule its
 * category breaks applied to the bad value alone (test/fixtures/specRules.ts; no second
 * implementation of the node's field-to-body mapping). Reproduce a run with
 * RELIABILITY_SEED=<seed printed below>.
 */
import fc from 'fast-check';
import type { INodeExecutionData, INodeParameters, IPairedItemData } from 'n8n-workflow';

import { runNode } from '../helpers/engine';
import type { CombinedValues, MediaValues, SmsValues, TemplateValues } from '../helpers/validInputs';
import {
	badCaption,
	badComponentsJson,
	badHeaderLink,
	badLink,
	badMediaType,
	badPhoneAnyFormat,
	badPhoneStrict,
	badQuickReplies,
	badRequiredText,
	badUrlButton,
	wrongCountry,
} from '../helpers/invalidInputs';
import {
	combinedTree,
	combinedValues,
	componentsOf,
	mediaTree,
	mediaValues,
	smsTree,
	smsValues,
	templateJsonTree,
	templateTree,
	templateValues,
} from '../helpers/validInputs';
import { batchCases, hasValidFallback, MISSING, PerItem, toWorkflowInput } from '../helpers/perItem';
import { fuzzSeed, recordFigures } from '../helpers/reliabilityFigures';
import type { SendKind } from '../fixtures/sends';
import { OPERATION } from '../fixtures/sends';
import {
	breaksCaption,
	breaksComponents,
	breaksE164,
	breaksHttpsLink,
	breaksMediaType,
	breaksQuickReplies,
	breaksRequiredText,
	breaksSmsNumber,
	breaksUrlButton,
} from '../fixtures/specRules';
import { credentialsFor, useSandbox } from '../helpers/sandbox';

type Params = Record<string, unknown>;

const SEED = fuzzSeed();
/** Inputs per random base: each chunk of a category gets its own valid base values. */
const CHUNK = 500;
const STRICT = { phoneNumberFormat: 'strict' };
/** No options at all: whatever the node's default phone-number handling is. */
const DEFAULTS = {};

const sandbox = useSandbox();

interface InvalidCase {
	category: string;
	kind: SendKind;
	label: string;
	params: Params;
	bad: unknown;
}

interface Category {
	name: string;
	kind: SendKind;
	label: string;
	count: number;
	generate(seed: number): { cases: InvalidCase[]; discarded: number };
}


function hash(text: string): number {
	let value = 7;
	for (const char of text) value = (value * 31 + char.charCodeAt(0)) % 1_000_003;
	return value;
}

function category<B>(spec: {
	name: string;
	kind: SendKind;
	label: string;
	count: number;
	base: fc.Arbitrary<B>;
	bad: fc.Arbitrary<unknown>;
	build: (base: B, bad: unknown) => Params;
	/** The spec rule the category breaks, checked on the bad value: false = not invalid, discarded. */
	breaks: (bad: never) => boolean;
}): Category {
	return {
		name: spec.name,
		kind: spec.kind,
		label: spec.label,
		count: spec.count,
		generate(seed) {
			const cases: InvalidCase[] = [];
			let discarded = 0;
			for (let chunk = 0; cases.length < spec.count; chunk++) {
				const chunkSeed = seed + hash(spec.name) + chunk * 7919;
				const [base] = fc.sample(spec.base, { seed: chunkSeed, numRuns: 1 });
				const wanted = Math.min(CHUNK, spec.count - cases.length);
				let taken = 0;
				for (const bad of fc.sample(spec.bad, { seed: chunkSeed + 1, numRuns: wanted * 2 })) {
					if (taken === wanted) break;
					const params = spec.build(base, bad);
					if (!spec.breaks(bad as never)) {
						discarded++;
						continue;
					}
					cases.push({ category: spec.name, kind: spec.kind, label: spec.label, params, bad });
					taken++;
				}
				if (chunk > 4 * (spec.count / CHUNK) + 4) throw new Error(`${spec.name}: cannot generate enough invalid inputs`);
			}
			return { cases, discarded };
		},
	};
}

const put = <T extends object>(base: T, field: keyof T, bad: unknown): T => ({ ...base, [field]: new PerItem(bad, base[field]) });
const smsField = (field: keyof SmsValues, options: Params) => (base: SmsValues, bad: unknown) =>
	smsTree(put(base, field, bad), options);
const mediaField = (field: keyof MediaValues, options: Params) => (base: MediaValues, bad: unknown) =>
	mediaTree(put(base, field, bad), options);
const templateField = (field: keyof TemplateValues, options: Params) => (base: TemplateValues, bad: unknown) =>
	templateTree(put(base, field, bad), options);
const combinedField = (field: keyof CombinedValues, options: Params) => (base: CombinedValues, bad: unknown) =>
	combinedTree(put(base, field, bad), options);

const withBodyParameter = <T extends TemplateValues>(base: T, bad: unknown): T => ({
	...base,
	bodyTexts: [...base.bodyTexts, new PerItem(bad, 'Budi')],
});
const withQuickReplies = <T extends TemplateValues>(base: T, bad: unknown): T => ({
	...base,
	quickReplies: (bad as Array<{ index: unknown; payload: unknown }>).map(({ index, payload }) => ({
		index: new PerItem(index),
		payload: new PerItem(payload),
	})),
});
const withUrlButton = <T extends TemplateValues>(base: T, bad: unknown): T => {
	const { index, text } = bad as { index: unknown; text: unknown };
	return { ...base, urlButton: { index: new PerItem(index), text: new PerItem(text) } };
};

function combinedJsonTree(base: CombinedValues, componentsJson: unknown): Params {
	return {
		...templateJsonTree(base, componentsJson),
		...OPERATION.combined,
		smsPhoneNumber: base.smsPhoneNumber,
		smsMessage: base.smsMessage,
	};
}

const imageValues = mediaValues.map((values) => ({ ...values, mediaType: 'image' }));

const CATEGORIES: Category[] = [
	// SMS → Send
	category({ name: 'sms: phone number not E.164 (strict)', kind: 'sms', label: 'Phone Number', count: 1200, base: smsValues, bad: badPhoneStrict, build: smsField('phoneNumber', STRICT), breaks: breaksE164 }),
	category({ name: 'sms: phone number not E.164 (default format)', kind: 'sms', label: 'Phone Number', count: 500, base: smsValues, bad: badPhoneAnyFormat, build: smsField('phoneNumber', DEFAULTS), breaks: breaksE164 }),
	category({ name: 'sms: phone number outside +62 (strict)', kind: 'sms', label: 'Phone Number', count: 800, base: smsValues, bad: wrongCountry, build: smsField('phoneNumber', STRICT), breaks: breaksSmsNumber }),
	category({ name: 'sms: phone number outside +62 (default format)', kind: 'sms', label: 'Phone Number', count: 200, base: smsValues, bad: wrongCountry, build: smsField('phoneNumber', DEFAULTS), breaks: breaksSmsNumber }),
	category({ name: 'sms: message empty or not text', kind: 'sms', label: 'Message', count: 600, base: smsValues, bad: badRequiredText, build: smsField('message', STRICT), breaks: breaksRequiredText }),
	// Chat Message → Send Media
	category({ name: 'media: To not E.164 (strict)', kind: 'media', label: 'To', count: 500, base: mediaValues, bad: badPhoneStrict, build: mediaField('to', STRICT), breaks: breaksE164 }),
	category({ name: 'media: From not E.164 (default format)', kind: 'media', label: 'From', count: 300, base: mediaValues, bad: badPhoneAnyFormat, build: mediaField('from', DEFAULTS), breaks: breaksE164 }),
	category({ name: 'media: Media URL not an https link', kind: 'media', label: 'Media URL', count: 1300, base: mediaValues, bad: badLink, build: mediaField('mediaUrl', STRICT), breaks: breaksHttpsLink }),
	category({ name: 'media: caption not text', kind: 'media', label: 'Caption', count: 150, base: imageValues, bad: badCaption, build: mediaField('caption', STRICT), breaks: breaksCaption }),
	category({ name: 'media: media type unknown', kind: 'media', label: 'Media Type', count: 150, base: mediaValues, bad: badMediaType, build: mediaField('mediaType', STRICT), breaks: breaksMediaType }),
	// Chat Message → Send Template
	category({ name: 'template: To not E.164 (strict)', kind: 'template', label: 'To', count: 400, base: templateValues, bad: badPhoneStrict, build: templateField('to', STRICT), breaks: breaksE164 }),
	category({ name: 'template: From not E.164 (default format)', kind: 'template', label: 'From', count: 200, base: templateValues, bad: badPhoneAnyFormat, build: templateField('from', DEFAULTS), breaks: breaksE164 }),
	category({ name: 'template: template name empty or not text', kind: 'template', label: 'Template Name', count: 300, base: templateValues, bad: badRequiredText, build: templateField('templateName', STRICT), breaks: breaksRequiredText }),
	category({ name: 'template: language code empty or not text', kind: 'template', label: 'Language Code', count: 150, base: templateValues, bad: badRequiredText, build: templateField('languageCode', STRICT), breaks: breaksRequiredText }),
	category({ name: 'template: language policy empty or not text', kind: 'template', label: 'Language Policy', count: 150, base: templateValues, bad: badRequiredText, build: templateField('languagePolicy', STRICT), breaks: breaksRequiredText }),
	category({ name: 'template: body parameter empty or not text', kind: 'template', label: 'Body Parameters', count: 400, base: templateValues, bad: badRequiredText, build: (base, bad) => templateTree(withBodyParameter(base, bad)), breaks: breaksRequiredText }),
	category({ name: 'template: header image not an https link', kind: 'template', label: 'Header Image URL', count: 500, base: templateValues, bad: badHeaderLink, build: templateField('header', STRICT), breaks: breaksHttpsLink }),
	category({ name: 'template: quick reply buttons too many, repeated, out of range or empty', kind: 'template', label: 'Quick Reply Buttons', count: 900, base: templateValues, bad: badQuickReplies, build: (base, bad) => templateTree(withQuickReplies(base, bad)), breaks: breaksQuickReplies }),
	category({ name: 'template: URL button index or parameter invalid', kind: 'template', label: 'URL Button', count: 400, base: templateValues, bad: badUrlButton, build: (base, bad) => templateTree(withUrlButton(base, bad)), breaks: breaksUrlButton }),
	category({ name: 'template: Components (JSON) wrong', kind: 'template', label: 'Components (JSON)', count: 1500, base: templateValues, bad: badComponentsJson, build: (base, bad) => templateJsonTree(base, new PerItem(bad, JSON.stringify(componentsOf(base)))), breaks: breaksComponents }),
	// Combined Notification → Send with Failover
	category({ name: 'combined: To not E.164 (strict)', kind: 'combined', label: 'To', count: 200, base: combinedValues, bad: badPhoneStrict, build: combinedField('to', STRICT), breaks: breaksE164 }),
	category({ name: 'combined: quick reply buttons invalid', kind: 'combined', label: 'Quick Reply Buttons', count: 300, base: combinedValues, bad: badQuickReplies, build: (base, bad) => combinedTree(withQuickReplies(base, bad)), breaks: breaksQuickReplies }),
	category({ name: 'combined: Components (JSON) wrong', kind: 'combined', label: 'Components (JSON)', count: 200, base: combinedValues, bad: badComponentsJson, build: (base, bad) => combinedJsonTree(base, new PerItem(bad, JSON.stringify(componentsOf(base)))), breaks: breaksComponents }),
	category({ name: 'combined: SMS phone number not E.164 (strict)', kind: 'combined', label: 'SMS Phone Number', count: 300, base: combinedValues, bad: badPhoneStrict, build: combinedField('smsPhoneNumber', STRICT), breaks: breaksE164 }),
	category({ name: 'combined: SMS phone number outside +62 (strict)', kind: 'combined', label: 'SMS Phone Number', count: 300, base: combinedValues, bad: wrongCountry, build: combinedField('smsPhoneNumber', STRICT), breaks: breaksSmsNumber }),
	category({ name: 'combined: SMS message empty or not text', kind: 'combined', label: 'SMS Message', count: 200, base: combinedValues, bad: badRequiredText, build: combinedField('smsMessage', STRICT), breaks: breaksRequiredText }),
];

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
