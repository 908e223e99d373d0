import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { runNode } from '../../../helpers/engine';

/**
 * The node reads every field through n8n's expression engine: for each expression and item, the
 * message it would send (Dry Run) is what n8n's engine itself makes of the same expression on the
 * same item, evaluated here independently through `Workflow.expression` — or both refuse. The
 * same as an AI agent's tool: parameters.tool.test.ts.
 */

const credentials = { apiKey: 'test-key-9f2c41d7', baseUrl: 'https://127.0.0.1:9' };

/** n8n's own evaluation of a parameter value for one item (what Edit Fields would get). */
function engineValue(expression: string, items: IDataObject[], itemIndex: number): { value: unknown } | { refused: string } {
	const workflow = new Workflow({
		nodes: [{ id: 'probe', name: 'Probe', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0], parameters: {} }],
		connections: {},
		active: false,
		nodeTypes: { getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) } as never,
	});
	const input: INodeExecutionData[] = items.map((json) => ({ json }));
	try {
		return { value: workflow.expression.getParameterValue(expression, null, 0, itemIndex, 'Probe', input, 'manual', {}) };
	} catch (error) {
		return { refused: error instanceof Error ? error.message : String(error) };
	}
}

/** What the node made of the Message field for each item: the text it would send, or its refusal. */
async function nodeMessages(expression: string, items: IDataObject[]): Promise<Array<{ value: unknown } | { refused: string }>> {
	const { output, error } = await runNode({
		parameters: { resource: 'sms', operation: 'send', phoneNumber: '+6281234567890', message: expression, options: { dryRun: true } },
		items,
		credentials,
		continueOnFail: true,
	});
	expect(error).toBeUndefined();
	return (output ?? []).map(({ json }) =>
		json.dryRun === true
			? { value: ((json.request as IDataObject).body as IDataObject).message }
			: { refused: String(json.error) },
	);
}

/** The engine's value as the node sends it: numbers and booleans become text. */
function asSent(result: { value: unknown } | { refused: string }): { value: unknown } | 'refused' {
	if ('refused' in result) return 'refused';
	const { value } = result;
	return { value: typeof value === 'number' || typeof value === 'boolean' ? String(value) : value };
}

const cases: Array<[string, string, IDataObject[]]> = [
	['escaped braces, text field', '=a \\{{ $json.m }} b', [{ m: 'X' }, { m: 5 }]],
	['constructor key', '={{ $json.constructor }}', [{ constructor: 'C' }]],
	['constructor key, bracket access', '={{ $json["constructor"] }}', [{ constructor: 'C' }]],
	['constructor key inside text', '=Hi {{ $json.constructor }}', [{ constructor: 'C' }]],
	['__proto__ key', '={{ $json.__proto__ }}', [{ m: 'X' }]],
	['number and boolean', '={{ $json.m }}', [{ m: 42 }, { m: 0 }, { m: true }, { m: false }]],
	['surrounding spaces and newlines', '=  {{ $json.m }}\n', [{ m: ' padded ' }, { m: 'line\nbreak' }]],
	['method call', '={{ $json.m.toUpperCase() }}', [{ m: 'shout' }]],
	['bracket access with a space in the name', '={{ $json["a b"] }}', [{ 'a b': 'spaced' }]],
	['several items, one missing the field', '=Kode {{ $json.code }}', [{ code: 'A1' }, {}, { code: 7 }]],
	['text that looks like an expression', '={{ $json.m }}', [{ m: '={{ 1 + 1 }}' }, { m: '{{ $json.m }}' }]],
	['literal text with braces', 'Hi {{1}} and {{ $json.m }}', [{ m: 'X' }]],
	['object and null values', '={{ $json.m }}', [{ m: { a: 1 } }, { m: null }]],
];

describe("every value through n8n's expression engine", () => {
	test.each(cases)('%s: %j', async (_name, expression, items) => {
		const sent = await nodeMessages(expression, items);
		expect(sent).toHaveLength(items.length);
		sent.forEach((result, itemIndex) => {
			const engine = engineValue(expression, items, itemIndex);
			if ('refused' in engine) {
				// n8n refuses: so does the node, and nothing would be sent for the item.
				expect(result).toEqual({ refused: expect.any(String) });
				return;
			}
			const expected = asSent(engine);
			if (expected !== 'refused' && typeof expected.value === 'string' && expected.value.trim() !== '') {
				expect(result).toEqual(expected);
			} else {
				// An empty, object or null value is refused by the node's own rule, never sent as something else.
				expect('refused' in result).toBe(true);
			}
		});
	});

	test('the cases the issue names come out as n8n makes them', async () => {
		expect(await nodeMessages('=a \\{{ $json.m }} b', [{ m: 'X' }, { m: 5 }])).toEqual([
			{ value: 'a \\{{ $json.m }} b' },
			{ value: 'a \\{{ $json.m }} b' },
		]);
		const [constructor] = await nodeMessages('={{ $json.constructor }}', [{ constructor: 'C' }]);
		expect(constructor).toEqual({ refused: expect.stringMatching(/constructor|security/i) });
	});
});
