/**
 * Media message (spec: "Media message objects", endpoint 1 rules: from/to E.164, media links
 * https, caption only on an image, recipient_type default "individual").
 */
import { MEDIA_LABELS, mediaSendSchema } from '../../../../../nodes/MultiChannelNotification/actions/chatMessage/media.schema';
import { verdict } from '../../../../fixtures/problems';
import {
	FROM,
	INVALID_E164,
	INVALID_HTTPS,
	MEDIA_KINDS,
	MEDIA_LINK,
	TO,
	VALID_E164,
	VALID_HTTPS,
	mediaItem,
} from '../../../../fixtures/values';

const check = (candidate: unknown) => verdict(mediaSendSchema, MEDIA_LABELS, candidate);

describe('media message: the body the service takes', () => {
	test.each(MEDIA_KINDS)('%s: link under its own key, recipient_type individual', (kind) => {
		expect(check(mediaItem(kind))).toEqual({
			data: { from: FROM, to: TO, type: kind, recipient_type: 'individual', [kind]: { link: MEDIA_LINK } },
			problems: [],
		});
	});

	// The whole body, not a subset of it: an extra key (a caption where none belongs, another
	// media key) must fail these.
	test('an image carries its caption', () => {
		expect(check(mediaItem('image', { caption: 'Your invoice' }))).toEqual({
			data: { from: FROM, to: TO, type: 'image', recipient_type: 'individual', image: { link: MEDIA_LINK, caption: 'Your invoice' } },
			problems: [],
		});
	});

	test.each(['video', 'audio', 'document'] as const)('a %s never carries a caption', (kind) => {
		expect(check(mediaItem(kind, { caption: 'ignored' }))).toEqual({
			data: { from: FROM, to: TO, type: kind, recipient_type: 'individual', [kind]: { link: MEDIA_LINK } },
			problems: [],
		});
	});

	test('an image with an empty caption carries none', () => {
		expect(check(mediaItem('image', { caption: '' })).data).toEqual({
			from: FROM,
			to: TO,
			type: 'image',
			recipient_type: 'individual',
			image: { link: MEDIA_LINK },
		});
	});
});

describe.each(['from', 'to'] as const)('%s: E.164', (key) => {
	const field = MEDIA_LABELS[key].label;

	test.each(VALID_E164)('accepts %s', (_name, value) => {
		expect(check(mediaItem('image', { [key]: value })).problems).toEqual([]);
	});

	test.each(INVALID_E164)('rejects %s', (_name, value) => {
		expect(check(mediaItem('image', { [key]: value })).problems).toEqual([
			expect.objectContaining({ field, path: [key] }),
		]);
	});
});

describe('Media URL: https', () => {
	test.each(VALID_HTTPS)('accepts %s', (_name, mediaUrl) => {
		expect(check(mediaItem('document', { mediaUrl })).problems).toEqual([]);
	});

	test.each(INVALID_HTTPS)('rejects %s', (_name, mediaUrl) => {
		expect(check(mediaItem('document', { mediaUrl })).problems).toEqual([
			expect.objectContaining({ field: 'Media URL', path: ['mediaUrl'], rule: expect.stringMatching(/https|must be text/) }),
		]);
	});
});

test('Media Type: only the four kinds the spec lists', () => {
	expect(check(mediaItem('image', { mediaType: 'sticker' })).problems).toEqual([
		{ field: 'Media Type', path: ['mediaType'], rule: 'must be one of image, video, audio, document', value: '"sticker"' },
	]);
});

test('every broken field is reported at once', () => {
	expect(check({ from: '1', to: '2', mediaType: 'image', mediaUrl: 'http://x' }).problems.map((p) => p.field)).toEqual([
		'From',
		'To',
		'Media URL',
	]);
});
