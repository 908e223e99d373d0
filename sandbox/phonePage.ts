/**
 * The phone page's markup: one self-contained document (inline style, one inline script allowed
 * by its hash, nothing loaded from elsewhere), readable on a 360 px phone. Every text a workflow
 * sent is escaped; only http(s) links become anchors, and they open in a new tab with no access
 * back to this page. The script only re-reads `/messages` (a GET) and puts times in local time;
 * without it, the page reloads itself.
 */
import { createHash } from 'node:crypto';

import type { AnswerPlan, AnswerRecord } from './answerLinks';
import type { MessagePart, PhoneMessage, PhoneThread } from './phoneMessages';

export interface PhoneView {
	threads: PhoneThread[];
	/** Requests too old to be shown. */
	older: number;
	automatic: { plan: AnswerPlan | undefined; on: boolean };
	/** Posted back by the switch, so only this page can use it. */
	token: string;
}

export const SWITCH_PATH = '/automatic-answers';
export const MESSAGES_PATH = '/messages';
const REFRESH_MS = 2000;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ESCAPES[character]);

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/g;
const WEB_LINK = /^https?:\/\/[^\s<>"'`]+$/i;
/** Punctuation that ends a sentence rather than a link. */
const TRAILING = /[.,;:!?)\]]+$/;

function anchor(url: string): string {
	return `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(url)}</a>`;
}

/** A value that may be a link: an anchor if it is http(s), plain text otherwise (a `javascript:` stays text). */
const linkOrText = (value: string): string => (WEB_LINK.test(value) ? anchor(value) : escapeHtml(value));

/** Text with every http(s) link in it made clickable, the rest escaped. */
export function linkify(raw: string): string {
	let out = '';
	let at = 0;
	for (const match of raw.matchAll(URL_IN_TEXT)) {
		const url = match[0].replace(TRAILING, '');
		out += escapeHtml(raw.slice(at, match.index)) + anchor(url);
		at = (match.index ?? 0) + url.length;
	}
	return out + escapeHtml(raw.slice(at));
}

const STYLE = [
	'*{box-sizing:border-box}',
	'body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#e9e5df;color:#1f1f24}',
	'main{max-width:32rem;margin:0 auto;padding:.75rem}',
	'h1{font-size:1.2rem;margin:.25rem 0}',
	'h2{font-size:1rem;margin:1rem 0 .5rem;padding:.4rem .75rem;background:#075e54;color:#fff;border-radius:8px}',
	'.note{font-size:.85rem;color:#55555f;margin:0 0 .5rem}',
	'.auto{background:#fff;border-radius:8px;padding:.5rem .75rem;font-size:.9rem}',
	'.auto form{margin:.4rem 0 0}',
	'button{min-height:40px;font:inherit;font-weight:600;border-radius:8px;border:1px solid #075e54;background:#fff;color:#075e54;padding:0 1rem;cursor:pointer}',
	'ol{list-style:none;margin:0;padding:0}',
	'.message{margin:0 0 .75rem}',
	'.meta{font-size:.8rem;color:#55555f;margin:0 0 .2rem}',
	'.bubble{background:#fff;border-radius:0 10px 10px 10px;padding:.5rem .7rem;margin:0 0 .3rem;box-shadow:0 1px 1px rgba(0,0,0,.12);overflow-wrap:anywhere}',
	'.sms{background:#dcf8c6}',
	'.text{white-space:pre-wrap;margin:0}',
	'.small{font-size:.8rem;color:#55555f;margin:.2rem 0 0}',
	'.buttons{display:flex;flex-wrap:wrap;gap:.3rem;margin:.4rem 0 0}',
	'.button{border:1px solid #b8c7c4;border-radius:6px;padding:.15rem .5rem;font-size:.85rem;color:#075e54}',
	'.status{font-size:.85rem;margin:0;color:#8a4b00}',
	'.refusal{font-size:.85rem;margin:0;color:#b3261e}',
	'.answered{font-size:.85rem;margin:0;color:#1b5e20}',
	'.failed .bubble{opacity:.6}',
	'a{color:#0b57d0}',
].join('');

const SCRIPT =
	"(function(){var main=document.getElementById('phone'),last='';" +
	"function local(){var t=main.querySelectorAll('time[datetime]');for(var i=0;i<t.length;i++){t[i].textContent=new Date(t[i].getAttribute('datetime')).toLocaleTimeString();}}" +
	`function load(){fetch('${MESSAGES_PATH}',{cache:'no-store'}).then(function(r){return r.ok?r.text():last;}).then(function(h){if(h!==last){last=h;main.innerHTML=h;local();}},function(){});}` +
	`local();setInterval(load,${REFRESH_MS});})();`;

/** Headers for the page and its fragment: no caching, no framing, nothing but its own script. */
export const PHONE_HEADERS: Record<string, string> = {
	'Content-Type': 'text/html; charset=utf-8',
	'Cache-Control': 'no-store',
	'X-Frame-Options': 'DENY',
	'X-Content-Type-Options': 'nosniff',
	// same-origin: the switch's POST then carries the page's Origin (no-referrer makes it "null").
	'Referrer-Policy': 'same-origin',
	'Content-Security-Policy': [
		"default-src 'none'",
		`script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`,
		"style-src 'unsafe-inline'",
		"connect-src 'self'",
		"form-action 'self'",
		"base-uri 'none'",
		"frame-ancestors 'none'",
	].join('; '),
};

