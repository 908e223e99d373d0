/**
 * Tests of the sandbox itself, over real HTTP on 127.0.0.1. Every rule of the spec that the
 * sandbox enforces has at least one accepted and one rejected request in the tables below, so a
 * node test that passes against the sandbox is checked against a reading of the spec that does
 * not share code with the node.
 */

import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH, startSandbox } from '../../sandbox/server';
import { expectIdle } from '../helpers/sandbox';
import type { Fault, RecordedRequest, Sandbox, SandboxStats } from '../../sandbox/server';

type Json = Record<string, unknown>;

const FROM = '+6281100000001';
const TO = '+6281200000002';
/** Has started the chat from the sandbox's options, so reset() keeps it. */
const STARTED = '+6281300000003';
const KEY = 'test-key-123';

const BODY = { type: 'body', parameters: [{ type: 'text', text: 'Budi' }] };
const HEADER = {
	type: 'header',
	parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/header.png' } }],
};

function quickReply(index: unknown, payload: unknown = 'YES'): Json {
	return { type: 'button', sub_type: 'quick_reply', index, parameters: [{ type: 'payload', payload }] };
}

function urlButton(index: unknown, text: unknown = 'order/42'): Json {
	return { type: 'button', sub_type: 'url', index, parameters: [{ type: 'text', text }] };
}

function templateMessage(components: unknown[] = [BODY]): Json {
	return {
		from: FROM,
		to: TO,
		type: 'template',
		template: { name: 'order_update', language: { policy: 'deterministic', code: 'id' }, components },
	};
}

function mediaMessage(type: string, media: Json = { link: `https://cdn.example.com/file.${type}` }): Json {
	return { from: FROM, to: STARTED, type, [type]: media };
}

function smsRequest(): Json {
	return { phone_number: '+6281234567890', message: 'Your code is 1234' };
}

function combinedRequest(): Json {
	return { chat: templateMessage(), sms: smsRequest() };
}

/** A deep copy changed by `change`, so table rows never share state. */
function variant<T>(base: T, change: (copy: T) => void): T {
	const copy = structuredClone(base);
	change(copy);
	return copy;
}

function json(value: unknown): Json {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected an object');
	return value as Json;
}

interface Answer {
	status: number;
	headers: Headers;
	text: string;
	body: unknown;
	message: unknown;
}

let sandbox: Sandbox;
/** The sandbox's clock while a test holds it still (rate-limit windows); undefined is the real clock. */
let clockMs: number | undefined;
const now = () => clockMs ?? Date.now();

async function send(
	apiPath: string,
	payload: unknown,
	init: { headers?: Record<string, string>; raw?: string | Uint8Array; method?: string; signal?: AbortSignal } = {},
): Promise<Answer> {
	const headers = init.headers ?? { Authorization: KEY, 'Content-Type': 'application/json' };
	const method = init.method ?? 'POST';
	const response = await fetch(`${sandbox.url}${apiPath}`, {
		method,
		headers,
		body: method === 'GET' || method === 'HEAD' ? undefined : (init.raw ?? JSON.stringify(payload)),
		signal: init.signal,
	});
	const text = await response.text();
	let body: unknown;
	try {
		body = JSON.parse(text) as unknown;
	} catch (error) {
		// Some answers (the nonJson fault) are meant not to be JSON; the tests look at `text` then.
		if (!(error instanceof SyntaxError)) throw error;
		body = undefined;
	}
	const message = typeof body === 'object' && body !== null ? (body as Json).message : undefined;
	return { status: response.status, headers: response.headers, text, body, message };
}

async function control(name: string, method = 'GET', payload?: unknown): Promise<{ status: number; body: Json }> {
	const response = await fetch(`${sandbox.url}/__sandbox/${name}`, {
		method,
		body: payload === undefined ? undefined : JSON.stringify(payload),
	});
	return { status: response.status, body: json(await response.json()) };
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, apiKey: KEY, startedChats: [STARTED], now });
});

afterAll(async () => {
	await sandbox.stop();
});

beforeEach(() => {
	sandbox.reset();
	clockMs = undefined;
});

afterEach(async () => {
	await expectIdle(sandbox);
});

interface Case {
	name: string;
	path: string;
	body: unknown;
	status: number;
	/** For rejected requests: what the message must say (field path and rule). */
	message?: RegExp;
}

const accepted = (name: string, apiPath: string, body: unknown): Case => ({ name, path: apiPath, body, status: 200 });
const rejected = (name: string, apiPath: string, body: unknown, message: RegExp, status = 400): Case => ({
	name,
	path: apiPath,
	body,
	status,
	message,
});

const wa = WA_MESSAGE_PATH;

const phoneCases: Case[] = [
	accepted('from and to in E.164', wa, templateMessage()),
	accepted('shortest E.164 number (7 digits)', wa, variant(templateMessage(), (m) => (m.to = '+1234567'))),
	accepted('longest E.164 number (15 digits)', wa, variant(templateMessage(), (m) => (m.to = '+123456789012345'))),
	rejected('from without +', wa, variant(templateMessage(), (m) => (m.from = '6281100000001')), /^from: must be an E\.164/),
	rejected('to with 6 digits', wa, variant(templateMessage(), (m) => (m.to = '+123456')), /^to: must be an E\.164/),
	rejected('to with 16 digits', wa, variant(templateMessage(), (m) => (m.to = '+1234567890123456')), /^to: must be an E\.164/),
	rejected('to starting with +0', wa, variant(templateMessage(), (m) => (m.to = '+0812345678')), /^to: must be an E\.164/),
	rejected('to with spaces', wa, variant(templateMessage(), (m) => (m.to = '+62 812 3456 789')), /^to: must be an E\.164/),
	rejected('to as a number', wa, variant(templateMessage(), (m) => (m.to = 6281200000002)), /^to: must be a string/),
	rejected('from missing', wa, variant(templateMessage(), (m) => delete m.from), /^from: is required$/),
	rejected('to missing', wa, variant(templateMessage(), (m) => delete m.to), /^to: is required$/),
];

const typeCases: Case[] = [
	accepted('type template', wa, templateMessage()),
	rejected('type missing', wa, variant(templateMessage(), (m) => delete m.type), /^type: is required$/),
	rejected('type text', wa, variant(templateMessage(), (m) => (m.type = 'text')), /^type: must be one of/),
	rejected('type in capitals', wa, variant(templateMessage(), (m) => (m.type = 'TEMPLATE')), /^type: must be one of/),
];

