/**
 * The answer page's markup, written out whole: the document around the card, and the card for
 * each kind of page (a notice, a question with its choices, a free-text answer, a Custom Form with
 * every element type). Compared exactly, so a stray word, a lost attribute or a wrong class on
 * any element fails here (the webhook tests check the same pages as a person reaches them).
 */
import type { FormField } from '../../../../nodes/MultiChannelNotification/sendAndWait/form';
import type { PageBody } from '../../../../nodes/MultiChannelNotification/sendAndWait/page';
import { answerPage } from '../../../../nodes/MultiChannelNotification/sendAndWait/page';
import { formField, REQUIRED_MARK as MARK, REQUIRED_NOTE as NOTE, REQUIRED_WORD as WORD } from '../../../helpers/answerPage';

/** The README's limit on a typed answer (2,000 characters), written out rather than imported. */
const MAX = 2000;

/** What the page's card holds (a Custom Form with a File element has its script after it: pageScript.test.ts). */
function card(body: PageBody): string {
	const page = answerPage('Your answer', body);
	const inside = /<div class="card">(.*)<\/div><\/main>(?:<script>[^<]*<\/script>)?<\/body><\/html>$/s.exec(page);
	expect(inside).not.toBeNull();
	return inside![1];
}

const form = (fields: FormField[], set: Partial<Extract<PageBody, { kind: 'form' }>> = {}): PageBody => ({
	kind: 'form',
	message: 'Refund?',
	fields,
	title: '',
	description: '',
	buttonLabel: 'Submit',
	...set,
});

describe('the document', () => {
	const notice: PageBody = { kind: 'notice', title: 'Done', text: 'x' };
	const DOCUMENT =
		/^<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><title>A &amp; B<\/title><style>[^<]+<\/style>(.*)<\/head><body><main><div class="card"><h1>Done<\/h1><p class="message">x<\/p><\/div><\/main><\/body><\/html>$/s;

	test('UTF-8, a phone-wide viewport, kept out of search engines, the title escaped, its own style and nothing else', () => {
		expect(DOCUMENT.exec(answerPage('A & B', notice))?.[1]).toBe('');
	});

	test('Custom Styling after its own style; styling of blanks only is none', () => {
		expect(DOCUMENT.exec(answerPage('A & B', notice, 'h1 { color: red }'))?.[1]).toBe('<style>h1 { color: red }</style>');
		expect(DOCUMENT.exec(answerPage('A & B', notice, ' \n\t'))?.[1]).toBe('');
		expect(DOCUMENT.exec(answerPage('A & B', notice, ''))?.[1]).toBe('');
	});

	test('a Custom Form with a File element: one script, after the card and before </body>; without one, no script', () => {
		const fields = [formField({ label: 'Receipt', type: 'file' })];
		const withFile = answerPage('Your answer', form(fields));
		expect(withFile).toMatch(/<\/div><\/main><script>[^<]+<\/script><\/body><\/html>$/);
		expect(withFile.match(/<script/g)).toHaveLength(1);
		expect(answerPage('Your answer', form([formField({ label: 'Note' })]))).not.toMatch(/<script/);
	});
});

test('a notice: its title and text, escaped', () => {
	expect(card({ kind: 'notice', title: 'Thank <you>', text: 'Recorded: "Yes"\nYou can close this page.' })).toBe(
		'<h1>Thank &lt;you&gt;</h1><p class="message">Recorded: &quot;Yes&quot;\nYou can close this page.</p>',
	);
});

test('a question: the message, then one form per choice, the first one primary', () => {
	const choices = [
		{ field: 'approved', answer: 'true', label: 'Yes & go', primary: true },
		{ field: 'approved', answer: 'false', label: 'No', primary: false },
	];
	expect(card({ kind: 'question', message: 'Refund?', choices })).toBe(
		'<p class="message">Refund?</p>' +
			'<form method="post"><input type="hidden" name="approved" value="true"><button class="primary" type="submit">Yes &amp; go</button></form>' +
			'<form method="post"><input type="hidden" name="approved" value="false"><button class="secondary" type="submit">No</button></form>',
	);
});

test.each([
	['a question', { kind: 'question', message: '', choices: [] }],
	['a free-text answer', { kind: 'text', message: '', maxLength: MAX, title: '', description: '', buttonLabel: 'Send' }],
	['a Custom Form', { kind: 'form', message: '', fields: [], title: '', description: '', buttonLabel: 'Send' }],
] as Array<[string, PageBody]>)('%s: the Message (the workflow’s text) is escaped, so markup in it shows as text', (_name, body) => {
	const message = '<script>alert("x")</script> <b>Refund</b> & \'now\'';

	expect(card({ ...body, message } as PageBody)).toMatch(
		/^<p class="message">&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &lt;b&gt;Refund&lt;\/b&gt; &amp; &#39;now&#39;<\/p>/,
	);
});

describe('a free-text answer', () => {
	const TEXT_BOX = `<form method="post">${NOTE}<label for="answer">Your answer${MARK}</label><textarea id="answer" name="text" required maxlength="${MAX}"></textarea><button class="primary" type="submit">Send</button></form>`;

	test('without title or description: the message and the required text box, posted as a plain form', () => {
		expect(card({ kind: 'text', message: 'Why?', maxLength: MAX, title: '', description: '', buttonLabel: 'Send' })).toBe(`<p class="message">Why?</p>${TEXT_BOX}`);
	});

	test('with them: the title above the message, the description below it', () => {
		expect(card({ kind: 'text', message: 'Why?', maxLength: MAX, title: 'Refund', description: 'Say why', buttonLabel: 'Send' })).toBe(
			`<h1>Refund</h1><p class="message">Why?</p><p class="message">Say why</p>${TEXT_BOX}`,
		);
	});
});

