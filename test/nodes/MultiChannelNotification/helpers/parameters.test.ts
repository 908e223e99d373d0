import type { IDataObject } from 'n8n-workflow';

import { jsonFieldOf } from '../../../../nodes/MultiChannelNotification/helpers/parameters';
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

describe('jsonFieldOf: which expressions are read straight from the item', () => {
	test.each([
		['={{ $json.phone }}', 'phone'],
		['={{$json.phone}}', 'phone'],
		['={{  $json._a$1  }}', '_a$1'],
		['={{ $json["phone number"] }}', 'phone number'],
		["={{ $json['phone'] }}", 'phone'],
	])('%s → %s', (raw, field) => {
		expect(jsonFieldOf(raw)).toBe(field);
	});

	test.each([
		'{{ $json.phone }}',
		'=+62{{ $json.phone }}',
		'={{ $json.phone }} ',
		'={{ $json.phone.trim() }}',
		'={{ $json.a.b }}',
		'={{ $json }}',
		'={{ ($json.phone) }}',
		'={{ $json.phone || "x" }}',
		'={{ $json["a"]["b"] }}',
		'={{ $json["a\\"b"] }}',
		'={{ $json.1a }}',
		'={{ $fromAI("phone") }}',
		'={{ $("Set").item.json.phone }}',
	])('%s → n8n evaluates it', (raw) => {
		expect(jsonFieldOf(raw)).toBeUndefined();
	});

	test('non-strings are not expressions', () => {
		expect(jsonFieldOf(undefined)).toBeUndefined();
		expect(jsonFieldOf(7)).toBeUndefined();
		expect(jsonFieldOf({ value: '={{ $json.a }}' })).toBeUndefined();
	});
});

describe('a {{ $json.field }} parameter gives what n8n\'s expression engine gives', () => {
	// Every kind of value an item may hold in the field: the direct read takes texts, numbers and
	// booleans, n8n takes the rest. `($json.m)` is the same expression that the direct read does
	// not recognise, so it always goes through n8n's engine: both must come out identical.
	const values: Array<[string, IDataObject]> = [
		['text', { m: 'Hi there' }],
		['text with outer spaces', { m: '  Hi  ' }],
		['text that looks like an expression', { m: '={{ 1 + 1 }}' }],
		['unicode', { m: 'Halo 😀 ü' }],
		['empty text', { m: '' }],
		['number', { m: 42 }],
		['zero', { m: 0 }],
		['true', { m: true }],
		['false', { m: false }],
		['null', { m: null }],
		['missing', {}],
		['object', { m: { a: 1 } }],
		['array', { m: ['a'] }],
		['inherited name', { other: 1 }],
	];

	async function outputsFor(expression: string, field = 'm') {
		const result = await runNode({
			parameters: {
				resource: 'sms',
				operation: 'send',
				phoneNumber: '+6281234567890',
				message: expression.replace('FIELD', field),
				options: { dryRun: true },
			},
			items: values.map(([, json]) => json),
			credentials: credentialsFor(sandbox()),
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		return (result.output ?? []).map((item) => item.json);
	}

	test('dry-run requests and errors are the same item by item, and nothing is sent', async () => {
		const direct = await outputsFor('={{ $json.FIELD }}');
		const evaluated = await outputsFor('={{ ($json.FIELD) }}');
		expect(direct).toHaveLength(values.length);
		expect(direct).toEqual(evaluated);
		// The table covers both outcomes: some items make a request, some fail validation.
		expect(direct.filter((json) => json.dryRun === true).length).toBeGreaterThan(0);
		expect(direct.filter((json) => json.error !== undefined).length).toBeGreaterThan(0);
		expect(direct[0]).toMatchObject({ request: { body: { message: 'Hi there' } } });
		expect(sandbox().requests).toHaveLength(0);
	});

	// Text with {{ $json.field }} parts: `{{ "" }}` appended leaves the text as it is but is not
	// a part the direct read takes, so the right-hand side is always n8n's own evaluation.
	test.each([
		['=Kode: {{ $json.FIELD }}!', '=Kode: {{ $json.FIELD }}!{{ "" }}'],
		['={{ $json.FIELD }}-{{ $json["FIELD"] }}', '={{ $json.FIELD }}-{{ $json["FIELD"] }}{{ "" }}'],
		['= {{ $json.FIELD }}', '= {{ $json.FIELD }}{{ "" }}'],
		['=Halo {semua}', '=Halo {semua}{{ "" }}'],
		['=', '={{ "" }}'],
	])('text with parts %s gives what n8n gives', async (direct, evaluated) => {
		expect(await outputsFor(direct)).toEqual(await outputsFor(evaluated));
	});

	test('bracket form and a name on Object.prototype behave the same', async () => {
		expect(await outputsFor('={{ $json["FIELD"] }}')).toEqual(await outputsFor('={{ ($json["FIELD"]) }}'));
		expect(await outputsFor('={{ $json.FIELD }}', 'constructor')).toEqual(
			await outputsFor('={{ ($json.FIELD) }}', 'constructor'),
		);
	});
});