function partHtml(part: MessagePart): string {
	if (part.kind === 'sms') return `<div class="bubble sms"><p class="text">${linkify(part.text)}</p></div>`;
	if (part.kind === 'media') {
		const kind = part.mediaType.charAt(0).toUpperCase() + part.mediaType.slice(1);
		const caption = part.caption === undefined ? '' : `<p class="text">${linkify(part.caption)}</p>`;
		return `<div class="bubble"><p class="small">${escapeHtml(kind)}</p><p class="text">${linkOrText(part.link)}</p>${caption}</div>`;
	}
	const header = part.header === undefined ? '' : `<p class="small">Header image: ${linkOrText(part.header)}</p>`;
	const buttons = part.buttons.map((button) => `<span class="button">${button.kind === 'link' ? 'Link' : 'Quick reply'} · ${linkOrText(button.value)}</span>`);
	return (
		`<div class="bubble">${header}<p class="text">${linkify(part.text)}</p>` +
		`${buttons.length === 0 ? '' : `<div class="buttons">${buttons.join('')}</div>`}<p class="small">Template ${escapeHtml(part.name)}</p></div>`
	);
}

/** approve, decline or the text the sandbox posted. */
function answerName(form: string): string {
	const fields = new URLSearchParams(form);
	const approved = fields.get('approved');
	if (approved !== null) return approved === 'true' ? 'approve' : 'decline';
	return `"${fields.get('text') ?? ''}"`;
}

function answerHtml(record: AnswerRecord): string {
	const state = record.answer ? `n8n answered ${record.answer.status}` : record.error ? `failed: ${record.error}` : 'answering…';
	return `<p class="answered">Answered automatically: ${escapeHtml(answerName(record.form))} (${escapeHtml(state)})</p>`;
}

function statusHtml(statuses: PhoneMessage['statuses']): string {
	if (statuses === undefined) return '';
	const sms = statuses.sms === 'failover' ? 'Failed over to SMS' : `SMS: ${statuses.sms ?? 'no status'}`;
	return `<p class="status">Chat: ${escapeHtml(statuses.chat ?? 'no status')} · ${escapeHtml(sms)}</p>`;
}

function timeHtml(at: number): string {
	const iso = new Date(at).toISOString();
	return `<time datetime="${iso}">${iso.slice(11, 19)} UTC</time>`;
}

function messageHtml(message: PhoneMessage): string {
	const from = message.from ? ` · From ${escapeHtml(message.from)}` : '';
	return (
		`<li class="message${message.delivered ? '' : ' failed'}" data-seq="${message.seq}">` +
		`<p class="meta">${escapeHtml(message.channel)} · ${timeHtml(message.receivedAt)}${from}</p>` +
		message.parts.map(partHtml).join('') +
		statusHtml(message.statuses) +
		(message.refusal ? `<p class="refusal">${escapeHtml(message.refusal)}</p>` : '') +
		(message.autoAnswer ? answerHtml(message.autoAnswer) : '') +
		'</li>'
	);
}

function planText(plan: AnswerPlan): string {
	const answer = typeof plan.answer === 'object' ? `"${plan.answer.text}"` : plan.answer;
	const to = plan.only?.recipient ? ` to ${plan.only.recipient}` : '';
	const node = plan.only?.nodeId ? ` from the node ${plan.only.nodeId}` : '';
	return `${answer}, ${to || node ? `only the link${to}${node}` : 'every answer link'}`;
}

function switchHtml(view: PhoneView): string {
	const { plan, on } = view.automatic;
	if (plan === undefined) return '<p class="auto">No automatic answers: open a message\'s answer link to answer it yourself.</p>';
	const state = on ? `Automatic answers are on: ${escapeHtml(planText(plan))}.` : 'Automatic answers are off: every answer link is yours to answer.';
	return (
		`<div class="auto"><p class="text">${state}</p>` +
		`<form method="post" action="${SWITCH_PATH}"><input type="hidden" name="token" value="${escapeHtml(view.token)}">` +
		`<input type="hidden" name="answers" value="${on ? 'off' : 'on'}"><button type="submit">Turn ${on ? 'off' : 'on'}</button></form></div>`
	);
}

/** What the page refreshes: the switch and the threads. */
export function phoneContent(view: PhoneView): string {
	const threads = view.threads.map(
		(thread) => `<section><h2>${escapeHtml(thread.number)}</h2><ol>${thread.messages.map(messageHtml).join('')}</ol></section>`,
	);
	return (
		'<h1>Sandbox phone</h1><p class="note">Every message the service was asked to send, per number, newest first. This page updates by itself.</p>' +
		switchHtml(view) +
		(threads.length === 0 ? '<p class="note">Nothing sent yet.</p>' : threads.join('')) +
		(view.older > 0 ? `<p class="note">${view.older} older ${view.older === 1 ? 'message is' : 'messages are'} not shown.</p>` : '')
	);
}

export function phonePage(view: PhoneView): string {
	return [
		'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width,initial-scale=1">',
		'<meta name="robots" content="noindex,nofollow">',
		`<title>Sandbox phone</title><style>${STYLE}</style>`,
		`<noscript><meta http-equiv="refresh" content="${REFRESH_MS / 500}"></noscript></head>`,
		`<body><main id="phone">${phoneContent(view)}</main><script>${SCRIPT}</script></body></html>`,
	].join('');
}
