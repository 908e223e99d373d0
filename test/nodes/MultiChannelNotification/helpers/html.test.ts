/**
 * The one way the node writes text into HTML, and the same escape as expression code for the
 * editor's tooltip, which n8n evaluates where the node's functions are not.
 */
import { escapeHtml, escapeHtmlExpression, HTML_ESCAPES } from '../../../../nodes/MultiChannelNotification/helpers/html';

test('each character HTML gives a meaning becomes its reference, & first so none is escaped twice', () => {
	expect(escapeHtml(`<a href="x?a=1&b='2'">&amp;</a>`)).toBe('&lt;a href=&quot;x?a=1&amp;b=&#39;2&#39;&quot;&gt;&amp;amp;&lt;/a&gt;');
	expect(escapeHtml('plain text, 100% and more')).toBe('plain text, 100% and more');
});

test('the expression code escapes as escapeHtml does', () => {
	const text = `<b>"Tom" & 'Jerry'</b> &amp;`;
	// The code n8n would run, given the text as its value.
	const code = escapeHtmlExpression(JSON.stringify(text));
	expect(new Function(`return ${code};`)()).toBe(escapeHtml(text));
	expect(Object.keys(HTML_ESCAPES)[0]).toBe('&');
});