const templateCases: Case[] = [
	accepted('name, language and components', wa, templateMessage()),
	accepted('another language and policy', wa, variant(templateMessage(), (m) => (json(m.template).language = { policy: 'fallback', code: 'en_US' }))),
	accepted('header, body and both button kinds', wa, templateMessage([HEADER, BODY, quickReply('0'), urlButton('1')])),
	rejected('unknown top-level key', wa, { ...templateMessage(), priority: 'high' }, /^priority: unknown field/),
	rejected('recipient_type on a template', wa, { ...templateMessage(), recipient_type: 'individual' }, /^recipient_type: only allowed in media/),
	rejected('image key on a template', wa, { ...templateMessage(), image: { link: 'https://a.b/c.png' } }, /^image: not allowed when type is "template"/),
	rejected('template missing', wa, variant(templateMessage(), (m) => delete m.template), /^template: is required$/),
	rejected('template not an object', wa, variant(templateMessage(), (m) => (m.template = 'order_update')), /^template: must be an object/),
	rejected('unknown key in template', wa, variant(templateMessage(), (m) => (json(m.template).namespace = 'x')), /^template\.namespace: unknown field/),
	rejected('template.name empty', wa, variant(templateMessage(), (m) => (json(m.template).name = '')), /^template\.name: must not be empty$/),
	rejected('template.name missing', wa, variant(templateMessage(), (m) => delete json(m.template).name), /^template\.name: is required$/),
	rejected('template.language missing', wa, variant(templateMessage(), (m) => delete json(m.template).language), /^template\.language: is required$/),
	rejected('template.language a string', wa, variant(templateMessage(), (m) => (json(m.template).language = 'id')), /^template\.language: must be an object/),
	rejected('language.policy empty', wa, variant(templateMessage(), (m) => (json(json(m.template).language).policy = '')), /^template\.language\.policy: must not be empty$/),
	rejected('language.code missing', wa, variant(templateMessage(), (m) => delete json(json(m.template).language).code), /^template\.language\.code: is required$/),
	rejected('language.code a number', wa, variant(templateMessage(), (m) => (json(json(m.template).language).code = 1)), /^template\.language\.code: must be a string/),
	rejected('unknown key in language', wa, variant(templateMessage(), (m) => (json(json(m.template).language).locale = 'id_ID')), /^template\.language\.locale: unknown field/),
	rejected('components not an array', wa, variant(templateMessage(), (m) => (json(m.template).components = BODY)), /^template\.components: must be an array/),
	rejected('component not an object', wa, templateMessage([BODY, 'button']), /^template\.components\[1\]: must be an object/),
	rejected('component of unknown type', wa, templateMessage([BODY, { type: 'footer', parameters: [] }]), /^template\.components\[1\]\.type: must be "header", "body" or "button"/),
	rejected('component without type', wa, templateMessage([{ parameters: [] }]), /^template\.components\[0\]\.type: is required$/),
];

const bodyCases: Case[] = [
	accepted('body with text parameters', wa, templateMessage([{ type: 'body', parameters: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }])),
	accepted('body with no parameters', wa, templateMessage([{ type: 'body', parameters: [] }])),
	rejected('no body component', wa, templateMessage([]), /^template\.components: the body component is required$/),
	rejected('only a header, no body', wa, templateMessage([HEADER]), /^template\.components: the body component is required$/),
	rejected('two body components', wa, templateMessage([BODY, BODY]), /^template\.components\[1\]: exactly one body component/),
	rejected('body without parameters', wa, templateMessage([{ type: 'body' }]), /^template\.components\[0\]\.parameters: is required$/),
	rejected('body text empty', wa, templateMessage([{ type: 'body', parameters: [{ type: 'text', text: '' }] }]), /^template\.components\[0\]\.parameters\[0\]\.text: must not be empty$/),
	rejected('body text a number', wa, templateMessage([{ type: 'body', parameters: [{ type: 'text', text: 5 }] }]), /^template\.components\[0\]\.parameters\[0\]\.text: must be a string/),
	rejected('body parameter of type currency', wa, templateMessage([{ type: 'body', parameters: [{ type: 'currency', text: '5' }] }]), /^template\.components\[0\]\.parameters\[0\]\.type: must be "text"$/),
	rejected('body parameter with extra key', wa, templateMessage([{ type: 'body', parameters: [{ type: 'text', text: 'a', bold: true }] }]), /^template\.components\[0\]\.parameters\[0\]\.bold: unknown field/),
	rejected('body with sub_type', wa, templateMessage([{ ...BODY, sub_type: 'x' }]), /^template\.components\[0\]\.sub_type: unknown field/),
];