describe('a Custom Form', () => {
	test('every element type, each named by its position; a file element ends the form with its marker', () => {
		const fields = [
			formField({ label: 'Name', placeholder: 'Budi', required: true }),
			formField({ label: 'Order', type: 'hiddenField', value: 'A-1', required: true }),
			formField({ label: '', type: 'html', value: '<p>Read <b>this</b></p>' }),
			formField({ label: 'Refund to', type: 'radio', options: ['Card', 'Wallet'], required: true }),
			formField({ label: 'Notify', type: 'checkbox', options: ['SMS', 'Email'], required: true }),
			formField({ label: 'Also', type: 'checkbox', options: ['Call'] }),
			formField({ label: 'Size', type: 'dropdown', options: ['S', 'M'] }),
			formField({ label: 'Receipt', type: 'file', multiple: true, accept: ['.pdf', 'image/*'], required: true }),
			formField({ label: 'Photo', type: 'file' }),
			formField({ label: 'Note', type: 'textarea', placeholder: 'Why' }),
			formField({ label: 'Amount', type: 'number' }),
			formField({ label: 'Reply to', type: 'email' }),
			formField({ label: 'Pay by', type: 'date' }),
			formField({ label: 'PIN', type: 'password' }),
		];

		expect(card(form(fields, { buttonLabel: 'Send answer' }))).toBe(
			'<p class="message">Refund?</p><form method="post" enctype="multipart/form-data">' +
				NOTE +
				`<label for="field-0">Name${MARK}</label><input type="text" id="field-0" name="field-0" maxlength="${MAX}" placeholder="Budi" required>` +
				'<div class="html"><p>Read <b>this</b></p></div>' +
				`<fieldset><legend>Refund to${MARK}${WORD}</legend><label class="choice"><input type="radio" name="field-3" value="Card" required>Card</label><label class="choice"><input type="radio" name="field-3" value="Wallet" required>Wallet</label></fieldset>` +
				`<fieldset><legend>Notify${MARK}${WORD}</legend><label class="choice"><input type="checkbox" name="field-4" value="SMS">SMS</label><label class="choice"><input type="checkbox" name="field-4" value="Email">Email</label></fieldset>` +
				'<fieldset><legend>Also</legend><label class="choice"><input type="checkbox" name="field-5" value="Call">Call</label></fieldset>' +
				'<label for="field-6">Size</label><select id="field-6" name="field-6"><option value="">Choose…</option><option value="S">S</option><option value="M">M</option></select>' +
				`<label for="field-7">Receipt${MARK}</label><input type="file" id="field-7" name="field-7" multiple accept=".pdf,image/*" required>` +
				'<label for="field-8">Photo</label><input type="file" id="field-8" name="field-8">' +
				`<label for="field-9">Note</label><textarea id="field-9" name="field-9" maxlength="${MAX}" placeholder="Why"></textarea>` +
				'<label for="field-10">Amount</label><input type="number" id="field-10" name="field-10" step="any" inputmode="decimal">' +
				`<label for="field-11">Reply to</label><input type="email" id="field-11" name="field-11" maxlength="${MAX}">` +
				'<label for="field-12">Pay by</label><input type="date" id="field-12" name="field-12">' +
				`<label for="field-13">PIN</label><input type="password" id="field-13" name="field-13" maxlength="${MAX}">` +
				'<input type="hidden" name="form-end" value="1">' +
				'<button class="primary" type="submit">Send answer</button></form>',
		);
	});

	test('a form\'s only file element, optional: moved after the other elements and the fields-end marker, nothing left where it was', () => {
		const fields = [formField({ label: 'Photo', type: 'file' }), formField({ label: 'Note' })];

		expect(card(form(fields))).toBe(
			'<p class="message">Refund?</p><form method="post" enctype="multipart/form-data">' +
				`<label for="field-1">Note</label><input type="text" id="field-1" name="field-1" maxlength="${MAX}">` +
				'<input type="hidden" name="fields-end" value="1">' +
				'<label for="field-0">Photo</label><input type="file" id="field-0" name="field-0">' +
				'<input type="hidden" name="form-end" value="1">' +
				'<button class="primary" type="submit">Submit</button></form>',
		);
	});

	test.each([
		['one required element among optional ones: the line saying what the asterisk means', [formField({ label: 'A' }), formField({ label: 'B', required: true })], true],
		['no required element: no such line', [formField({ label: 'A' })], false],
		['only a required hidden field, which the page does not show: no such line', [formField({ label: 'A' }), formField({ label: 'B', type: 'hiddenField', value: 'x', required: true })], false],
	])('%s', (_name, fields, noted) => {
		const shown = card(form(fields));

		expect(shown.startsWith(`<p class="message">Refund?</p><form method="post" enctype="multipart/form-data">${noted ? NOTE : ''}<label for="field-0">A</label>`)).toBe(true);
		expect(shown.includes('form-end')).toBe(false);
	});
});
