import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../../helpers/sandbox';
import { expectRefused } from '../../../../fixtures/problems';
import { requestFixture } from '../../../../fixtures/requests';
import { templateParameters } from '../../../../../harness/templateParameters';

const sandbox = useSandbox();

const template = templateParameters;

describe('Chat Message → Send Template through the engine', () => {
	test('fields mode: header image, ordered body parameters, quick replies and URL button', async () => {
		const { output, error } = await runNode({
			parameters: template({
				headerImageUrl: 'https://cdn.example.com/banner.jpg',
				bodyParameters: { parameter: [{ text: '={{ $json.name }}' }, { text: '={{ $json.order }}' }, { text: 'tomorrow' }] },
				quickReplyButtons: {
					button: [
						{ index: '0', payload: '={{ "track-" + $json.order }}' },
						{ index: '1', payload: 'help' },
					],
				},
				urlButton: { button: { index: '2', text: '={{ $json.order }}' } },
			}),
			items: [{ name: 'Budi', order: 1042 }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests).toHaveLength(1);
		const [request] = sandbox().requests;
		expect(request.path).toBe('/v1/wa/message');
		expect(request.headers.authorization).toBe(sandbox().apiKey);
		expect(JSON.parse(request.rawBody)).toEqual(requestFixture('template-with-buttons'));
		expect(output).toEqual([
			{
				json: {
					message: 'success',
					data: { id: request.id },
					from: '+6281100000000',
					to: '+6281234567890',
				},
				pairedItem: { item: 0 },
			},
		]);
		// Without Template Content there is no preview: not even a key left undefined.
		expect(Object.keys(output?.[0].json ?? {})).not.toContain('preview');
	});

	test('a template without parameters still sends the required body component', async () => {
		const { error } = await runNode({
			parameters: template({ languageCode: 'en' }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect((sandbox().requests[0].body as { template: unknown }).template).toEqual({
			name: 'order_update',
			language: { policy: 'deterministic', code: 'en' },
			components: [{ type: 'body', parameters: [] }],
		});
	});

	test('Language Policy is sent as "deterministic" unless overridden in Options', async () => {
		await runNode({ parameters: template({ options: { languagePolicy: 'custom_policy' } }), credentials: credentialsFor(sandbox()) });

		expect((sandbox().requests[0].body as { template: { language: unknown } }).template.language).toEqual({
			policy: 'custom_policy',
			code: 'id',
		});
	});

	test('a URL button left at its default index is sent at position 0', async () => {
		await runNode({ parameters: template({ urlButton: { button: { text: 'abc' } } }), credentials: credentialsFor(sandbox()) });

		expect((sandbox().requests[0].body as { template: { components: unknown[] } }).template.components).toEqual([
			{ type: 'body', parameters: [] },
			{ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'abc' }] },
		]);
	});

	test('three rules broken at once (To, quick reply index, placeholder count): one error names all three', async () => {
		const { error } = await runNode({
			parameters: template({
				to: 'not a number',
				templateContent: 'Hi {{1}}',
				quickReplyButtons: { button: [{ index: '={{ 7 }}', payload: 'x' }] },
			}),
			credentials: credentialsFor(sandbox()),
		});

		expectRefused(error, 'Item 0: 3 problems (To, Quick Reply Buttons, Placeholder Values)', [
			'To must be in full international form like +6281234567890 (a leading +, the country code and the number: 7 to 15 digits, the E.164 format) — got "not a number"',
			'Quick Reply Buttons → Button 1 → Index must be 0, 1 or 2 (a template has at most 3 quick reply buttons) — got "7"',
			'Placeholder Values must have a value for each placeholder of Template Content ({{1}}), but 0 were given: fill in the input {{1}} below Template Content (Body Parameters is used only while Template Content is empty)',
		]);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('JSON mode: components built by an earlier node, spec defaults filled in', async () => {
		const { error } = await runNode({
			parameters: template({ componentsInputMode: 'json', componentsJson: '={{ $json.components }}' }),
			items: [
				{
					components: [
						{ parameters: [{ text: 'Budi' }] },
						{ index: 1, parameters: [{ type: 'payload', payload: 'yes' }] },
						{ type: 'button', sub_type: 'url', parameters: [{ type: 'text', text: 'abc' }] },
					],
				},
			],
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect((sandbox().requests[0].body as { template: { components: unknown } }).template.components).toEqual([
			{ type: 'body', parameters: [{ type: 'text', text: 'Budi' }] },
			{ type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'yes' }] },
			{ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'abc' }] },
		]);
	});

	test.each<[string, INodeParameters, string]>([
		[
			'four quick replies',
			{
				quickReplyButtons: {
					button: [
						{ index: '0', payload: 'a' },
						{ index: '1', payload: 'b' },
						{ index: '2', payload: 'c' },
						{ index: '={{ 3 }}', payload: 'd' },
					],
				},
			},
			'Quick Reply Buttons → Button 4 → Index must be 0, 1 or 2 (a template has at most 3 quick reply buttons) — got "3"',
		],
		[
			'two quick replies at one position',
			{ quickReplyButtons: { button: [{ index: '1', payload: 'a' }, { index: '1', payload: 'b' }] } },
			'Quick Reply Buttons → Button 2 → Index must be unique: position 1 is already used by another button — got "1"',
		],
		[
			'an http header image',
			{ headerImageUrl: 'http://cdn.example.com/banner.jpg' },
			'Header Image URL must use https://, not http:// (the service only fetches https links) — got "http://cdn.example.com/banner.jpg"',
		],
		[
			'an empty body parameter',
			{ bodyParameters: { parameter: [{ text: 'Budi' }, { text: '={{ "" }}' }] } },
			'Body Parameters → Parameter 2 is required and must not be empty',
		],
		[
			'an empty quick reply payload',
			{ quickReplyButtons: { button: [{ index: '0', payload: '={{ "" }}' }] } },
			'Quick Reply Buttons → Button 1 → Payload is required and must not be empty',
		],
		['a local-format recipient (strict)', { to: '081234567890', options: { phoneNumberFormat: 'strict' } }, 'To must be in full international form like +6281234567890'],
		['a sender with spaces (strict)', { from: '+62 811 0000 000', options: { phoneNumberFormat: 'strict' } }, 'From must be in full international form like +6281234567890'],
		['an empty template name', { templateName: '={{ " " }}' }, 'Template Name is required and must not be empty'],
		[
			'JSON mode without a body component',
			{ componentsInputMode: 'json', componentsJson: '[{"type":"button","sub_type":"quick_reply","index":"0","parameters":[{"type":"payload","payload":"x"}]}]' },
			'Components (JSON) must include the body component',
		],
		['JSON mode with text that is not JSON', { componentsInputMode: 'json', componentsJson: '[{"type": "body",' }, 'Components (JSON) must be valid JSON'],
		['JSON mode with an object instead of a list', { componentsInputMode: 'json', componentsJson: '{"type": "body"}' }, 'Components (JSON) must be a list (JSON array) of components — got {"type":"body"}'],
		[
			'JSON mode with a quick reply at position 5',
			{ componentsInputMode: 'json', componentsJson: '[{"type":"body","parameters":[]},{"type":"button","sub_type":"quick_reply","index":"5","parameters":[{"type":"payload","payload":"x"}]}]' },
			'Components (JSON) at [1].index must be 0, 1 or 2',
		],
	])('%s → NodeOperationError, nothing sent', async (_name, fields, problem) => {
		const { error, output } = await runNode({ parameters: template(fields), credentials: credentialsFor(sandbox()) });

		expect(output).toBeUndefined();
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toMatch(/^Item 0: /);
		expect(error?.description).toContain(`• ${problem}`);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('a service rejection surfaces the service text as NodeApiError', async () => {
		sandbox().injectFault({ kind: 'status', status: 400, message: 'template order_update is not approved' });
		const { error } = await runNode({ parameters: template(), credentials: credentialsFor(sandbox()) });

		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('400');
		expect(error?.message).toBe('The service answered HTTP 400: template order_update is not approved');
	});

	test('continue on fail keeps the other items, each paired', async () => {
		const { output } = await runNode({
			parameters: template({ to: '={{ $json.to }}', options: { phoneNumberFormat: 'strict' } }),
			items: [{ to: '+6281000000001' }, { to: 'not a number' }, { to: '+6281000000003' }],
			credentials: credentialsFor(sandbox()),
			continueOnFail: true,
		});

		expect(output?.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output?.[0].json.message).toBe('success');
		expect(output?.[1].json.error).toMatch(/^Item 1: To must be in full international form like \+6281234567890/);
		expect(output?.[1].json.description).toContain(
			'• To must be in full international form like +6281234567890 (a leading +, the country code and the number: 7 to 15 digits, the E.164 format) — got "not a number"',
		);
		expect(output?.[2].json.message).toBe('success');
		expect(sandbox().requests.map((request) => (request.body as { to: string }).to)).toEqual([
			'+6281000000001',
			'+6281000000003',
		]);
	});
});