const headerCases: Case[] = [
	accepted('header image over https', wa, templateMessage([HEADER, BODY])),
	rejected('header image over http', wa, templateMessage([{ type: 'header', parameters: [{ type: 'image', image: { link: 'http://cdn.example.com/h.png' } }] }, BODY]), /^template\.components\[0\]\.parameters\[0\]\.image\.link: must use https/),
	rejected('header link not a URL', wa, templateMessage([{ type: 'header', parameters: [{ type: 'image', image: { link: 'cdn.example.com/h.png' } }] }, BODY]), /\.image\.link: must be a valid URL$/),
	rejected('header link empty', wa, templateMessage([{ type: 'header', parameters: [{ type: 'image', image: { link: '' } }] }, BODY]), /\.image\.link: must not be empty$/),
	rejected('two header parameters', wa, templateMessage([{ type: 'header', parameters: [HEADER.parameters[0], HEADER.parameters[0]] }, BODY]), /^template\.components\[0\]\.parameters: must contain exactly one parameter \(got 2\)$/),
	rejected('no header parameter', wa, templateMessage([{ type: 'header', parameters: [] }, BODY]), /must contain exactly one parameter \(got 0\)$/),
	rejected('header parameter of type video', wa, templateMessage([{ type: 'header', parameters: [{ type: 'video', image: { link: 'https://a.b/c' } }] }, BODY]), /^template\.components\[0\]\.parameters\[0\]\.type: must be "image"$/),
	rejected('header image with caption', wa, templateMessage([{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://a.b/c', caption: 'x' } }] }, BODY]), /\.image\.caption: unknown field/),
	rejected('two headers', wa, templateMessage([HEADER, HEADER, BODY]), /^template\.components\[1\]: at most one header component/),
];

const quickReplyCases: Case[] = [
	accepted('three quick replies 0, 1, 2', wa, templateMessage([BODY, quickReply('0'), quickReply('1'), quickReply('2')])),
	rejected('four quick replies', wa, templateMessage([BODY, quickReply('0'), quickReply('1'), quickReply('2'), quickReply('2')]), /^template\.components\[4\]: at most 3 quick reply buttons/),
	rejected('quick reply index 3', wa, templateMessage([BODY, quickReply('3')]), /^template\.components\[1\]\.index: a quick reply button index must be "0", "1" or "2"/),
	rejected('quick reply index as a number', wa, templateMessage([BODY, quickReply(0)]), /^template\.components\[1\]\.index: must be a string \(got a number\)$/),
	rejected('quick reply index missing', wa, templateMessage([BODY, { type: 'button', sub_type: 'quick_reply', parameters: [{ type: 'payload', payload: 'x' }] }]), /^template\.components\[1\]\.index: is required$/),
	rejected('duplicate quick reply index', wa, templateMessage([BODY, quickReply('1'), quickReply('1')]), /^template\.components\[2\]\.index: "1" is already used by template\.components\[1\]/),
	rejected('quick reply payload empty', wa, templateMessage([BODY, quickReply('0', '')]), /^template\.components\[1\]\.parameters\[0\]\.payload: must not be empty$/),
	rejected('quick reply parameter of type text', wa, templateMessage([BODY, { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'text', text: 'x' }] }]), /^template\.components\[1\]\.parameters\[0\]\.text: unknown field/),
	rejected('quick reply with two parameters', wa, templateMessage([BODY, { ...quickReply('0'), parameters: [{ type: 'payload', payload: 'a' }, { type: 'payload', payload: 'b' }] }]), /^template\.components\[1\]\.parameters: must contain exactly one parameter \(got 2\)$/),
	rejected('button of unknown sub_type', wa, templateMessage([BODY, { ...quickReply('0'), sub_type: 'call' }]), /^template\.components\[1\]\.sub_type: must be "quick_reply" or "url"$/),
	rejected('button without sub_type', wa, templateMessage([BODY, { type: 'button', index: '0', parameters: [{ type: 'payload', payload: 'x' }] }]), /^template\.components\[1\]\.sub_type: is required$/),
];

const urlButtonCases: Case[] = [
	accepted('url button index 0', wa, templateMessage([HEADER, BODY, urlButton('0')])),
	accepted('url button after quick replies', wa, templateMessage([BODY, quickReply('0'), quickReply('1'), urlButton('2')])),
	accepted('url button index 10', wa, templateMessage([BODY, urlButton('10')])),
	rejected('url button index not digits', wa, templateMessage([BODY, urlButton('first')]), /^template\.components\[1\]\.index: a url button index must be a string of digits/),
	rejected('url button index as a number', wa, templateMessage([BODY, urlButton(1)]), /^template\.components\[1\]\.index: must be a string \(got a number\)$/),
	rejected('url button text empty', wa, templateMessage([BODY, urlButton('0', '')]), /^template\.components\[1\]\.parameters\[0\]\.text: must not be empty$/),
	rejected('url button parameter of type payload', wa, templateMessage([BODY, { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'payload', payload: 'x' }] }]), /^template\.components\[1\]\.parameters\[0\]\.payload: unknown field/),
	rejected('url button sharing an index with a quick reply', wa, templateMessage([BODY, quickReply('0'), urlButton('0')]), /^template\.components\[2\]\.index: "0" is already used/),
];

const mediaCases: Case[] = [
	accepted('image with caption', wa, mediaMessage('image', { link: 'https://cdn.example.com/a.png', caption: 'Your receipt' })),
	accepted('image with empty caption', wa, mediaMessage('image', { link: 'https://cdn.example.com/a.png', caption: '' })),
	accepted('video', wa, mediaMessage('video')),
	accepted('audio', wa, mediaMessage('audio')),
	accepted('document with recipient_type', wa, { ...mediaMessage('document'), recipient_type: 'individual' }),
	rejected('image over http', wa, mediaMessage('image', { link: 'http://cdn.example.com/a.png' }), /^image\.link: must use https/),
	rejected('video over ftp', wa, mediaMessage('video', { link: 'ftp://cdn.example.com/a.mp4' }), /^video\.link: must use https/),
	rejected('document link with a space', wa, mediaMessage('document', { link: 'https://cdn.example.com/a b.pdf' }), /^document\.link: must be a valid URL$/),
	rejected('audio link missing', wa, mediaMessage('audio', {}), /^audio\.link: is required$/),
	rejected('caption on a video', wa, mediaMessage('video', { link: 'https://cdn.example.com/a.mp4', caption: 'x' }), /^video\.caption: unknown field/),
	rejected('caption a number', wa, mediaMessage('image', { link: 'https://cdn.example.com/a.png', caption: 5 }), /^image\.caption: must be a string/),
	rejected('media object missing', wa, { from: FROM, to: STARTED, type: 'image' }, /^image: is required$/),
	rejected('media object a string', wa, { from: FROM, to: STARTED, type: 'image', image: 'https://cdn.example.com/a.png' }, /^image: must be an object/),
	rejected('payload under another media key', wa, { from: FROM, to: STARTED, type: 'image', video: { link: 'https://a.b/c' } }, /^video: not allowed when type is "image"$/),
	rejected('template on a media message', wa, { ...mediaMessage('audio'), template: templateMessage().template }, /^template: not allowed when type is "audio"$/),
	rejected('recipient_type empty', wa, { ...mediaMessage('video'), recipient_type: '' }, /^recipient_type: must not be empty$/),
	rejected('unknown key on a media message', wa, { ...mediaMessage('video'), preview_url: true }, /^preview_url: unknown field/),
];

