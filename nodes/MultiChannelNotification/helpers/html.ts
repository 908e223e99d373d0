/**
 * How the node writes text into HTML: each character HTML gives a meaning becomes its character
 * reference. One table for everything the node writes as HTML (the answer page, the error panel,
 * the editor's waiting tooltip) and for the key scrubber, which looks for the key as a page would
 * have written it. `&` comes first, so no reference is escaped twice.
 */
export const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const SPECIAL = new RegExp(`[${Object.keys(HTML_ESCAPES).join('')}]`, 'g');

export function escapeHtml(text: string): string {
	return text.replace(SPECIAL, (character) => HTML_ESCAPES[character]);
}

/**
 * The same escape as the code of an n8n expression applied to `value` (itself expression code):
 * the editor evaluates a tooltip's expression on its own, where the node's functions are not.
 */
export function escapeHtmlExpression(value: string): string {
	return Object.entries(HTML_ESCAPES).reduce((code, [character, reference]) => `${code}.replace(/${character}/g, ${JSON.stringify(reference)})`, value);
}
