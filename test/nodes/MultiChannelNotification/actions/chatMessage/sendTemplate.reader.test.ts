/**
 * Chat Message → Send Template, how its reader takes the fields: identifiers, links and positions
 * trimmed, message text as typed, and values an expression leaves null, empty or of another type
 * read as not given. Through n8n's engine against the sandbox.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../../helpers/sandbox';
import { templateParameters as template } from '../../../../../harness/templateParameters';

const sandbox = useSandbox();

describe('Chat Message → Send Template: how the fields are read', () => {
	test('identifiers, links and positions are sent trimmed; message text is sent as typed', async () => {
		const { error } = await runNode({
			parameters: template({
				from: ' +6281100000000 ',
				to: '\t+6281234567890 ',
				templateName: ' order_update ',
				languageCode: ' id\n',
				headerImageUrl: ' https://cdn.example.com/banner.jpg ',
				bodyParameters: { parameter: [{ text: ' Budi ' }] },
				quickReplyButtons: { button: [{ index: ' 1 ', payload: ' yes ' }] },
				urlButton: { button: { index: ' 2 ', text: ' abc ' } },
				options: { phoneNumberFormat: 'strict', languagePolicy: ' deterministic ' },
			}),
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests.map((request) => request.body)).toEqual([
			{
				from: '+6281100000000',
				to: '+6281234567890',
				type: 'template',
				template: {
					name: 'order_update',
					language: { policy: 'deterministic', code: 'id' },
					components: [
						{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/banner.jpg' } }] },
						{ type: 'body', parameters: [{ type: 'text', text: ' Budi ' }] },
						{ type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: ' yes ' }] },
						{ type: 'button', sub_type: 'url', index: '2', parameters: [{ type: 'text', text: ' abc ' }] },
					],
				},
			},
		]);
	});

	// Values an expression can leave empty or of another type: each is read as "not given".
	const body = (texts: string[]) => ({ type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) });
	test.each<[string, INodeParameters, unknown[], string | undefined]>([
		['Header Image URL that is null: no header', { headerImageUrl: '={{ null }}' }, [body([])], undefined],
		[
			'URL button Index that is empty: position 0',
			{ urlButton: { button: { index: '={{ "" }}', text: 'abc' } } },
			[body([]), { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'abc' }] }],
			undefined,
		],
		[
			'Template Content that is a number: no content, Body Parameters sent',
			{ templateContent: '={{ 5 }}', bodyParameters: { parameter: [{ text: 'a' }] } },
			[body(['a'])],
			undefined,
		],
	])('%s', async (_name, fields, components, preview) => {
		const { output, error } = await runNode({ parameters: template(fields), credentials: credentialsFor(sandbox()) });

		expect(error).toBeUndefined();
		expect(sandbox().requests.map((request) => (request.body as { template: { components: unknown } }).template.components)).toEqual([
			components,
		]);
		expect(output?.[0].json.preview).toBe(preview);
	});

	test('{{1}} and {{2}} inputs null and empty are not given: nothing sent', async () => {
		const { error } = await runNode({
			parameters: template({ templateContent: 'Hi {{1}}, {{2}}', placeholder1: '={{ null }}', placeholder2: '' }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.description).toContain(
			'Placeholder Values must have a value for each placeholder of Template Content ({{1}} to {{2}}), but 0 were given',
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('Template Content of spaces only is no content: no preview', async () => {
		const { output, error } = await runNode({ parameters: template({ templateContent: '   ' }), credentials: credentialsFor(sandbox()) });

		expect(error).toBeUndefined();
		expect(Object.keys(output?.[0].json ?? {})).not.toContain('preview');
	});

	test('the preview is filled from the body even when a header comes first', async () => {
		const { output, error } = await runNode({
			parameters: template({
				templateContent: 'Hi {{1}}',
				headerImageUrl: 'https://cdn.example.com/banner.jpg',
				placeholder1: 'Budi',
			}),
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(output?.[0].json.preview).toBe('Hi Budi');
	});
});