const conversationCases: Case[] = [
	accepted('template to a user who has not started the chat', wa, templateMessage()),
	accepted('media to a user who has started the chat', wa, mediaMessage('image')),
	rejected('media to a user who has not started the chat', wa, { ...mediaMessage('video'), to: TO }, /^Media messages can only be sent to a user who has started the chat \(\+6281200000002\)$/, 403),
	// The request checks come first: an invalid media message is a 400 even before the chat rule.
	rejected('invalid media to a user who has not started the chat', wa, { ...mediaMessage('video', { link: 'http://a.b/c' }), to: TO }, /^video\.link: must use https/),
];

const sms = SMS_PATH;
const smsCases: Case[] = [
	accepted('sms to +62', sms, smsRequest()),
	rejected('sms to +1', sms, variant(smsRequest(), (m) => (m.phone_number = '+14155550100')), /^phone_number: only Indonesian numbers \(country code \+62\)/),
	rejected('sms to a local 08 number', sms, variant(smsRequest(), (m) => (m.phone_number = '081234567890')), /^phone_number: must be an E\.164/),
	rejected('sms phone_number too long', sms, variant(smsRequest(), (m) => (m.phone_number = '+6281234567890123')), /^phone_number: must be an E\.164/),
	rejected('sms phone_number missing', sms, variant(smsRequest(), (m) => delete m.phone_number), /^phone_number: is required$/),
	rejected('sms message empty', sms, variant(smsRequest(), (m) => (m.message = '')), /^message: must not be empty$/),
	rejected('sms message missing', sms, variant(smsRequest(), (m) => delete m.message), /^message: is required$/),
	rejected('sms message a number', sms, variant(smsRequest(), (m) => (m.message = 1234)), /^message: must be a string/),
	rejected('sms with unknown key', sms, { ...smsRequest(), sender: 'ACME' }, /^sender: unknown field/),
	rejected('sms with the chat field names', sms, { to: '+6281234567890', message: 'x' }, /^to: unknown field/),
];

const combined = COMBINED_PATH;
const combinedCases: Case[] = [
	accepted('chat and sms', combined, combinedRequest()),
	accepted('chat with header and buttons', combined, { chat: templateMessage([HEADER, BODY, quickReply('0'), urlButton('1')]), sms: smsRequest() }),
	rejected('chat missing', combined, { sms: smsRequest() }, /^chat: is required$/),
	rejected('sms missing', combined, { chat: templateMessage() }, /^sms: is required$/),
	rejected('unknown top-level key', combined, { ...combinedRequest(), order: ['chat', 'sms'] }, /^order: unknown field/),
	rejected('chat of type image', combined, { chat: mediaMessage('image'), sms: smsRequest() }, /^chat\.type: must be "template"/),
	rejected('chat without body component', combined, { chat: templateMessage([HEADER]), sms: smsRequest() }, /^chat\.template\.components: the body component is required$/),
	rejected('chat with a bad to', combined, { chat: variant(templateMessage(), (m) => (m.to = '0812')), sms: smsRequest() }, /^chat\.to: must be an E\.164/),
	rejected('chat with an unknown key', combined, { chat: { ...templateMessage(), recipient_type: 'individual' }, sms: smsRequest() }, /^chat\.recipient_type: only allowed in media/),
	rejected('sms to a non +62 number', combined, { chat: templateMessage(), sms: { phone_number: '+6591234567', message: 'x' } }, /^sms\.phone_number: only Indonesian numbers/),
	rejected('sms message empty', combined, { chat: templateMessage(), sms: { ...smsRequest(), message: '' } }, /^sms\.message: must not be empty$/),
	rejected('sms a string', combined, { chat: templateMessage(), sms: 'hello' }, /^sms: must be an object/),
	rejected('sms with unknown key', combined, { chat: templateMessage(), sms: { ...smsRequest(), type: 'sms' } }, /^sms\.type: unknown field/),
];

describe.each([
	['phone numbers', phoneCases],
	['message type', typeCases],
	['template object', templateCases],
	['body component', bodyCases],
	['header component', headerCases],
	['quick reply buttons', quickReplyCases],
	['url buttons', urlButtonCases],
	['media messages', mediaCases],
	['conversation rule', conversationCases],
	['sms notification', smsCases],
	['combined notification', combinedCases],
])('rule: %s', (_group, cases) => {
	it('has at least one accepted and one rejected request', () => {
		expect(cases.map((c) => c.status)).toContain(200);
		expect(cases.filter((c) => c.status !== 200).length).toBeGreaterThan(0);
	});

	it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		const answer = await send(c.path, c.body);
		expect(answer.status).toBe(c.status);
		expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
		if (c.status === 200) {
			expect(answer.message).toBe('success');
			expect(sandbox.deliveries()).toHaveLength(1);
		} else {
			expect(answer.message).toEqual(expect.stringMatching(c.message ?? /./));
			expect(sandbox.deliveries()).toHaveLength(0);
		}
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].status).toBe(c.status);
	});
});

