/**
 * A Custom Form's Custom HTML element, made safe to put on the answer page: text formatting,
 * headings, lists and links are kept, everything else goes. Kept tags lose every attribute but a
 * link's https, http or mailto `href`; script, style and the like go with their content; tags the
 * workflow leaves open are closed and stray closing tags dropped, so the element can never reach
 * past its own box into the form. The page's Content Security Policy blocks every script but the
 * page's own (allowed by its hash, which no other script matches) and anything loaded from
 * elsewhere in any case; this keeps the markup itself in bounds.
 */

import { HTML_ESCAPES } from '../helpers/html';

const KEPT = new Set(['a', 'b', 'blockquote', 'br', 'code', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'li', 'ol', 'p', 'pre', 's', 'small', 'span', 'strong', 'sub', 'sup', 'u', 'ul']);
const EMPTY = new Set(['br', 'hr']);
/** Tags whose content goes with them: it is code, or a control the form would post. */
const DROPPED_WHOLE = new Set(['iframe', 'math', 'noscript', 'object', 'script', 'select', 'style', 'svg', 'template', 'textarea', 'title']);

/** A comment, a tag (its slash, name and attributes), or other markup (a doctype, a processing instruction). */
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>|<[!?/][^>]*>?/g;
const HREF = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const SAFE_URL = /^(?:https?:\/\/|mailto:)[^\s"'<>]+$/i;

/**
 * Text as it stands between tags: its character references kept, any other `&`, `<` and `>`
 * written as the node writes them everywhere (quotes mean nothing there, and stay as typed).
 */
const escapeText = (text: string) =>
	text.replace(/(&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)|[&<>]/gi, (character, reference?: string) => reference ?? HTML_ESCAPES[character]);

export function safeHtml(html: string): string {
	const out: string[] = [];
	const open: string[] = [];
	let at = 0;
	TOKEN.lastIndex = 0;
	for (let token = TOKEN.exec(html); token !== null; token = TOKEN.exec(html)) {
		out.push(escapeText(html.slice(at, token.index)));
		at = TOKEN.lastIndex;
		const [, closing, rawName, attributes] = token;
		const name = rawName?.toLowerCase();
		if (name === undefined) continue;
		if (DROPPED_WHOLE.has(name)) {
			if (closing) continue;
			const end = new RegExp(`</${name}\\s*>`, 'i').exec(html.slice(at));
			at = end ? at + end.index + end[0].length : html.length;
			TOKEN.lastIndex = at;
		} else if (!KEPT.has(name)) {
			continue;
		} else if (closing) {
			const depth = open.lastIndexOf(name);
			if (depth !== -1) out.push(...open.splice(depth).reverse().map((tag) => `</${tag}>`));
		} else if (EMPTY.has(name)) {
			out.push(`<${name}>`);
		} else {
			const href = name === 'a' ? HREF.exec(attributes) : null;
			const url = href ? (href[1] ?? href[2] ?? href[3]) : undefined;
			out.push(url !== undefined && SAFE_URL.test(url) ? `<a href="${url}" rel="noopener noreferrer">` : `<${name}>`);
			open.push(name);
		}
	}
	out.push(escapeText(html.slice(at)), ...open.reverse().map((tag) => `</${tag}>`));
	return out.join('');
}
