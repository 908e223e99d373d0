/**
 * Media message schema (spec: "Common request fields", "Media message objects", endpoint 1
 * Rules 2 and 3, Limits). The request is a union discriminated by `type`: each type carries its
 * own object, and only an image carries a caption.
 */
import { mediaMessageSchema } from '../../nodes/MultiChannelNotification/schemas';

import type { IssuePath, Json, MediaKind } from './fixtures';
import {
	INVALID_E164,
	INVALID_HTTPS,
	MEDIA_KINDS,
	VALID_E164,
	VALID_HTTPS,
	expectIssueAt,
	expectValid,
	mediaMessage,
	withField,
	withoutField,
} from './fixtures';

function parse(candidate: unknown) {
	return mediaMessageSchema.safeParse(candidate);
}

describe('media message: valid requests', () => {
	test.each(MEDIA_KINDS)('%s with link and recipient_type individual', (kind) => {
		const candidate = mediaMessage(kind);
		const result = parse(candidate);
		expectValid(result);
		expect(result.data).toEqual(candidate);
	});

	test.each(MEDIA_KINDS)('%s without recipient_type (optional)', (kind) => {
		expectValid(parse(withoutField(mediaMessage(kind), ['recipient_type'])));
	});

	test('image with a caption', () => {
		const candidate = withField(mediaMessage('image'), ['image', 'caption'], 'Your receipt');
		const result = parse(candidate);
		expectValid(result);
		expect(result.data).toEqual(candidate);
	});
});

describe.each(['from', 'to'])('%s: E.164 with leading +', (field) => {
	test.each(VALID_E164)('accepts %s', (_name, value) => {
		expectValid(parse(withField(mediaMessage('image'), [field], value)));
	});

	test.each(INVALID_E164)('rejects %s', (_name, value) => {
		expectIssueAt(parse(withField(mediaMessage('video'), [field], value)), [field]);
	});

	test('is required', () => {
		expectIssueAt(parse(withoutField(mediaMessage('audio'), [field])), [field]);
	});
});

describe.each(MEDIA_KINDS)('%s.link: https URL (Limits → Media URL scheme)', (kind: MediaKind) => {
	test.each(VALID_HTTPS)('accepts %s', (_name, link) => {
		expectValid(parse(mediaMessage(kind, link)));
	});

	test.each(INVALID_HTTPS)('rejects %s', (_name, link) => {
		expectIssueAt(parse(mediaMessage(kind, link)), [kind, 'link']);
	});

	test('rejects a missing link', () => {
		expectIssueAt(parse(withoutField(mediaMessage(kind), [kind, 'link'])), [kind, 'link']);
	});

	test(`rejects a missing ${kind} object`, () => {
		expectIssueAt(parse(withoutField(mediaMessage(kind), [kind])), [kind]);
	});

	test(`rejects a ${kind} object that is a string`, () => {
		expectIssueAt(parse(withField(mediaMessage(kind), [kind], 'https://cdn.example.com/a.png')), [kind]);
	});
});

describe('caption: only on an image', () => {
	test.each<[string, MediaKind]>([
		['caption on video', 'video'],
		['caption on audio', 'audio'],
		['caption on document', 'document'],
	])('rejects %s', (_name, kind) => {
		const result = parse(withField(mediaMessage(kind), [kind, 'caption'], 'Hello'));
		expectIssueAt(result, [kind], /caption/);
		expect(result.success ? [] : result.error.issues.map((issue) => issue.code)).toContain('unrecognized_keys');
	});

	test.each<[string, unknown]>([
		['number', 5],
		['object', { text: 'Hello' }],
		['null', null],
	])('rejects an image caption that is a %s', (_name, caption) => {
		expectIssueAt(parse(withField(mediaMessage('image'), ['image', 'caption'], caption)), ['image', 'caption']);
	});

	test('rejects a caption at the top level instead of inside the image', () => {
		expectIssueAt(parse(withField(mediaMessage('image'), ['caption'], 'Hello')), [], /caption/);
	});
});

describe('type: discriminates the media object', () => {
	test.each<[string, unknown]>([
		['unknown type', 'sticker'],
		['template is not a media type', 'template'],
		['wrong case', 'Image'],
		['empty', ''],
		['number', 1],
	])('rejects %s', (_name, type) => {
		const result = parse(withField(mediaMessage('image'), ['type'], type));
		expectIssueAt(result, ['type']);
		expect(result.success ? [] : result.error.issues.map((issue) => issue.code)).toEqual([
			'invalid_union_discriminator',
		]);
	});

	test('rejects a missing type', () => {
		expectIssueAt(parse(withoutField(mediaMessage('image'), ['type'])), ['type']);
	});

	test.each<[string, MediaKind, MediaKind]>([
		['type image with a video object', 'image', 'video'],
		['type video with an image object', 'video', 'image'],
		['type audio with a document object', 'audio', 'document'],
		['type document with an audio object', 'document', 'audio'],
	])('rejects %s', (_name, type, objectKey) => {
		const candidate = withField(mediaMessage(objectKey), ['type'], type);
		const result = parse(candidate);
		expectIssueAt(result, [type]);
		expectIssueAt(result, [], new RegExp(objectKey));
	});
});

describe('recipient_type: optional, non-empty text when given', () => {
	test.each<[string, unknown]>([
		['empty', ''],
		['whitespace only', ' '],
		['number', 1],
	])('rejects %s', (_name, value) => {
		expectIssueAt(parse(withField(mediaMessage('document'), ['recipient_type'], value)), ['recipient_type']);
	});
});

describe('unknown keys are rejected at every level', () => {
	test.each<[string, Json, IssuePath]>([
		['top level', withField(mediaMessage('image'), ['template'], {}), []],
		['image object', withField(mediaMessage('image'), ['image', 'filename'], 'a.png'), ['image']],
		['video object', withField(mediaMessage('video'), ['video', 'id'], '1'), ['video']],
		['audio object', withField(mediaMessage('audio'), ['audio', 'id'], '1'), ['audio']],
		['document object', withField(mediaMessage('document'), ['document', 'filename'], 'a.pdf'), ['document']],
	])('%s', (_name, candidate, path) => {
		const result = parse(candidate);
		expectIssueAt(result, path);
		expect(result.success ? [] : result.error.issues.map((issue) => issue.code)).toContain('unrecognized_keys');
	});
});