describe('authorization, content type, body, method and path', () => {
	const jsonType = { 'Content-Type': 'application/json' };

	it.each([
		['the exact key', { Authorization: KEY, ...jsonType }, 200],
		['no Authorization header', { ...jsonType }, 401],
		['a wrong key', { Authorization: 'wrong-key', ...jsonType }, 401],
		['the key with a Bearer scheme', { Authorization: `Bearer ${KEY}`, ...jsonType }, 401],
		['the key with a trailing character', { Authorization: `${KEY}x`, ...jsonType }, 401],
	])('%s → %i', async (_name, headers, status) => {
		const answer = await send(SMS_PATH, smsRequest(), { headers });
		expect(answer.status).toBe(status);
		if (status === 401) {
			expect(answer.body).toEqual({ message: 'Unauthorized: invalid API key' });
			expect(sandbox.deliveries()).toHaveLength(0);
		} else {
			expect(sandbox.deliveries()).toHaveLength(1);
		}
	});

	it('never echoes the received Authorization value', async () => {
		const secret = 'sk-live-very-secret-value';
		const answer = await send(WA_MESSAGE_PATH, templateMessage(), { headers: { Authorization: secret, ...jsonType } });
		expect(answer.status).toBe(401);
		expect(answer.text).not.toContain(secret);
		expect(JSON.stringify([...answer.headers])).not.toContain(secret);
	});

	it('checks the key before the content type and the body', async () => {
		const answer = await send(SMS_PATH, undefined, { headers: { Authorization: 'nope', 'Content-Type': 'text/plain' }, raw: 'not json' });
		expect(answer.status).toBe(401);
	});

	it.each([
		['application/json', 'application/json', 200],
		['with a charset', 'application/json; charset=utf-8', 200],
		['in capitals', 'Application/JSON', 200],
		['text/plain', 'text/plain', 415],
		['form encoded', 'application/x-www-form-urlencoded', 415],
		['application/jsonx', 'application/jsonx', 415],
	])('Content-Type %s → %i', async (_name, contentType, status) => {
		const answer = await send(SMS_PATH, smsRequest(), { headers: { Authorization: KEY, 'Content-Type': contentType } });
		expect(answer.status).toBe(status);
		if (status === 415) expect(answer.message).toBe('Content-Type must be application/json');
	});

	it('rejects a request without Content-Type with 415', async () => {
		// A byte array body makes fetch send no Content-Type at all.
		const raw = new TextEncoder().encode(JSON.stringify(smsRequest()));
		const answer = await send(SMS_PATH, undefined, { headers: { Authorization: KEY }, raw });
		expect(answer.status).toBe(415);
	});

	it.each([
		['an object', JSON.stringify(smsRequest()), 200, /success/],
		['an empty body', '', 400, /^body: is empty/],
		['invalid JSON', '{"phone_number": "+6281234567890",', 400, /^body: is not valid JSON$/],
		['an array', JSON.stringify([smsRequest()]), 400, /^body: must be a JSON object$/],
		['null', 'null', 400, /^body: must be a JSON object$/],
		['a string', '"hello"', 400, /^body: must be a JSON object$/],
	])('body %s → %i', async (_name, raw, status, message) => {
		const answer = await send(SMS_PATH, undefined, { raw });
		expect(answer.status).toBe(status);
		expect(answer.message).toEqual(expect.stringMatching(message));
	});

	it.each([
		['GET', 405],
		['PUT', 405],
		['DELETE', 405],
		['POST', 200],
	])('%s on an API path → %i', async (method, status) => {
		const answer = await send(SMS_PATH, smsRequest(), { method });
		expect(answer.status).toBe(status);
		if (status === 405) expect(answer.message).toMatch(/use POST/);
		expect(sandbox.requests[0].method).toBe(method);
	});

	it.each(['/v1/wa/messages', '/v2/sms/notification', '/', '/v1/combined/notification'])('unknown path %s → 404', async (unknown) => {
		const answer = await send(unknown, smsRequest());
		expect(answer.status).toBe(404);
		expect(typeof answer.message).toBe('string');
		// Only the three API endpoints are recorded.
		expect(sandbox.requests).toHaveLength(0);
	});

	it('ignores a query string when matching the path', async () => {
		const answer = await send(`${SMS_PATH}?trace=1`, smsRequest());
		expect(answer.status).toBe(200);
		expect(sandbox.requests[0].path).toBe(SMS_PATH);
	});
});

describe('successful answers', () => {
	it('chat message: {message: success, data: {id}} with a wamid', async () => {
		const answer = await send(WA_MESSAGE_PATH, templateMessage());
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({ message: 'success', data: { id: expect.stringMatching(/^wamid\.[0-9a-f]{24}$/) } });
		expect(sandbox.requests[0].id).toBe(json(json(answer.body).data).id);
	});

	it('sms: id, incrementing numeric request_id and the full content', async () => {
		const first = json(json((await send(SMS_PATH, smsRequest())).body).data);
		const second = json(json((await send(SMS_PATH, { ...smsRequest(), message: 'second' })).body).data);
		expect(first).toEqual({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			request_id: expect.any(Number),
			full_content: 'Your code is 1234',
		});
		expect(second.full_content).toBe('second');
		expect(second.request_id).toBe((first.request_id as number) + 1);
		expect(second.id).not.toBe(first.id);
	});

	it('combined: request_id and the per-channel status', async () => {
		const answer = await send(COMBINED_PATH, combinedRequest());
		expect(answer.body).toEqual({
			message: 'success',
			data: {
				request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
				result: { sms: { status: 'failover' }, chat: { status: 'requested' } },
			},
		});
		expect(sandbox.deliveries()[0].id).toBe(json(json(answer.body).data).request_id);
	});

	it('gives every delivery a distinct id, also under concurrency', async () => {
		const sends = Array.from({ length: 60 }, (_, i) => {
			if (i % 3 === 0) return send(WA_MESSAGE_PATH, templateMessage());
			if (i % 3 === 1) return send(SMS_PATH, smsRequest());
			return send(COMBINED_PATH, combinedRequest());
		});
		const answers = await Promise.all(sends);
		expect(answers.filter((a) => a.status !== 200)).toEqual([]);
		const ids = sandbox.deliveries().map((d) => d.id);
		expect(ids).toHaveLength(60);
		expect(new Set(ids).size).toBe(60);
	});
});

