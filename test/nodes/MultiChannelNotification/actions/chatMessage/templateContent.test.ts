import type { INodeParameters } from 'n8n-workflow';

import { fillPlaceholders, placeholderNumbers } from '../../../../../nodes/MultiChannelNotification/actions/chatMessage/templateMessage.schema';
import { runNode } from '../../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../../helpers/sandbox';

const sandbox = useSandbox();

const CONTENT = 'Halo *{{1}}*, pesanan _{{2}}_ dikirim {{3}}. Lacak: ~{{2}}~ `{{4}}`';

describe('placeholderNumbers / fillPlaceholders', () => {
	test.each([
		['no placeholders', 'Hello there', []],
		['1…4, one repeated', CONTENT, [1, 2, 3, 4]],
		['out of order', '{{2}} then {{1}}', [1, 2]],
		['a gap', 'Hi {{1}} and {{3}}', [1, 3]],
		['a zero', 'Hi {{0}} {{1}}', [0, 1]],
		['not a placeholder', 'Hi {1} {{ 2 }} {{x}}', []],
	])('%s', (_name, content, expected) => {
		expect(placeholderNumbers(content)).toEqual(expected);
	});

	test('fills every placeholder and keeps formatting marks', () => {
		expect(fillPlaceholders(CONTENT, ['Budi', 'A-17', 'besok', 'x1'])).toBe(
			'Halo *Budi*, pesanan _A-17_ dikirim besok. Lacak: ~A-17~ `x1`',
		);
	});
});

const template = (fields: INodeParameters): INodeParameters => ({
	resource: 'chatMessage',
	operation: 'sendTemplate',
	from: '+628110000000',
	to: '+6281234567890',
	templateName: 'shipping',
	templateContent: CONTENT,
	...fields,
});

const params = (...texts: string[]) => ({ parameter: texts.map((text) => ({ text })) });

describe('Template Content through the engine', () => {
	test('a matching template is sent and the output carries the preview', async () => {
		const { output, error } = await runNode({
			parameters: template({ placeholder1: '={{ $json.name }}', placeholder2: 'A-17', placeholder3: 'besok', placeholder4: 'x1' }),
			items: [{ name: 'Budi' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests).toHaveLength(1);
		expect(output?.[0].json.preview).toBe('Halo *Budi*, pesanan _A-17_ dikirim besok. Lacak: ~A-17~ `x1`');
		// The content is a check only: it is not part of the request.
		expect(JSON.stringify(sandbox().requests[0].body)).not.toContain('Halo');
	});

	// Template Content from an earlier node (an expression): Body Parameters is shown beside it.
	test('too few body parameters: says how many are expected and given, nothing sent', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: '={{ $json.content }}', bodyParameters: params('Budi', 'A-17', 'besok') }),
			items: [{ content: CONTENT }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.description).toContain(
			"• Body Parameters must have 4 entries, one for each placeholder of Template Content ({{1}} to {{4}}), but 3 were given",
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('too many for a template without placeholders', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: '={{ $json.content }}', bodyParameters: params('extra') }),
			items: [{ content: 'Thanks for your order!' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.description).toContain(
			'• Body Parameters must be empty: Template Content has no {{1}}-style placeholders, but 1 was given',
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('{{0}} in the content is an error', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: 'Hi {{0}}', bodyParameters: params('a') }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.description).toContain('• Template Content must number its placeholders from {{1}}, but uses {{0}}');
		expect(sandbox().requests).toHaveLength(0);
	});

	test('a gap in the placeholders is an error before anything is sent', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: 'Hi {{1}}, code {{3}}', bodyParameters: params('a', 'b') }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.description).toContain(
			'• Template Content must number its placeholders {{1}} to {{3}} without gaps, but {{2}} is missing — got "Hi {{1}}, code {{3}}"',
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('JSON mode is checked the same way', async () => {
		const { error } = await runNode({
			parameters: template({
				templateContent: 'Hi {{1}}, code {{2}}',
				componentsInputMode: 'json',
				componentsJson: '[{"type":"body","parameters":[{"type":"text","text":"Budi"}]}]',
			}),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.description).toContain(
			"• Components (JSON) must give the body component 2 parameters, one for each placeholder of Template Content ({{1}} to {{2}}), but 1 was given",
		);
	});

	test('Send with Failover: preview for the chat part, mismatch blocks both parts', async () => {
		const base = {
			resource: 'combined',
			operation: 'sendWithFailover',
			from: '+628110000000',
			to: '+6281234567890',
			templateName: 'otp',
			templateContent: 'Kode Anda {{1}}',
			phoneNumber: '+6281234567890',
			message: 'Kode Anda 4411',
		};
		const ok = await runNode({ parameters: { ...base, placeholder1: '4411' }, credentials: credentialsFor(sandbox()) });
		expect(ok.output?.[0].json.preview).toBe('Kode Anda 4411');

		sandbox().reset();
		const mismatch = await runNode({ parameters: base, credentials: credentialsFor(sandbox()) });
		expect(mismatch.error?.description).toContain(
			'• Placeholder Values must have a value for each placeholder of Template Content ({{1}}), but 0 were given: fill in the input {{1}} below Template Content',
		);
		expect(sandbox().requests).toHaveLength(0);
	});
});
