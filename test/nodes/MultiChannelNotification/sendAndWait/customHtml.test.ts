/**
 * Custom HTML on the answer page: what of the workflow's markup is kept, and that nothing can
 * reach past the element's own box (scripts, styles, images, form controls, attributes, tags left
 * open or closed that were never opened).
 */
import { safeHtml } from '../../../../nodes/MultiChannelNotification/sendAndWait/customHtml';

describe('safeHtml', () => {
	test.each([
		['formatting, headings and lists as they are', '<h2>Refund</h2><p>Send a <b>photo</b> or <em>two</em>.</p><ul><li>front</li><li>back</li></ul>', '<h2>Refund</h2><p>Send a <b>photo</b> or <em>two</em>.</p><ul><li>front</li><li>back</li></ul>'],
		['tag names in any case, empty tags in either form', '<P>a<BR/>b<hr></P>', '<p>a<br>b<hr></p>'],
		['an https link, with rel added and other attributes dropped', '<a href="https://shop.example/terms?a=1&amp;b=2" target="_top" onclick="x()">terms</a>', '<a href="https://shop.example/terms?a=1&amp;b=2" rel="noopener noreferrer">terms</a>'],
		['a mailto link in single quotes', "<a href='mailto:help@shop.example'>help</a>", '<a href="mailto:help@shop.example" rel="noopener noreferrer">help</a>'],
		['a javascript: link: the text stays, the address goes', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
		['an address with its scheme written as character references', '<a href="java&#115;cript:alert(1)">x</a>', '<a>x</a>'],
		['attributes on kept tags', '<p style="position:fixed;inset:0" class="x" id="y">a</p>', '<p>a</p>'],
		['a script and a style with their content', 'a<script>alert("<p>")</script>b<style>body{display:none}</style>c<SCRIPT src=x></SCRIPT>d', 'abcd'],
		['a script never closed: everything after it', 'a<script>alert(1)', 'a'],
		['images, frames and form controls', '<img src=x onerror=alert(1)><iframe src="https://x"></iframe><input name="field-0" value="9"><button>Go</button><select><option>a</option></select>', 'Go'],
		['a textarea and its text', 'a<textarea name="field-1">text</textarea>b', 'ab'],
		['comments, a doctype, a processing instruction', '<!DOCTYPE html><!-- note --><?xml x?>text<!-- never closed', 'text'],
		['tags left open: closed at the end, innermost first', '<div><p><b>bold', '<div><p><b>bold</b></p></div>'],
		['closing tags never opened', '</div></form></main>text</p>', 'text'],
		['a closing tag never opened inside an open one: the open one stays open', '<div>a</p>b', '<div>ab</div>'],
		['a stray closing script tag: only the tag goes, not the text after it', 'a</script>b</script>c', 'abc'],
		['an href on a tag that is not a link', '<b href="https://shop.example">x</b>', '<b>x</b>'],
		['a closing tag that skips inner ones closes them too', '<div><p><i>x</div>y', '<div><p><i>x</i></p></div>y'],
		['text that merely looks like markup', 'a < b && c > d; 5 <3; &copy; &#169; &#xA9; & done', 'a &lt; b &amp;&amp; c &gt; d; 5 &lt;3; &copy; &#169; &#xA9; &amp; done'],
		['a tag cut off at the end', 'text <b', 'text &lt;b'],
		['quotes in an attribute that hold a >', '<p title="a > b">x</p>', '<p>x</p>'],
	])('%s', (_name, html, safe) => {
		expect(safeHtml(html)).toBe(safe);
	});

	test('whatever the input, what comes out opens no tag it does not close and no tag but the kept ones', () => {
		const pieces = ['<div>', '</div>', '<p>', '</p>', '<b>', '</i>', '<a href="https://x">', '</a>', '<script>', '</script>', '<form>', '<input>', '<!--', '-->', 'text', '<', '>', '&', '"', "'", '<br/>', '<style>', '</style>'];
		let seed = 7;
		const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
		for (let round = 0; round < 2000; round++) {
			const html = Array.from({ length: 1 + (next() % 12) }, () => pieces[next() % pieces.length]).join('');
			const safe = safeHtml(html);
			const stack: string[] = [];
			for (const [, closing, name] of safe.matchAll(/<(\/?)([a-z0-9]+)[^>]*>/g)) {
				expect(['a', 'b', 'br', 'div', 'i', 'p'].includes(name)).toBe(true);
				if (name === 'br') continue;
				if (closing) expect(stack.pop()).toBe(name);
				else stack.push(name);
			}
			expect(stack).toEqual([]);
			expect(safe).not.toMatch(/<(script|style|form|input)|<!--/i);
		}
	});
});
