import type { INodeProperties, IRun } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { descriptionAsPanelHtml } from '../../../../nodes/MultiChannelNotification/helpers/errors';
import { titleText } from '../../../../nodes/MultiChannelNotification/helpers/errors';
import { fieldOf } from '../../../../nodes/MultiChannelNotification/helpers/validation';
import { resolveQuickReplyIndexes } from '../../../../nodes/MultiChannelNotification/actions/chatMessage/components.schema';
import { TEMPLATE_LABELS } from '../../../../nodes/MultiChannelNotification/actions/chatMessage/templateMessage.schema';
import { runSummary } from '../../../../nodes/MultiChannelNotification/delivery/summary';
import { NODE_NAME, runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';
import { templateParameters } from '../../../../harness/templateParameters';

/** What a no-code user meets in the editor, each fix through n8n's engine where it runs. */

const sandbox = useSandbox();
const properties = new MultiChannelNotification().description.properties;

const template = templateParameters;

function option(name: string): INodeProperties | undefined {
	for (const property of properties) {
		if (property.name !== 'options') continue;
		const found = (property.options as INodeProperties[]).find((entry) => entry.name === name);
		if (found) return found;
	}
	return undefined;
}

describe('Template Content turned into an expression by the editor', () => {
	test('the node says which switch to flip instead of a count error, and sends nothing', async () => {
		// What n8n stores after "Hi {{1}}, your order {{2}} shipped" is pasted into the empty field.
		const { error } = await runNode({
			parameters: template({
				templateContent: '=Hi {{1}}, your order {{2}} shipped',
				bodyParameters: { parameter: [{ text: 'Budi' }, { text: 'A-1042' }] },
			}),
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.message).toBe('Item 0: Template Content is set to Expression: click Fixed above the field so…');
		expect(error?.description).toContain('click Fixed above the field so {{1}}, {{2}}… stay as written');
		expect(error?.description).toContain('"Hi 1, your order 2 shipped"');
		expect(error?.description).not.toContain('Body Parameters');
		expect(sandbox().requests).toHaveLength(0);
	});

	test('left as an Expression with no values given, it still sends nothing (the message would lack its values)', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: '=Hi {{1}}, your order {{2}} shipped' }),
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.message).toBe('Item 0: Template Content is set to Expression: click Fixed above the field so…');
		expect(sandbox().requests).toHaveLength(0);
	});

	test('a deliberate expression (the template text from an earlier node) is read as n8n gives it', async () => {
		const { output, error } = await runNode({
			parameters: template({
				templateContent: '={{ $json.template }}',
				bodyParameters: { parameter: [{ text: 'Budi' }] },
			}),
			items: [{ template: 'Hi {{1}}' }],
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(output?.[0].json.preview).toBe('Hi Budi');
	});

	test('the same text as Fixed sends with its preview', async () => {
		const { output, error } = await runNode({
			parameters: template({ templateContent: 'Hi {{1}}, your order {{2}} shipped', placeholder1: 'Budi', placeholder2: 'A-1042' }),
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(output?.[0].json.preview).toBe('Hi Budi, your order A-1042 shipped');
	});
});

describe('Placeholder Values: one input per placeholder', () => {
	// Declared once per operation that sends a template; Send Template's.
	const inputs = properties.filter(
		(property) =>
			/^placeholder\d+$/.test(property.name) && property.displayOptions?.show?.operation?.includes('sendTemplate'),
	);

	test('inputs {{1}} … {{20}}, in order, each shown while Template Content has its placeholder', () => {
		expect(inputs.map((property) => property.displayName)).toEqual(
			Array.from({ length: 20 }, (_unused, at) => `{{${at + 1}}}`),
		);
		// n8n's own display rule decides, as the editor runs it.
		const shown = (templateContent: string) =>
			inputs
				.filter((property) =>
					NodeHelpers.displayParameter({ ...template(), componentsInputMode: 'fields', templateContent }, property, null, null),
				)
				.map((property) => property.displayName);
		expect(shown('Hi {{2}} and {{1}}')).toEqual(['{{1}}', '{{2}}']);
		expect(shown('No placeholders')).toEqual([]);
		expect(shown('Hi {{12}}')).toEqual(['{{12}}']);
	});

	test('the values, expressions resolved by n8n, are sent as the body parameters in placeholder order', async () => {
		const { output, error } = await runNode({
			parameters: template({
				templateContent: 'Hi {{1}}, your order {{2}} shipped',
				placeholder2: '={{ $json.order }}',
				placeholder1: '={{ $json.name }}',
			}),
			items: [{ name: 'Budi', order: 'A-1042' }],
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		const body = JSON.parse(sandbox().requests[0].rawBody) as { template: { components: unknown[] } };
		expect(body.template.components).toEqual([
			{ type: 'body', parameters: [{ type: 'text', text: 'Budi' }, { type: 'text', text: 'A-1042' }] },
		]);
		expect(output?.[0].json.preview).toBe('Hi Budi, your order A-1042 shipped');
	});

	test('an empty placeholder is named as the editor shows it, with the parameter to highlight; nothing is sent', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: 'Hi {{1}}, your order {{2}} shipped', placeholder1: 'Budi' }),
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.message).toBe('Item 0: Placeholder Values → {{2}} is required and must not be empty');
		expect(fieldOf(['placeholderValues', 1], TEMPLATE_LABELS)).toEqual({
			field: 'Placeholder Values → {{2}}',
			label: 'Placeholder Values',
			path: ['placeholder2'],
		});
		expect(sandbox().requests).toHaveLength(0);
	});

	test('with no values at all, the count error names the inputs, not the free list', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: 'Hi {{1}}' }),
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.description).toContain(
			'• Placeholder Values must have a value for each placeholder of Template Content ({{1}}), but 0 were given: fill in the input {{1}} below Template Content',
		);
	});

	test('a body parameter refused for its own reason is not also counted as missing', async () => {
		// Template Content from an earlier node: Body Parameters is shown and read beside it.
		const { error } = await runNode({
			parameters: template({ templateContent: '={{ $json.template }}', bodyParameters: { parameter: [{ text: 'a' }, { text: ' ' }] } }),
			items: [{ template: 'Hi {{1}} {{2}}' }],
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.message).toBe('Item 0: Body Parameters → Parameter 2 is required and must not be empty');
		expect(error?.description).not.toContain('were given');
	});
});

