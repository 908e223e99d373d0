/**
 * The spec's request rules as the sandbox enforces them, over real HTTP on 127.0.0.1. Every rule
 * has at least one accepted and one rejected request in the tables below, so a node test that
 * passes against the sandbox is checked against a reading of the spec that does not share code
 * with the node.
 */
import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH } from '../../sandbox/server';
import { BODY, FROM, HEADER, STARTED, TO, combinedRequest, json, mediaMessage, smsRequest, templateMessage, useSandboxClient } from './client';
import type { Json } from './client';

function quickReply(index: unknown, payload: unknown = 'YES'): Json {
	return { type: 'button', sub_type: 'quick_reply', index, parameters: [{ type: 'payload', payload }] };
}

function urlButton(index: unknown, text: unknown = 'order/42'): Json {
	return { type: 'button', sub_type: 'url', index, parameters: [{ type: 'text', text }] };
}

/** A deep copy changed by `change`, so table rows never share state. */
function variant<T>(base: T, change: (copy: T) => void): T {
	const copy = structuredClone(base);
	change(copy);
	return copy;
}

const { sandbox, send } = useSandboxClient();

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
			expect(sandbox().deliveries()).toHaveLength(1);
		} else {
			expect(answer.message).toEqual(expect.stringMatching(c.message ?? /./));
			expect(sandbox().deliveries()).toHaveLength(0);
		}
		expect(sandbox().requests).toHaveLength(1);
		expect(sandbox().requests[0].status).toBe(c.status);
	});
});
