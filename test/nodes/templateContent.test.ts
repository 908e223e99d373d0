import type { INodeParameters } from 'n8n-workflow';

import { checkPlaceholders, fillPlaceholders } from '../../nodes/MultiChannelNotification/helpers/templateContent';
import { runNode } from '../helpers/engine';
import { credentialsFor, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

const CONTENT = 'Halo *{{1}}*, pesanan _{{2}}_ dikirim {{3}}. Lacak: ~{{2}}~ `{{4}}`';

describe('checkPlaceholders / fillPlaceholders', () => {
	test.each([
		['no placeholders', 'Hello there', { count: 0 }],
		['1…4, one repeated', CONTENT, { count: 4 }],
		['out of order', '{{2}} then {{1}}', { count: 2 }],
	])('%s', (_name, content, expected) => {
		expect(checkPlaceholders(content)).toEqual(expected);
	});

	test.each([
		['a gap', 'Hi {{1}} and {{3}}', 'placeholders must be numbered {{1}} to {{3}} without gaps, but {{2}} is missing'],
		['starting at 2', 'Hi {{2}}', 'placeholders must be numbered {{1}} to {{2}} without gaps, but {{1}} is missing'],
		['a zero', 'Hi {{0}} {{1}}', 'placeholders are numbered from {{1}}, but the content uses {{0}}'],
	])('%s is a problem', (_name, content, problem) => {
		expect(checkPlaceholders(content)).toEqual({ problem });
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
			parameters: template({ bodyParameters: params('={{ $json.name }}', 'A-17', 'besok', 'x1') }),
			items: [{ name: 'Budi' }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests).toHaveLength(1);
		expect(output?.[0].json.preview).toBe('Halo *Budi*, pesanan _A-17_ dikirim besok. Lacak: ~A-17~ `x1`');
		// The content is a check only: it is not part of the request.
		expect(JSON.stringify(sandbox().requests[0].body)).not.toContain('Halo');
	});

	test('too few body parameters: says how many are expected and given, nothing sent', async () => {
		const { error } = await runNode({
			parameters: template({ bodyParameters: params('Budi', 'A-17', 'besok') }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(
			'Item 0: Body Parameters: the template content expects 4 body parameters ({{1}} to {{4}}), but 3 were given',
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('too many for a template without placeholders', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: 'Thanks for your order!', bodyParameters: params('extra') }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.message).toBe(
			'Item 0: Body Parameters: the template content has no placeholders, so it expects no body parameters, but 1 was given',
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('a gap in the placeholders is an error before anything is sent', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: 'Hi {{1}}, code {{3}}', bodyParameters: params('a', 'b') }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.message).toBe(
			'Item 0: Template Content: placeholders must be numbered {{1}} to {{3}} without gaps, but {{2}} is missing',
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

		expect(error?.message).toBe(
			'Item 0: Components (JSON) (body parameters): the template content expects 2 body parameters ({{1}} to {{2}}), but 1 was given',
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
			smsPhoneNumber: '+6281234567890',
			smsMessage: 'Kode Anda 4411',
		};
		const ok = await runNode({ parameters: { ...base, bodyParameters: params('4411') }, credentials: credentialsFor(sandbox()) });
		expect(ok.output?.[0].json.preview).toBe('Kode Anda 4411');

		sandbox().reset();
		const mismatch = await runNode({ parameters: base, credentials: credentialsFor(sandbox()) });
		expect(mismatch.error?.message).toBe(
			'Item 0: Body Parameters: the template content expects 1 body parameter ({{1}}), but 0 were given',
		);
		expect(sandbox().requests).toHaveLength(0);
	});
});