describe('Quick replies: a new button takes the next free position', () => {
	test('Index defaults to Next Free Position', () => {
		const send = properties.find((property) => property.name === 'quickReplyButtons');
		const values = (send?.options as Array<{ values: INodeProperties[] }>)[0].values;
		expect(values.find((value) => value.name === 'index')?.default).toBe('auto');
	});

	test('positions resolve in list order around the ones chosen', () => {
		expect(resolveQuickReplyIndexes(['auto', 'auto', 'auto'])).toEqual(['0', '1', '2']);
		expect(resolveQuickReplyIndexes(['auto', '0', 'auto'])).toEqual(['1', '0', '2']);
		expect(resolveQuickReplyIndexes(['auto', 'auto'], '0')).toEqual(['1', '2']);
		expect(resolveQuickReplyIndexes(['1', '1'])).toEqual(['1', '1']);
	});

	test('two buttons added without touching Index are sent at 0 and 1', async () => {
		const { error } = await runNode({
			parameters: template({ quickReplyButtons: { button: [{ payload: 'yes' }, { payload: 'no' }] } }),
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		const body = JSON.parse(sandbox().requests[0].rawBody) as { template: { components: Array<{ index?: string }> } };
		expect(body.template.components.filter((component) => component.index !== undefined).map((c) => c.index)).toEqual(['0', '1']);
	});
});

describe('Options → Dry Run', () => {
	test('is on when added', () => {
		expect(option('dryRun')?.default).toBe(true);
	});

	test('added with its default, nothing is sent', async () => {
		const { output, error } = await runNode({
			parameters: template({ options: { dryRun: option('dryRun')?.default as boolean } }),
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(output?.[0].json).toHaveProperty('request.body');
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe("n8n's error panel", () => {
	test('a refused item keeps one problem per line in the panel (HTML) and in the plain description', async () => {
		const { error } = await runNode({
			parameters: template({ to: 'not a number', templateContent: 'Hi {{1}}', bodyParameters: { parameter: [{ text: 'a' }, { text: 'b' }] } }),
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.description?.split('\n')).toHaveLength(3);
		expect(String(error?.context?.descriptionTemplate).split('<br>')).toEqual(error?.description?.split('\n').map((line) => line.replace(/"/g, '&quot;')));
	});

	test('HTML in a value is shown, not interpreted', () => {
		expect(descriptionAsPanelHtml('• To — got "<b>x</b> 100%"\nNothing')).toBe('• To — got &quot;&lt;b&gt;x&lt;/b&gt; 100&#37;&quot;<br>Nothing');
	});

	test('a long title is cut at a word, never inside an aside left open', () => {
		const cut = titleText(
			'Item 0: SMS Phone Number must be an Indonesian number starting with +62 (SMS cannot be sent to other numbers for now)',
		);
		expect(cut).toBe('Item 0: SMS Phone Number must be an Indonesian number starting with +62…');
		expect(titleText('short')).toBe('short');
	});
});

describe('Send with Failover: a To outside +62', () => {
	test('the SMS rule says SMS Phone Number copies To', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'combined',
				operation: 'sendWithFailover',
				from: '+6281100000000',
				to: '+6591234567',
				templateName: 'otp',
				phoneNumber: '={{ $parameter["to"] }}',
				message: 'Code 1',
			},
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.description).toContain('It is the To number unless you set another one: put an Indonesian number starting with +62 in SMS Phone Number');
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Run summary (an execution hint above the output)', () => {
	const hintsOf = (run: { run: IRun }): unknown => run.run.data.resultData.runData[NODE_NAME]?.[0]?.hints;

	test('counts from the run: sent and refused items named, the refused making it a warning', async () => {
		const result = await runNode({
			parameters: template({ to: '={{ $json.to }}' }),
			items: [{ to: '+6281234567890' }, { to: 'nope' }, { to: '+6281234567891' }],
			continueOnFail: true,
			credentials: credentialsFor(sandbox()),
		});
		expect(sandbox().requests).toHaveLength(2);
		expect(hintsOf(result)).toEqual([
			{ message: 'Sent 2 (items 0, 2) · refused 1 (item 1)', type: 'warning', location: 'outputPane' },
		]);
	});

	test('a dry run says nothing was sent', async () => {
		const result = await runNode({
			parameters: template({ options: { dryRun: true } }),
			credentials: credentialsFor(sandbox()),
		});
		expect(hintsOf(result)).toEqual([{ message: 'Sent 0 · dry run 1', type: 'info', location: 'outputPane' }]);
	});

	test('large runs: thousands separated, long lists cut, rate limits with the longest wait', () => {
		const sent = Array.from({ length: 2000 }, (_unused, index) => index).filter((index) => index !== 7 && index !== 912);
		expect(runSummary({ total: 2000, items: { sent, refused: [912, 7], skipped: [], dryRun: [] } })?.message).toBe(
			'Sent 1,998 · refused 2 (items 7, 912)',
		);
		const every = Array.from({ length: 30 }, (_unused, index) => index * 2);
		expect(
			runSummary({
				total: 60,
				items: { sent: every.map((index) => index + 1), refused: [], skipped: every, dryRun: [] },
				rateLimited: { times: 4, longestWaitMs: 12_400 },
			})?.message,
		).toBe(
			'Sent 30 · skipped 30 (items 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, …) · rate limited 4× (longest wait 12 s)',
		);
	});
});
