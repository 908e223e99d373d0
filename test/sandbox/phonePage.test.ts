/**
 * The phone page's markup, from recorded requests as the sandbox keeps them: per number, newest
 * first, each kind of message as a phone shows it, every text escaped and every link clickable
 * into a new tab, the automatic answers marked, and never the API key.
 */
import { createHash } from 'node:crypto';

import type { AnswerRecord, RecordedRequest } from '../../sandbox/server';
import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH } from '../../sandbox/server';
import { PHONE_HEADERS, phonePage } from '../../sandbox/phonePage';
import type { PhoneView } from '../../sandbox/phonePage';
import { MAX_SHOWN, phoneThreads } from '../../sandbox/phoneMessages';

const KEY = 'secret-api-key-5e1d';
const AT = Date.UTC(2026, 11, 6, 7, 0, 0);
const SENDER = '+6280011112222';
const BUDI = '+6281234567890';
const DEWI = '+6285711223344';

function recorded(seq: number, path: string, body: unknown, extra: Partial<RecordedRequest> = {}): RecordedRequest {
	return {
		seq,
		receivedAt: AT + seq * 1000,
		method: 'POST',
		path,
		headers: { authorization: KEY, 'content-type': 'application/json' },
		rawBody: JSON.stringify(body),
		body,
		status: 200,
		response: { message: 'success' },
		delivered: true,
		...extra,
	};
}

const ORDER_UPDATE = {
	from: SENDER,
	to: BUDI,
	type: 'template',
	template: {
		name: 'order_update',
		language: { policy: 'deterministic', code: 'id' },
		components: [
			{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/banners/order-shipped.jpg' } }] },
			{ type: 'body', parameters: ['Budi Santoso', 'INV-1042', 'Rp 250.000'].map((text) => ({ type: 'text', text })) },
			{ type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'track:INV-1042' }] },
			{ type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'orders/INV-1042' }] },
		],
	},
};

function page(requests: RecordedRequest[], answers: AnswerRecord[] = [], automatic: PhoneView['automatic'] = { plan: undefined, on: true }): string {
	return phonePage({ ...phoneThreads(requests, answers), automatic, token: 'tok-123' });
}

/** The markup between two texts, to check what a message's own box holds. */
function between(html: string, from: string, to?: string): string {
	const start = html.indexOf(from);
	expect(start).toBeGreaterThanOrEqual(0);
	const end = to === undefined ? html.length : html.indexOf(to, start);
	return html.slice(start, end === -1 ? html.length : end);
}

