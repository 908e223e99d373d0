/**
 * The answer page: one self-contained HTML document (no external asset, inline style), readable
 * on a 360 px phone and usable without JavaScript. Its only script, on a Custom Form with a File
 * element, leaves file inputs with no file out of the POST (pageScript.ts), and the page's
 * Content-Security-Policy allows that one by its hash; every other page has none. A GET only
 * shows it; its forms POST back to the same address, query included (the link's signature),
 * which is the only thing that records an answer. Every text from the workflow is escaped, but
 * a Custom HTML element's, which customHtml.ts keeps to safe markup.
 */

import { escapeHtml } from '../helpers/html';
import { FILE_TYPE, HIDDEN_TYPE, HTML_TYPE, MAX_ANSWER_CHARS } from './constants';
import type { FormField } from './form';
import { FIELDS_END, FORM_END, inputName, putLast } from './form';
import { EMPTY_FILES_SCRIPT, EMPTY_FILES_SCRIPT_SOURCE } from './pageScript';

export interface Choice {
	/** The form field and value posted, e.g. approved=true. */
	field: string;
	answer: string;
	label: string;
	primary: boolean;
}

export type PageBody =
	| { kind: 'question'; message: string; choices: Choice[] }
	| { kind: 'text'; message: string; maxLength: number; title: string; description: string; buttonLabel: string }
	| { kind: 'form'; message: string; fields: FormField[]; title: string; description: string; buttonLabel: string }
	| { kind: 'notice'; title: string; text: string };

const STYLE = [
	'*{box-sizing:border-box}',
	'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f4f6;color:#1f1f24}',
	'main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem}',
	'.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}',
	'h1{font-size:1.25rem;margin:0 0 .75rem}',
	'.message{white-space:pre-wrap;overflow-wrap:anywhere;margin:0 0 1.25rem}',
	'form{margin:0 0 .75rem}',
	'button{width:100%;min-height:48px;font:inherit;font-weight:600;border-radius:8px;border:1px solid #5b5bd6;cursor:pointer}',
	'.primary{background:#5b5bd6;color:#fff}',
	'.secondary{background:#fff;color:#5b5bd6}',
	'textarea{width:100%;min-height:8rem;font:inherit;padding:.5rem;border:1px solid #b8b8c4;border-radius:8px;margin:0 0 .75rem}',
	'label{display:block;font-weight:600;margin:0 0 .25rem}',
	'input,select{width:100%;min-height:44px;font:inherit;padding:.5rem;border:1px solid #b8b8c4;border-radius:8px;margin:0 0 .75rem;background:#fff}',
	'fieldset{border:0;padding:0;margin:0 0 .75rem}',
	'legend{font-weight:600;padding:0;margin:0 0 .25rem}',
	'.choice{display:flex;align-items:center;gap:.5rem;font-weight:400;min-height:44px;margin:0}',
	'.choice input{width:1.25rem;min-height:0;margin:0}',
	'.html{margin:0 0 .75rem;overflow-wrap:anywhere}',
	'.html :first-child{margin-top:0}',
	'.required{color:#b3261e;margin-left:.2em}',
	'.note{font-size:.875rem;color:#55555f;margin:0 0 .75rem}',
	'.sr-only{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}',
].join('');

/**
 * A required element's mark: a visible asterisk that screen readers skip, since the control's own
 * `required` already makes them say "required". A group of choices has no such attribute for the
 * group, so its legend also carries the word for screen readers.
 */
const REQUIRED_MARK = '<span class="required" aria-hidden="true">*</span>';
const REQUIRED_WORD = '<span class="sr-only"> (required)</span>';
/** Above a form with a required element: what the asterisk means, for those who see it. */
const REQUIRED_NOTE = '<p class="note" aria-hidden="true">Fields marked <span class="required">*</span> are required.</p>';

/** One form element: its label and input, named by position (form.ts reads them back); a hidden field shows nothing, Custom HTML its safe markup. */
function formElement(field: FormField, index: number): string {
	if (field.type === HIDDEN_TYPE) return '';
	if (field.type === HTML_TYPE) return `<div class="html">${field.value}</div>`;
	const name = inputName(index);
	const required = field.required ? ' required' : '';
	const label = escapeHtml(field.label) + (field.required ? REQUIRED_MARK : '');
	const placeholder = field.placeholder === '' ? '' : ` placeholder="${escapeHtml(field.placeholder)}"`;
	if (field.type === 'radio' || field.type === 'checkbox') {
		// A checkbox group cannot be required in HTML without script: the server checks it.
		const choices = field.options.map(
			(option) =>
				`<label class="choice"><input type="${field.type}" name="${name}" value="${escapeHtml(option)}"${field.type === 'radio' ? required : ''}>${escapeHtml(option)}</label>`,
		);
		return `<fieldset><legend>${label}${field.required ? REQUIRED_WORD : ''}</legend>${choices.join('')}</fieldset>`;
	}
	const labelled = `<label for="${name}">${label}</label>`;
	if (field.type === 'dropdown') {
		const options = field.options.map((option) => `<option value="${escapeHtml(option)}">${escapeHtml(option)}</option>`);
		return `${labelled}<select id="${name}" name="${name}"${required}><option value="">Choose…</option>${options.join('')}</select>`;
	}
	if (field.type === FILE_TYPE) {
		const accept = field.accept.length === 0 ? '' : ` accept="${escapeHtml(field.accept.join(','))}"`;
		return `${labelled}<input type="file" id="${name}" name="${name}"${field.multiple ? ' multiple' : ''}${accept}${required}>`;
	}
	if (field.type === 'textarea') {
		return `${labelled}<textarea id="${name}" name="${name}" maxlength="${MAX_ANSWER_CHARS}"${placeholder}${required}></textarea>`;
	}
	const type = ['number', 'email', 'date', 'password'].includes(field.type) ? field.type : 'text';
	const extra = type === 'number' ? ' step="any" inputmode="decimal"' : type === 'date' ? '' : ` maxlength="${MAX_ANSWER_CHARS}"`;
	return `${labelled}<input type="${type}" id="${name}" name="${name}"${extra}${placeholder}${required}>`;
}

