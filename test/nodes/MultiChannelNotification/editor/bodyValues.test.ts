/**
 * One way to give a template's body values at a time: with Template Content, the {{1}}, {{2}}, …
 * inputs; without it, Body Parameters. Decided by n8n's own display rule, as the editor and the
 * engine run it (a parameter n8n does not display is dropped before the node reads it).
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { templateParameters } from '../../../../harness/templateParameters';
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();
const properties = new MultiChannelNotification().description.properties;

/** Every operation that sends a template, with its resource. */
const TEMPLATE_SENDS: Array<[string, string]> = [
	['chatMessage', 'sendTemplate'],
	['chatMessage', 'sendAndWait'],
	['combined', 'sendWithFailover'],
	['combined', 'sendAndWait'],
];

/** Which of Body Parameters and the {{1}} input n8n displays for these parameters. */
function shown(resource: string, operation: string, content: Record<string, unknown>): string[] {
	const values = { resource, operation, componentsInputMode: 'fields', ...content } as INodeParameters;
	const forOperation = (property: INodeProperties) =>
		property.displayOptions?.show?.resource?.includes(resource) === true && property.displayOptions.show.operation?.includes(operation) === true;
	return properties
		.filter((property) => (property.name === 'bodyParameters' || property.name === 'placeholder1') && forOperation(property))
		.filter((property) => NodeHelpers.displayParameter(values, property, null, null))
		.map((property) => property.name);
}

describe.each(TEMPLATE_SENDS)('%s → %s', (resource, operation) => {
	test.each<[string, Record<string, unknown>, string[]]>([
		['no Template Content stored', {}, ['bodyParameters']],
		['Template Content empty', { templateContent: '' }, ['bodyParameters']],
		['Template Content only spaces and line breaks', { templateContent: ' \n ' }, ['bodyParameters']],
		['Template Content with {{1}}', { templateContent: 'Hi {{1}}' }, ['placeholder1']],
		['Template Content without placeholders', { templateContent: 'Thanks!' }, []],
		// Inputs go up to {{20}}: a longer template's values go into Body Parameters.
		['Template Content with {{21}}', { templateContent: 'Hi {{1}} … {{21}}' }, ['placeholder1', 'bodyParameters']],
		// An expression is known only when the node runs: n8n shows every field it governs.
		['Template Content as an expression', { templateContent: '={{ $json.text }}' }, ['placeholder1', 'bodyParameters']],
	])('%s', (_name, content, expected) => {
		expect(shown(resource, operation, content).sort()).toEqual([...expected].sort());
	});
});

test('a workflow without Template Content sends its Body Parameters', async () => {
	const { error } = await runNode({
		parameters: templateParameters({ bodyParameters: { parameter: [{ text: 'Budi' }, { text: 'A-1042' }] } }),
		credentials: credentialsFor(sandbox()),
	});
	expect(error).toBeUndefined();
	const body = JSON.parse(sandbox().requests[0].rawBody) as { template: { components: unknown[] } };
	expect(body.template.components).toEqual([{ type: 'body', parameters: [{ type: 'text', text: 'Budi' }, { type: 'text', text: 'A-1042' }] }]);
});

test('a workflow saved with Template Content and Body Parameters: an error naming the inputs to fill in; nothing is sent', async () => {
	const { error } = await runNode({
		parameters: templateParameters({
			templateContent: 'Hi {{1}}, your order {{2}} shipped',
			bodyParameters: { parameter: [{ text: 'Budi' }, { text: 'A-1042' }] },
		}),
		credentials: credentialsFor(sandbox()),
	});
	expect(error?.description).toContain(
		'• Placeholder Values must have a value for each placeholder of Template Content ({{1}} to {{2}}), but 0 were given: fill in the inputs {{1}} to {{2}} below Template Content (Body Parameters is used only while Template Content is empty)',
	);
	expect(error?.description).toContain('Nothing was sent for this item.');
	expect(sandbox().requests).toHaveLength(0);
});