describe('the phone page markup', () => {
	it('escapes every text a workflow sent: SMS text, template values and name, caption and sender', () => {
		const evil = '<script>alert("x")</script> & <b>bold</b>';
		const html = page([
			recorded(1, SMS_PATH, { phone_number: BUDI, message: evil }),
			recorded(2, WA_MESSAGE_PATH, { ...ORDER_UPDATE, template: { ...ORDER_UPDATE.template, name: '<i>tpl</i>', components: [{ type: 'body', parameters: [{ type: 'text', text: '<img src=x onerror=alert(1)>' }] }] } }),
			recorded(3, WA_MESSAGE_PATH, { from: '<u>me</u>', to: BUDI, type: 'image', image: { link: 'https://cdn.example.com/a.jpg', caption: '"quoted" <em>caption</em>' } }),
		]);
		expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
		expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
		expect(html).toContain('&lt;i&gt;tpl&lt;/i&gt;');
		expect(html).toContain('&quot;quoted&quot; &lt;em&gt;caption&lt;/em&gt;');
		expect(html).toContain('&lt;u&gt;me&lt;/u&gt;');
		for (const raw of ['<script>alert', '<img src=x', '<i>tpl', '<em>caption', '<u>me', '<b>bold']) expect(html).not.toContain(raw);
	});

	it('a link in a text cannot break out of its href, and ends before the punctuation after it', () => {
		const html = page([recorded(1, SMS_PATH, { phone_number: BUDI, message: 'See https://x.example/a"onmouseover="alert(1) now, or https://x.example/b.' })]);
		expect(html).toContain('<a href="https://x.example/a" target="_blank" rel="noopener noreferrer">https://x.example/a</a>&quot;onmouseover=&quot;alert(1)');
		expect(html).toContain('<a href="https://x.example/b" target="_blank" rel="noopener noreferrer">https://x.example/b</a>.');
	});

	it('a template: its text with the values in place, the sender, the header image and the buttons, every link clickable', () => {
		const html = page([recorded(1, WA_MESSAGE_PATH, ORDER_UPDATE)]);
		const message = between(html, 'data-seq="1"');
		expect(message).toContain('Hi Budi Santoso, your order INV-1042 (Rp 250.000) is on its way.');
		expect(message).toContain(`From ${SENDER}`);
		expect(message).toContain('order_update');
		expect(message).toContain('Chat');
		expect(message).toContain('<a href="https://cdn.example.com/banners/order-shipped.jpg" target="_blank" rel="noopener noreferrer">');
		expect(message).toMatch(/class="button"[^>]*>[^<]*track:INV-1042/);
		expect(message).toMatch(/class="button"[^>]*>[^<]*orders\/INV-1042/);
	});

	it('a template the sandbox has no text for shows its values in placeholder order', () => {
		const html = page([recorded(1, WA_MESSAGE_PATH, { ...ORDER_UPDATE, template: { ...ORDER_UPDATE.template, name: 'my_own', components: [{ type: 'body', parameters: ['Ani', 'B-7'].map((text) => ({ type: 'text', text })) }] } })]);
		expect(html).toContain('{{1}} Ani');
		expect(html).toContain('{{2}} B-7');
	});

	it('a media message: its kind, its link (clickable) and its caption', () => {
		const html = page([
			recorded(1, WA_MESSAGE_PATH, { from: SENDER, to: BUDI, type: 'image', image: { link: 'https://cdn.example.com/a.jpg', caption: 'Your new card' } }),
			recorded(2, WA_MESSAGE_PATH, { from: SENDER, to: BUDI, type: 'document', recipient_type: 'individual', document: { link: 'https://cdn.example.com/inv.pdf' } }),
		]);
		expect(between(html, 'data-seq="1"')).toMatch(/Image[\s\S]*<a href="https:\/\/cdn.example.com\/a.jpg" target="_blank" rel="noopener noreferrer">[\s\S]*Your new card/);
		expect(between(html, 'data-seq="2"', 'data-seq="1"')).toMatch(/Document[\s\S]*<a href="https:\/\/cdn.example.com\/inv.pdf" target="_blank" rel="noopener noreferrer">/);
	});

	it('an SMS: its text, the SMS channel, and its answer link opens in a new tab without access to this page', () => {
		const link = 'http://localhost:5678/webhook-waiting/12/node-1?approved=true&signature=abc';
		const html = page([recorded(1, SMS_PATH, { phone_number: BUDI, message: `Refund Rp 150.000? ${link}` })]);
		const message = between(html, 'data-seq="1"');
		expect(message).toContain('SMS');
		expect(message).toContain('Refund Rp 150.000? ');
		expect(message).toContain(`<a href="${link.replace(/&/g, '&amp;')}" target="_blank" rel="noopener noreferrer">`);
	});

	it('every link on the page opens in a new tab with rel=noopener', () => {
		const html = page([recorded(1, WA_MESSAGE_PATH, ORDER_UPDATE), recorded(2, SMS_PATH, { phone_number: BUDI, message: 'https://a.example/x' })]);
		const anchors = html.match(/<a [^>]*>/g) ?? [];
		expect(anchors.length).toBeGreaterThanOrEqual(2);
		for (const anchor of anchors) expect(anchor).toMatch(/ target="_blank" rel="noopener noreferrer"/);
	});

	it('a combined send shows both parts and whether it failed over, as the service answered', () => {
		const response = { message: 'success', data: { request_id: 'r-1', result: { sms: { status: 'failover' }, chat: { status: 'requested' } } } };
		const chat = { ...ORDER_UPDATE, to: DEWI, template: { ...ORDER_UPDATE.template, name: 'login_code', components: [{ type: 'body', parameters: ['Dewi', '482913'].map((text) => ({ type: 'text', text })) }] } };
		const html = page([recorded(1, COMBINED_PATH, { chat, sms: { phone_number: DEWI, message: 'Your login code is 482913.' } }, { response })]);
		const message = between(html, 'data-seq="1"');
		expect(message).toContain('Chat + SMS failover');
		expect(message).toContain('Hi Dewi, your login code is 482913.');
		expect(message).toContain('Your login code is 482913.');
		expect(message).toContain('Failed over to SMS');
	});

	it('per number, newest first: threads by their latest message, messages newest first', () => {
		const html = page([
			recorded(1, SMS_PATH, { phone_number: BUDI, message: 'first to Budi' }),
			recorded(2, SMS_PATH, { phone_number: DEWI, message: 'only to Dewi' }),
			recorded(3, SMS_PATH, { phone_number: BUDI, message: 'second to Budi' }),
		]);
		expect(html.indexOf(`<h2>${BUDI}`)).toBeLessThan(html.indexOf(`<h2>${DEWI}`));
		expect(html.indexOf('second to Budi')).toBeLessThan(html.indexOf('first to Budi'));
		expect(html.indexOf('first to Budi')).toBeLessThan(html.indexOf('only to Dewi'));
	});

	it('the time of each message, as a machine-readable date the page shows in local time', () => {
		const html = page([recorded(1, SMS_PATH, { phone_number: BUDI, message: 'hello' })]);
		expect(html).toContain(`<time datetime="${new Date(AT + 1000).toISOString()}">07:00:01 UTC</time>`);
	});

	it('marks what the sandbox answered automatically, with the answer and what n8n said; a message nobody answered carries no mark', () => {
		const link = 'http://localhost:5678/webhook-waiting/12/node-1';
		const answers: AnswerRecord[] = [{ requestSeq: 2, link, form: 'approved=true', answer: { status: 200, body: 'ok' }, done: true }];
		const html = page([recorded(1, SMS_PATH, { phone_number: BUDI, message: `Mine: ${link}` }), recorded(2, SMS_PATH, { phone_number: BUDI, message: `Demo: ${link}` })], answers);
		expect(between(html, 'data-seq="2"', 'data-seq="1"')).toMatch(/Answered automatically: approve \(n8n answered 200\)/);
		expect(between(html, 'data-seq="1"')).not.toContain('Answered automatically');
	});

	it('a request the service refused is shown as not delivered, with the service\'s reason', () => {
		const html = page([recorded(1, SMS_PATH, { phone_number: '+14155550100', message: 'hi' }, { status: 400, delivered: false, response: { message: 'phone_number: only +62 numbers are allowed' } })]);
		expect(between(html, 'data-seq="1"')).toContain('Not delivered (HTTP 400): phone_number: only +62 numbers are allowed');
	});

	it('never shows the API key, though every recorded request carries it', () => {
		const html = page([recorded(1, WA_MESSAGE_PATH, ORDER_UPDATE), recorded(2, SMS_PATH, { phone_number: BUDI, message: 'x' })]);
		expect(html).not.toContain(KEY);
	});

	it('the switch for automatic answers is a POST form with the page\'s token, and says what the plan answers', () => {
		const plan = { answer: 'approve' as const, only: { recipient: '+6281100004242', nodeId: 'n-1' } };
		const on = page([], [], { plan, on: true });
		expect(on).toMatch(/<form method="post" action="\/automatic-answers"><input type="hidden" name="token" value="tok-123"><input type="hidden" name="answers" value="off"><button[^>]*>Turn off<\/button><\/form>/);
		expect(on).toContain('Automatic answers are on: approve, only the link to +6281100004242 from the node n-1');
		const off = page([], [], { plan, on: false });
		expect(off).toContain('<input type="hidden" name="answers" value="on"><button');
		expect(off).toContain('Automatic answers are off');
		const none = page([], [], { plan: undefined, on: true });
		expect(none).not.toContain('<form');
		expect(none).toContain('No automatic answers');
	});

	it('self-contained: no external script, a viewport for a 360 px phone, and a CSP that allows only its own inline script by hash', () => {
		const html = page([recorded(1, SMS_PATH, { phone_number: BUDI, message: 'x' })]);
		expect(html).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
		expect(html).not.toMatch(/<script[^>]+src=/);
		const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
		expect(scripts).toHaveLength(1);
		const hash = createHash('sha256').update(scripts[0]).digest('base64');
		const csp = PHONE_HEADERS['Content-Security-Policy'];
		expect(csp).toContain(`script-src 'sha256-${hash}'`);
		expect(csp).toContain("default-src 'none'");
		expect(csp).toContain("connect-src 'self'");
		expect(csp).toContain("form-action 'self'");
		expect(scripts[0]).toContain("fetch('/messages'");
	});

	it(`shows the newest ${MAX_SHOWN} messages and says how many older ones it leaves out (a load test can send thousands)`, () => {
		const requests = Array.from({ length: MAX_SHOWN + 5 }, (_, at) => recorded(at + 1, SMS_PATH, { phone_number: BUDI, message: `message #${at + 1}.` }));
		const html = page(requests);
		expect(html).toContain(`message #${MAX_SHOWN + 5}.`);
		expect(html).toContain('message #6.');
		expect(html).not.toContain('message #5.');
		expect(html).toContain('5 older messages are not shown.');
		expect(page(requests.slice(0, 3))).not.toContain('older messages');
	});
});