/** The form's elements in order, but a form's only file element, if optional, last after the FIELDS_END marker (form.ts says why). */
function formElements(fields: FormField[]): string {
	const last = putLast(fields);
	const inPlace = fields.map((field, index) => (field === last ? '' : formElement(field, index))).join('');
	return last === undefined ? inPlace : `${inPlace}<input type="hidden" name="${FIELDS_END}" value="1">${formElement(last, fields.indexOf(last))}`;
}

/** Whether the page is a Custom Form with a File element: the only page with a script. */
const takesFiles = (body: PageBody) => body.kind === 'form' && body.fields.some((field) => field.type === FILE_TYPE);

function content(body: PageBody): string {
	if (body.kind === 'notice') {
		return `<h1>${escapeHtml(body.title)}</h1><p class="message">${escapeHtml(body.text)}</p>`;
	}
	const message = `<p class="message">${escapeHtml(body.message)}</p>`;
	if (body.kind === 'text' || body.kind === 'form') {
		const heading = body.title === '' ? '' : `<h1>${escapeHtml(body.title)}</h1>`;
		const about = body.description === '' ? '' : `<p class="message">${escapeHtml(body.description)}</p>`;
		// A form with a file element ends with a hidden input: form.ts tells by it that the whole form arrived.
		const end = takesFiles(body) ? `<input type="hidden" name="${FORM_END}" value="1">` : '';
		const inputs =
			body.kind === 'text'
				? `<label for="answer">Your answer${REQUIRED_MARK}</label><textarea id="answer" name="text" required maxlength="${body.maxLength}"></textarea>`
				: `${formElements(body.fields)}${end}`;
		const anyRequired = body.kind === 'text' || body.fields.some((field) => field.required && field.type !== HIDDEN_TYPE);
		// A Custom Form posts as multipart: n8n 2.x's own forms do, and newer n8n accepts nothing else for one.
		const form = body.kind === 'form' ? '<form method="post" enctype="multipart/form-data">' : '<form method="post">';
		return `${heading}${message}${about}${form}${anyRequired ? REQUIRED_NOTE : ''}${inputs}<button class="primary" type="submit">${escapeHtml(body.buttonLabel)}</button></form>`;
	}
	const forms = body.choices.map(
		(choice) =>
			`<form method="post"><input type="hidden" name="${escapeHtml(choice.field)}" value="${escapeHtml(choice.answer)}"><button class="${choice.primary ? 'primary' : 'secondary'}" type="submit">${escapeHtml(choice.label)}</button></form>`,
	);
	return `${message}${forms.join('')}`;
}

/**
 * The page; `css` (Response Form Custom Styling) comes after its own style. A `<` in it is written
 * as CSS's own escape, so it cannot end the style element.
 */
export function answerPage(title: string, body: PageBody, css = ''): string {
	const custom = css.trim() === '' ? '' : `<style>${css.replace(/</g, '\\3c ')}</style>`;
	return [
		'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width,initial-scale=1">',
		'<meta name="robots" content="noindex,nofollow">',
		`<title>${escapeHtml(title)}</title><style>${STYLE}</style>${custom}</head>`,
		`<body><main><div class="card">${content(body)}</div></main>${takesFiles(body) ? `<script>${EMPTY_FILES_SCRIPT}</script>` : ''}</body></html>`,
	].join('');
}

/**
 * Headers for a page: no caching, no framing, nothing loaded from elsewhere, and no script but
 * the one a Custom Form with a File element has, allowed by its hash.
 */
export function pageHeaders(body: PageBody): Record<string, string> {
	const scripts = takesFiles(body) ? `; script-src ${EMPTY_FILES_SCRIPT_SOURCE}` : '';
	return {
		'Content-Type': 'text/html; charset=utf-8',
		'Cache-Control': 'no-store',
		'X-Frame-Options': 'DENY',
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'no-referrer',
		'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'${scripts}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
	};
}
