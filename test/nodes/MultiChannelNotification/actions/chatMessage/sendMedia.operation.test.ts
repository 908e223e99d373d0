import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../../helpers/sandbox';
import { expectRefused } from '../../../../fixtures/problems';
import { requestFixture } from '../../../../fixtures/requests';

const STARTED = '+6281234567890';
const sandbox = useSandbox({ startedChats: [STARTED] });

const media = (fields: INodeParameters = {}): INodeParameters => ({
	resource: 'chatMessage',
	operation: 'sendMedia',
	from: '+6281100000000',
	to: STARTED,
	mediaType: 'image',
	mediaUrl: 'https://cdn.example.com/a.jpg',
	...fields,
});

describe('Chat Message → Send Media through the engine', () => {
	test.each([
		['image', 'https://cdn.example.com/photo.jpg'],
		['video', 'https://cdn.example.com/clip.mp4'],
		['audio', 'https://cdn.example.com/voice.ogg'],
		['document', 'https://cdn.example.com/invoice.pdf'],
	])('%s: exact body, recipient_type defaults to individual', async (mediaType, link) => {
		const { output, error } = await runNode({
			parameters: media({ mediaType, mediaUrl: link }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		const [request] = sandbox().requests;
		expect(request.headers.authorization).toBe(sandbox().apiKey);
		expect(JSON.parse(request.rawBody)).toEqual(requestFixture(`media-${mediaType}`));
		expect(output).toEqual([
			{ json: { message: 'success', data: { id: request.id }, from: '+6281100000000', to: STARTED }, pairedItem: { item: 0 } },
		]);
	});

	test('an image carries its caption; a caption set for a video is not sent', async () => {
		await runNode({
			parameters: media({ caption: '={{ "Invoice for " + $json.name }}' }),
			items: [{ name: 'Budi' }],
			credentials: credentialsFor(sandbox()),
		});
		await runNode({
			parameters: media({ mediaType: 'video', mediaUrl: 'https://cdn.example.com/clip.mp4', caption: 'ignored' }),
			credentials: credentialsFor(sandbox()),
		});

		expect(sandbox().requests.map((request) => request.body)).toEqual([
			expect.objectContaining({ image: { link: 'https://cdn.example.com/a.jpg', caption: 'Invoice for Budi' } }),
			expect.objectContaining({ video: { link: 'https://cdn.example.com/clip.mp4' } }),
		]);
	});

	test('an image caption that gives nothing (null) sends the image without one', async () => {
		const { error } = await runNode({ parameters: media({ caption: '={{ null }}' }), credentials: credentialsFor(sandbox()) });

		expect(error).toBeUndefined();
		expect(sandbox().requests.map((request) => request.body)).toEqual([
			expect.objectContaining({ image: { link: 'https://cdn.example.com/a.jpg' } }),
		]);
	});

	test('From and To are sent trimmed, so outer spaces pass the strict format', async () => {
		const { error } = await runNode({
			parameters: media({ from: ' +6281100000000 ', to: `=\t{{ "${STARTED}" }} `, options: { phoneNumberFormat: 'strict' } }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests.map((request) => request.body)).toEqual([expect.objectContaining({ from: '+6281100000000', to: STARTED })]);
	});

	test.each([
		['an http link', { mediaUrl: 'http://cdn.example.com/a.jpg' }, 'Media URL must use https://, not http:// (the service only fetches https links) — got "http://cdn.example.com/a.jpg"'],
		['a link that is not a URL', { mediaUrl: 'https://' }, 'Media URL must be a full https:// link (e.g. https://example.com/photo.jpg) — got "https://"'],
		['a recipient without +', { to: '6281234567890', options: { phoneNumberFormat: 'strict' } }, 'To must be in full international form like +6281234567890'],
		['a document link via ftp', { mediaType: 'document', mediaUrl: 'ftp://files.example.com/x.pdf' }, 'Media URL must be a full https:// link (e.g. https://example.com/photo.jpg)'],
		['an unknown media type from an expression', { mediaType: '={{ "sticker" }}' }, 'Media Type must be one of image, video, audio, document — got "sticker"'],
	])('%s → NodeOperationError, nothing sent', async (_name, fields, problem) => {
		const { error } = await runNode({ parameters: media(fields), credentials: credentialsFor(sandbox()) });

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.description).toContain(`• ${problem}`);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('three rules broken at once (From, To, Media URL): one error names all three', async () => {
		const { error } = await runNode({
			parameters: media({ from: '12', to: 'someone', mediaUrl: 'http://cdn.example.com/a.jpg' }),
			credentials: credentialsFor(sandbox()),
		});

		expectRefused(error, 'Item 0: 3 problems (From, To, Media URL)', [
			'From must be in full international form like +6281234567890 (a leading +, the country code and the number: 7 to 15 digits, the E.164 format) — got "12"',
			'To must be in full international form like +6281234567890 (a leading +, the country code and the number: 7 to 15 digits, the E.164 format) — got "someone"',
			'Media URL must use https://, not http:// (the service only fetches https links) — got "http://cdn.example.com/a.jpg"',
		]);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('a user who has not started the chat: the service refuses and says why', async () => {
		const { error } = await runNode({
			parameters: media({ to: '+6289999999999' }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('403');
		expect(error?.message).toMatch(/^The service answered HTTP 403: Media messages can only be sent to a user who/);
		expect(JSON.stringify(error)).toContain(
			'Media messages can only be sent to a user who has started the chat (+6289999999999)',
		);
		expect(error?.description).toContain('must have started the chat first');
	});

	test('continue on fail: the not-started recipient becomes an error item, the others are sent', async () => {
		const { output } = await runNode({
			parameters: media({ to: '={{ $json.to }}' }),
			items: [{ to: STARTED }, { to: '+6289999999999' }, { to: STARTED }],
			credentials: credentialsFor(sandbox()),
			continueOnFail: true,
		});

		expect(output?.map((item) => [item.pairedItem, item.json.message ?? item.json.httpCode])).toEqual([
			[{ item: 0 }, 'success'],
			[{ item: 1 }, '403'],
			[{ item: 2 }, 'success'],
		]);
		expect(sandbox().deliveries()).toHaveLength(2);
	});
});