describe('recording', () => {
	it('records method, path, headers, raw and parsed body, status and response', async () => {
		const payload = smsRequest();
		const answer = await send(SMS_PATH, payload, { headers: { Authorization: KEY, 'Content-Type': 'application/json', 'X-Trace': 'abc' } });
		const [record] = sandbox.requests;
		expect(record).toMatchObject<Partial<RecordedRequest>>({
			seq: 1,
			method: 'POST',
			path: SMS_PATH,
			rawBody: JSON.stringify(payload),
			body: payload,
			status: 200,
			response: answer.body,
			delivered: true,
		});
		expect(record.headers.authorization).toBe(KEY);
		expect(record.headers['x-trace']).toBe('abc');
		expect(record.fault).toBeUndefined();
	});

	it('records rejected requests too, in arrival order, with delivered false', async () => {
		await send(SMS_PATH, { phone_number: '+1555', message: 'x' });
		await send(WA_MESSAGE_PATH, templateMessage());
		expect(sandbox.requests.map((r) => [r.seq, r.path, r.status, r.delivered])).toEqual([
			[1, SMS_PATH, 400, false],
			[2, WA_MESSAGE_PATH, 200, true],
		]);
		expect(sandbox.deliveries().map((r) => r.seq)).toEqual([2]);
	});

	it('keeps the raw text of a body that is not JSON, with body undefined', async () => {
		await send(SMS_PATH, undefined, { raw: 'phone_number=+62' });
		expect(sandbox.requests[0].rawBody).toBe('phone_number=+62');
		expect(sandbox.requests[0].body).toBeUndefined();
	});

	it('reset() clears requests, faults, started chats and latency', async () => {
		sandbox.startChat(TO);
		sandbox.setLatency(500);
		sandbox.injectFault({ kind: 'status', status: 500 });
		await send(SMS_PATH, smsRequest());
		expect(sandbox.requests).toHaveLength(1);
		sandbox.reset();
		expect(sandbox.requests).toHaveLength(0);
		// No fault and no latency any more, and TO is no longer a started chat (STARTED still is).
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
		expect(sandbox.requests[0].latencyMs).toBe(0);
		expect((await send(WA_MESSAGE_PATH, { ...mediaMessage('image'), to: TO })).status).toBe(403);
		expect((await send(WA_MESSAGE_PATH, mediaMessage('image'))).status).toBe(200);
		expect(sandbox.requests[0].seq).toBe(1);
	});

	it('startChat() lets media through to that number and refuses a non-E.164 number', async () => {
		expect((await send(WA_MESSAGE_PATH, { ...mediaMessage('audio'), to: TO })).status).toBe(403);
		sandbox.startChat(TO);
		expect((await send(WA_MESSAGE_PATH, { ...mediaMessage('audio'), to: TO })).status).toBe(200);
		expect(() => sandbox.startChat('0812345678')).toThrow(/E\.164/);
	});
});

describe('faults', () => {
	it.each<[string, Fault, number, unknown]>([
		['status 500 with a message', { kind: 'status', status: 500, message: 'internal' }, 500, { message: 'internal' }],
		['status 502 with the default text', { kind: 'status', status: 502 }, 502, { message: 'Bad Gateway' }],
		['errorMessage: a 200 that is not success', { kind: 'errorMessage' }, 200, { message: 'quota exceeded', data: {} }],
		['errorMessage with its own text and status', { kind: 'errorMessage', status: 202, message: 'rejected' }, 202, { message: 'rejected', data: {} }],
	])('%s', async (_name, fault, status, body) => {
		sandbox.injectFault(fault);
		const answer = await send(SMS_PATH, smsRequest());
		expect(answer.status).toBe(status);
		expect(answer.body).toEqual(body);
		expect(sandbox.requests[0]).toMatchObject({ fault: fault.kind, status, delivered: false });
		expect(sandbox.requests[0].id).toBeUndefined();
		// The fault is used up: the next request is answered normally.
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it('429 with Retry-After', async () => {
		sandbox.injectFault({ kind: 'status', status: 429, message: 'slow down', retryAfter: '2' });
		const answer = await send(WA_MESSAGE_PATH, templateMessage());
		expect(answer.status).toBe(429);
		expect(answer.headers.get('retry-after')).toBe('2');
		expect(answer.message).toBe('slow down');
	});

	it('nonJson: an HTML page', async () => {
		sandbox.injectFault({ kind: 'nonJson', status: 502 });
		const answer = await send(COMBINED_PATH, combinedRequest());
		expect(answer.status).toBe(502);
		expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
		expect(answer.text).toBe('<html>Bad gateway</html>');
		expect(sandbox.requests[0].response).toBe('<html>Bad gateway</html>');
	});

	it('reset: the socket is destroyed without an answer', async () => {
		sandbox.injectFault({ kind: 'reset' });
		await expect(send(SMS_PATH, smsRequest())).rejects.toThrow();
		expect(sandbox.requests[0]).toMatchObject({ fault: 'reset', status: 0, delivered: false, response: undefined });
	});

	it('timeout: no answer until the client gives up', async () => {
		sandbox.injectFault({ kind: 'timeout' });
		const startedAt = performance.now();
		await expect(send(SMS_PATH, smsRequest(), { signal: AbortSignal.timeout(300) })).rejects.toThrow();
		// Lower bound only (a timer never fires early), less 1 ms: libuv's timer clock counts whole milliseconds.
		expect(performance.now() - startedAt).toBeGreaterThanOrEqual(299);
		expect(sandbox.requests[0]).toMatchObject({ fault: 'timeout', status: 0, delivered: false });
		expect(sandbox.requests[0].body).toEqual(smsRequest());
	});

	it('afterDelivery: delivered with an id, but the fault is answered', async () => {
		sandbox.injectFault({ kind: 'status', status: 500, afterDelivery: true });
		const answer = await send(SMS_PATH, smsRequest());
		expect(answer.status).toBe(500);
		const [record] = sandbox.requests;
		expect(record).toMatchObject({ fault: 'status', status: 500, delivered: true });
		expect(record.id).toEqual(expect.any(String));
		expect(sandbox.deliveries()).toHaveLength(1);
	});

	it('afterDelivery on an invalid request delivers nothing', async () => {
		sandbox.injectFault({ kind: 'reset', afterDelivery: true });
		await expect(send(SMS_PATH, { phone_number: '+1555', message: '' })).rejects.toThrow();
		expect(sandbox.deliveries()).toHaveLength(0);
	});

	it('applies before the Authorization check', async () => {
		sandbox.injectFault({ kind: 'status', status: 503 });
		const answer = await send(SMS_PATH, smsRequest(), { headers: { Authorization: 'wrong', 'Content-Type': 'application/json' } });
		expect(answer.status).toBe(503);
	});

	it('matches only its path and keeps waiting for it', async () => {
		sandbox.injectFault({ kind: 'status', status: 500, path: SMS_PATH });
		expect((await send(WA_MESSAGE_PATH, templateMessage())).status).toBe(200);
		expect((await send(COMBINED_PATH, combinedRequest())).status).toBe(200);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(500);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it('does not apply to control endpoints or unknown paths', async () => {
		sandbox.injectFault({ kind: 'status', status: 500 });
		expect((await control('stats')).status).toBe(200);
		expect((await send('/v1/unknown', {})).status).toBe(404);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(500);
	});

	it('times: applies to that many requests, then FIFO to the next fault', async () => {
		sandbox.injectFault({ kind: 'status', status: 500, times: 2 });
		sandbox.injectFault({ kind: 'status', status: 502 });
		const statuses: number[] = [];
		for (let i = 0; i < 4; i++) statuses.push((await send(SMS_PATH, smsRequest())).status);
		expect(statuses).toEqual([500, 500, 502, 200]);
	});

	it('clearFaults() drops every queued fault', async () => {
		sandbox.injectFault({ kind: 'status', status: 500, times: 5 });
		sandbox.clearFaults();
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it.each<[string, unknown]>([
		['an unknown kind', { kind: 'explode' }],
		['a path that is not an API path', { kind: 'reset', path: '/__sandbox/stats' }],
		['times 0', { kind: 'reset', times: 0 }],
		['a status out of range', { kind: 'status', status: 99 }],
		['an unknown key', { kind: 'status', delay: 5 }],
	])('injectFault refuses %s', (_name, fault) => {
		expect(() => sandbox.injectFault(fault as Fault)).toThrow(/^fault\./);
	});
});

describe('requests in flight', () => {
	it('holdAnswers answers nothing until that many requests are open at once, then all of them', async () => {
		sandbox.holdAnswers({ inFlight: 3, received: 10 });
		const first = [send(SMS_PATH, smsRequest()), send(SMS_PATH, smsRequest())];
		while (sandbox.openRequests() < 2) await new Promise((resolve) => setImmediate(resolve));
		expect(sandbox.requests.every((request) => request.status === 0)).toBe(true);
		const answers = await Promise.all([...first, send(SMS_PATH, smsRequest())]);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
		expect(sandbox.stats().maxInFlight).toBe(3);
	});

	it('holdAnswers also opens once `received` requests arrived (the tail of a run)', async () => {
		sandbox.holdAnswers({ inFlight: 5, received: 2 });
		const answers = await Promise.all([send(SMS_PATH, smsRequest()), send(SMS_PATH, smsRequest())]);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
	});

	it('a request open across reset() is not counted against the next test; whenIdle waits for it', async () => {
		sandbox.injectFault({ kind: 'timeout' });
		const controller = new AbortController();
		const hung = send(SMS_PATH, smsRequest(), { signal: controller.signal }).catch(() => 'aborted');
		while (sandbox.openRequests() < 1) await new Promise((resolve) => setImmediate(resolve));
		sandbox.reset();
		await send(SMS_PATH, smsRequest());
		expect(sandbox.stats().maxInFlight).toBe(1);
		expect(sandbox.openRequests()).toBe(1);
		// Held with a deadline far past any close, the abort below settles it.
		const idle = sandbox.whenIdle(20_000);
		controller.abort();
		expect(await hung).toBe('aborted');
		expect(await idle).toBe(0);
	});
});

describe('latency', () => {
	it('delays API answers but not control endpoints', async () => {
		sandbox.setLatency(200);
		const startedAt = performance.now();
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
		// A timer never fires early, so this lower bound holds on any machine (less 1 ms: libuv's
		// timer clock counts whole milliseconds).
		expect(performance.now() - startedAt).toBeGreaterThanOrEqual(199);
		expect(sandbox.requests[0].latencyMs).toBe(200);
		// A control request held back like an API one would wait out this latency, far past the
		// test's own 30 s limit, so the test would fail instead of passing.
		sandbox.setLatency(600_000);
		expect((await control('stats')).status).toBe(200);
	});

	it('without latency answers at once', async () => {
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
		expect(sandbox.requests[0].latencyMs).toBe(0);
	});

	it('setLatency refuses a negative value', () => {
		expect(() => sandbox.setLatency(-1)).toThrow();
	});
});

describe('rate limit', () => {
	/** Holds the sandbox's clock at the start of a whole second, so a burst falls in one window however slowly it is sent. */
	function startOfWindow(): number {
		clockMs = (Math.floor(Date.now() / 1000) + 10) * 1000;
		return clockMs;
	}

	async function burst(count: number): Promise<Answer[]> {
		const answers: Answer[] = [];
		for (let i = 0; i < count; i++) answers.push(await send(SMS_PATH, { ...smsRequest(), message: `burst ${i}` }));
		return answers;
	}

	it('admits perSecond requests a second, refuses the rest with 429 and Retry-After in seconds, delivers none of them', async () => {
		sandbox.setRateLimit({ perSecond: 3 });
		const window = startOfWindow();
		const answers = await burst(5);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
		expect(answers[3].headers.get('retry-after')).toBe('1');
		expect(answers[3].message).toBe('Too many requests: at most 3 per second');
		const stats = sandbox.stats();
		expect(stats).toMatchObject({ received: 5, delivered: 3, rateLimited: 2 });
		expect(stats.byStatus).toEqual({ '200': 3, '429': 2 });
		expect(sandbox.requests.map((request) => request.rateLimited ?? false)).toEqual([false, false, false, true, true]);
		// The next window admits again.
		clockMs = window + 1005;
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it("Retry-After as an HTTP date names the next window's start; 'none' sends no Retry-After", async () => {
		sandbox.setRateLimit({ perSecond: 1, retryAfter: 'date' });
		let window = startOfWindow();
		let answers = await burst(2);
		expect(answers[1].status).toBe(429);
		expect(answers[1].headers.get('retry-after')).toBe(new Date(window + 1000).toUTCString());

		sandbox.setRateLimit({ perSecond: 1, retryAfter: 'none' });
		window = startOfWindow();
		answers = await burst(2);
		expect(answers[1].status).toBe(429);
		expect(answers[1].headers.get('retry-after')).toBeNull();
	});

	it('a change takes effect in the current window; undefined removes the limit; reset() restores the options', async () => {
		sandbox.setRateLimit({ perSecond: 2 });
		startOfWindow();
		expect((await burst(3)).map((answer) => answer.status)).toEqual([200, 200, 429]);
		sandbox.setRateLimit({ perSecond: 4 });
		expect((await burst(3)).map((answer) => answer.status)).toEqual([200, 200, 429]);
		sandbox.setRateLimit(undefined);
		expect((await burst(3)).map((answer) => answer.status)).toEqual([200, 200, 200]);

		const own = await startSandbox({ port: 0, apiKey: KEY, rateLimit: { perSecond: 1 }, now });
		try {
			own.setRateLimit(undefined);
			own.reset();
			const post = () =>
				fetch(`${own.url}${SMS_PATH}`, {
					method: 'POST',
					headers: { Authorization: KEY, 'Content-Type': 'application/json' },
					body: JSON.stringify(smsRequest()),
				});
			startOfWindow();
			expect([(await post()).status, (await post()).status]).toEqual([200, 429]);
		} finally {
			await own.stop();
		}
	});

	it('control endpoint: GET, POST and DELETE /__sandbox/rate-limit; a bad limit is refused', async () => {
		expect((await control('rate-limit')).body).toEqual({ rateLimit: null });
		expect((await control('rate-limit', 'POST', { perSecond: 5, retryAfter: 'date' })).status).toBe(200);
		expect((await control('rate-limit')).body).toEqual({ rateLimit: { perSecond: 5, retryAfter: 'date' } });
		for (const bad of [{ perSecond: 0 }, { perSecond: 1.5 }, { perSecond: 5, retryAfter: 'later' }, { perSecond: 5, burst: 2 }]) {
			expect((await control('rate-limit', 'POST', bad)).status).toBe(400);
		}
		expect((await control('rate-limit', 'DELETE')).body).toEqual({ rateLimit: null });
		expect(() => sandbox.setRateLimit({ perSecond: -1 })).toThrow(/perSecond/);
		await expect(startSandbox({ rateLimit: { perSecond: 0 } })).rejects.toThrow(/perSecond/);
	});
});

describe('control endpoints', () => {
	it('GET /__sandbox/requests lists the recorded API requests', async () => {
		await send(SMS_PATH, smsRequest());
		const { status, body } = await control('requests');
		expect(status).toBe(200);
		const list = body.requests as RecordedRequest[];
		expect(list).toHaveLength(1);
		expect(list[0]).toMatchObject({ seq: 1, path: SMS_PATH, status: 200, delivered: true, body: smsRequest() });
	});

	it('GET /__sandbox/stats counts by path and finds duplicate deliveries', async () => {
		await send(SMS_PATH, smsRequest());
		await send(SMS_PATH, smsRequest());
		await send(SMS_PATH, { ...smsRequest(), message: 'other' });
		await send(WA_MESSAGE_PATH, templateMessage([]));
		const { body } = await control('stats');
		const stats = body as unknown as SandboxStats;
		expect(stats.received).toBe(4);
		expect(stats.delivered).toBe(3);
		expect(stats.duplicateBodies).toBe(1);
		expect(stats.byPath[SMS_PATH]).toEqual({ received: 3, delivered: 3 });
		expect(stats.byPath[WA_MESSAGE_PATH]).toEqual({ received: 1, delivered: 0 });
		expect(stats.byPath[COMBINED_PATH]).toEqual({ received: 0, delivered: 0 });
		expect(stats.byStatus).toEqual({ '200': 3, '400': 1 });
	});

	it('POST /__sandbox/reset clears the record', async () => {
		await send(SMS_PATH, smsRequest());
		expect((await control('reset', 'POST')).status).toBe(200);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('POST /__sandbox/conversations starts a chat; a bad number is a 400', async () => {
		expect((await control('conversations', 'POST', { phone_number: TO })).status).toBe(200);
		expect((await send(WA_MESSAGE_PATH, { ...mediaMessage('image'), to: TO })).status).toBe(200);
		const bad = await control('conversations', 'POST', { phone_number: '0812' });
		expect(bad.status).toBe(400);
		expect(bad.body.message).toMatch(/phone_number/);
	});

	it('POST /__sandbox/faults queues one fault or an array', async () => {
		expect((await control('faults', 'POST', { kind: 'status', status: 500 })).status).toBe(200);
		const array = await control('faults', 'POST', [{ kind: 'status', status: 502 }, { kind: 'errorMessage', message: 'nope' }]);
		expect(array.body).toEqual({ message: 'queued', queued: 2 });
		expect((await send(SMS_PATH, smsRequest())).status).toBe(500);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(502);
		expect((await send(SMS_PATH, smsRequest())).message).toBe('nope');
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it('POST /__sandbox/faults refuses a bad fault and queues nothing from its array', async () => {
		const bad = await control('faults', 'POST', [{ kind: 'status' }, { kind: 'meltdown' }]);
		expect(bad.status).toBe(400);
		expect(bad.body.message).toMatch(/^\[1\]\.fault\.kind/);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it('POST /__sandbox/latency sets the delay; a bad value is a 400', async () => {
		expect((await control('latency', 'POST', { ms: 150 })).status).toBe(200);
		const startedAt = performance.now();
		await send(SMS_PATH, smsRequest());
		// Lower bound only, as above.
		expect(performance.now() - startedAt).toBeGreaterThanOrEqual(149);
		expect((await control('latency', 'POST', { ms: -5 })).status).toBe(400);
		expect((await control('latency', 'POST', { ms: 'fast' })).status).toBe(400);
	});

	it('unknown control endpoint → 404, wrong method → 405, and no auth needed', async () => {
		expect((await control('nothing')).status).toBe(404);
		expect((await control('stats', 'POST', {})).status).toBe(405);
		expect((await control('reset')).status).toBe(405);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('lifecycle', () => {
	it('stop() returns promptly with a hung request and idle keep-alive sockets open', async () => {
		const own = await startSandbox({ port: 0 });
		// One finished request leaves a keep-alive socket idle in fetch's pool.
		const ok = await fetch(`${own.url}${SMS_PATH}`, {
			method: 'POST',
			headers: { Authorization: own.apiKey, 'Content-Type': 'application/json' },
			body: JSON.stringify(smsRequest()),
		});
		expect(ok.status).toBe(200);
		own.injectFault({ kind: 'timeout' });
		const hung = fetch(`${own.url}${SMS_PATH}`, {
			method: 'POST',
			headers: { Authorization: own.apiKey, 'Content-Type': 'application/json' },
			body: JSON.stringify(smsRequest()),
		});
		const settled = hung.then(
			() => 'answered',
			() => 'failed',
		);
		while (own.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
		// "Promptly": stop() resolves at all with the hung request open (else the test times out).
		await own.stop();
		expect(await settled).toBe('failed');
		expect(own.apiKey).toBe('sandbox-api-key');
		expect(own.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
	});

	it('refuses a bad started-chat number in the options', async () => {
		await expect(startSandbox({ port: 0, startedChats: ['12345'] })).rejects.toThrow(/E\.164/);
	});
});
