/**
 * A Custom Form on the answer page (the node's webhook method): the form a GET shows, and each
 * answer a POST records or refuses, files included. The stand-in for n8n's webhook functions is
 * webhookCall.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { call, FORM, MAX_ANSWER_CHARS } from './webhookCall';

describe('Custom Form', () => {
	/** How n8n hands the node a multipart form: its fields under `data`. */
	const MULTIPART = 'multipart/form-data; boundary=x';
	const choices = (...options: string[]) => ({ values: options.map((option) => ({ option })) });
	const elements = [
		{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true, placeholder: 'e.g. 150000' },
		{ fieldLabel: 'Reason', fieldType: 'dropdown', fieldOptions: choices('Damaged', 'Late') },
		{ fieldLabel: 'Refund to', fieldType: 'radio', fieldOptions: choices('Card', 'Wallet'), requiredField: true },
		{ fieldLabel: 'Notify', fieldType: 'checkbox', fieldOptions: choices('SMS', 'Email') },
		{ fieldLabel: 'Pay by', fieldType: 'date' },
		{ fieldLabel: 'Reply to', fieldType: 'email' },
		{ fieldLabel: 'Note <i>', fieldType: 'textarea' },
		{ fieldLabel: 'Ticket', fieldType: 'text' },
		{ fieldLabel: 'PIN', fieldType: 'password', placeholder: '4 digits' },
	];
	const parameters = { responseType: 'customForm', formFields: { values: elements }, options: { responseFormButtonLabel: 'Send answer' } };
	const valid = { 'field-0': '150000.5', 'field-1': 'Late', 'field-2': 'Wallet', 'field-3': ['Email', 'SMS'], 'field-4': '2026-12-01', 'field-5': 'a@b.co', 'field-6': ' line 1\nline 2 ', 'field-7': '', 'field-8': ' 12 34 ' };

	test('GET: one form with every element, labelled, typed and escaped; nothing resumes', async () => {
		const { result, html } = await call({ method: 'GET', parameters });

		expect(result).toEqual({ noWebhookResponse: true });
		expect(html.match(/<form method="post" enctype="multipart\/form-data">/g)).toHaveLength(1);
		expect(html).toContain('<label for="field-0">Amount<span class="required" aria-hidden="true">*</span></label><input type="number" id="field-0" name="field-0" step="any" inputmode="decimal" placeholder="e.g. 150000" required>');
		expect(html).toContain('<select id="field-1" name="field-1"><option value="">Choose…</option><option value="Damaged">Damaged</option>');
		expect(html).toContain('<input type="radio" name="field-2" value="Card" required>');
		expect(html).toContain('<input type="checkbox" name="field-3" value="SMS">');
		expect(html).toContain('<input type="date" id="field-4" name="field-4">');
		expect(html).toContain('<input type="email" id="field-5" name="field-5" maxlength="2000">');
		expect(html).toContain('<label for="field-6">Note &lt;i&gt;</label><textarea');
		expect(html).toContain('<input type="password" id="field-8" name="field-8" maxlength="2000" placeholder="4 digits">');
		expect(html).toContain('>Send answer</button>');
		expect(html).not.toMatch(/<script|<link|src=|url\(/i); // no File element, so no script (pageScript.test.ts)
	});

	test('POST: the answers by label, each in its type', async () => {
		const { result, status } = await call({ method: 'POST', contentType: MULTIPART, body: { data: valid }, parameters });

		expect(status).toBe(200);
		expect(result.workflowData).toEqual([
			[
				{
					json: {
						data: {
							Amount: 150000.5,
							Reason: 'Late',
							'Refund to': 'Wallet',
							Notify: ['SMS', 'Email'],
							'Pay by': '2026-12-01',
							'Reply to': 'a@b.co',
							'Note <i>': ' line 1\nline 2 ',
							Ticket: '',
							// What the person typed, spaces included: a password and a textarea are not trimmed.
							PIN: ' 12 34 ',
						},
					},
				},
			],
		]);
	});

	test('Define Form → Using JSON: the same form as a JSON list (choices also as a plain list) gives the same page and answers', async () => {
		const listed = elements.map((element) => ('fieldOptions' in element ? { ...element, fieldOptions: element.fieldOptions?.values } : element));
		const json = { ...parameters, formFields: undefined, defineForm: 'json', jsonOutput: JSON.stringify(listed) };
		const fromEditor = await call({ method: 'GET', parameters });
		const fromJson = await call({ method: 'GET', parameters: json });
		expect(fromJson.html).toBe(fromEditor.html);

		const { result } = await call({ method: 'POST', contentType: MULTIPART, body: { data: valid }, parameters: json });
		expect((result.workflowData?.[0][0].json.data as IDataObject).Amount).toBe(150000.5);
		expect((result.workflowData?.[0][0].json.data as IDataObject).Notify).toEqual(['SMS', 'Email']);
	});

	test('POST: optional fields left empty come out empty', async () => {
		const { result } = await call({ method: 'POST', contentType: MULTIPART, body: { data: { 'field-0': '1', 'field-2': 'Card' } }, parameters });

		expect(result.workflowData?.[0][0].json.data).toEqual({ Amount: 1, Reason: '', 'Refund to': 'Card', Notify: [], 'Pay by': '', 'Reply to': '', 'Note <i>': '', Ticket: '', PIN: '' });
	});

	test('POST: an optional number left empty is null, an optional text ""', async () => {
		const optional = { ...parameters, formFields: { values: [{ fieldLabel: 'Amount', fieldType: 'number' }, { fieldLabel: 'Ticket' }] } };
		const { result } = await call({ method: 'POST', contentType: MULTIPART, body: { data: { 'field-0': ' ', 'field-1': '' } }, parameters: optional });

		expect(result.workflowData?.[0][0].json.data).toStrictEqual({ Amount: null, Ticket: '' });
	});

	test('POST: a text of exactly the limit is taken, counted in characters', async () => {
		const ticket = '😀'.repeat(MAX_ANSWER_CHARS);
		const { result } = await call({ method: 'POST', contentType: MULTIPART, body: { data: { ...valid, 'field-7': ticket } }, parameters });

		expect((result.workflowData?.[0][0].json.data as IDataObject).Ticket).toBe(ticket);
	});

	test.each([
		['a required number left empty', { 'field-0': ' ' }, '"Amount" is required.'],
		['a number that is not one', { 'field-0': '12abc' }, '"Amount" must be a number.'],
		['a number in hex', { 'field-0': '0x10' }, '"Amount" must be a number.'],
		['a number too large to be one', { 'field-0': '1e999' }, '"Amount" must be a number.'],
		['a choice not offered', { 'field-1': 'Lost' }, '"Reason": that is not one of the choices.'],
		['a required radio left empty', { 'field-2': undefined }, '"Refund to" is required.'],
		['a checkbox not offered', { 'field-3': ['SMS', 'Fax'] }, '"Notify": that is not one of the choices.'],
		['two answers for one dropdown', { 'field-1': ['Late', 'Damaged'] }, '"Reason" takes one answer.'],
		['a date that does not exist', { 'field-4': '2026-02-30' }, '"Pay by" must be a date (YYYY-MM-DD).'],
		['a date in another format', { 'field-4': '01/12/2026' }, '"Pay by" must be a date (YYYY-MM-DD).'],
		['an email without a domain', { 'field-5': 'someone@' }, '"Reply to" must be an email address.'],
		['a text over the limit', { 'field-7': 'x'.repeat(MAX_ANSWER_CHARS + 1) }, `"Ticket" is longer than ${MAX_ANSWER_CHARS} characters.`],
	])('POST with %s: a 400 page naming the field and the rule; the execution keeps waiting', async (_name, change, said) => {
		const { result, status, html } = await call({ method: 'POST', contentType: MULTIPART, body: { data: { ...valid, ...change } }, parameters });

		expect(status).toBe(400);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(html).toContain('Answer not recorded');
		expect(html).toContain(said.replace(/"/g, '&quot;'));
	});

	test('a Hidden Field: not on the page; its value, the node\'s, is output under its Field Name whatever the POST says', async () => {
		const hidden = { fieldType: 'hiddenField', fieldName: 'orderId', fieldValue: 'ORD-42 <b>' };
		const withHidden = { ...parameters, formFields: { values: [elements[0], hidden] } };
		const { html } = await call({ method: 'GET', parameters: withHidden });
		expect(html).toContain('<label for="field-0">Amount<span class="required" aria-hidden="true">*</span></label>');
		expect(html).not.toMatch(/field-1|ORD-42|orderId/);

		const posted = { 'field-0': '7', 'field-1': 'ORD-1', orderId: 'ORD-1' };
		const { result } = await call({ method: 'POST', contentType: MULTIPART, body: { data: posted }, parameters: withHidden });
		expect(result.workflowData?.[0][0].json.data).toEqual({ Amount: 7, orderId: 'ORD-42 <b>' });

		const json = { ...withHidden, formFields: undefined, defineForm: 'json', jsonOutput: JSON.stringify([elements[0], hidden]) };
		const fromJson = await call({ method: 'POST', contentType: MULTIPART, body: { data: posted }, parameters: json });
		expect(fromJson.result.workflowData?.[0][0].json.data).toEqual({ Amount: 7, orderId: 'ORD-42 <b>' });
	});

	test('Custom HTML: its safe markup shown where it stands in the form; output under its Element Name, if it has one', async () => {
		const html = { fieldType: 'html', elementName: 'instructions', html: '<p>Photos help: <b>front</b> and back.</p><script>alert(1)</script><input name="field-0">' };
		const unnamed = { fieldType: 'html', html: '<h2>Thanks</h2>' };
		const withHtml = { ...parameters, formFields: { values: [html, elements[0], unnamed] } };
		const { html: page } = await call({ method: 'GET', parameters: withHtml });
		expect(page).toContain('<div class="html"><p>Photos help: <b>front</b> and back.</p></div><label for="field-1">Amount<span class="required" aria-hidden="true">*</span></label>');
		expect(page).toContain('<div class="html"><h2>Thanks</h2></div><button');
		expect(page).not.toMatch(/<script|alert|name="field-0"/);

		const { result } = await call({ method: 'POST', contentType: MULTIPART, body: { data: { 'field-1': '7', instructions: 'changed' } }, parameters: withHtml });
		expect(result.workflowData?.[0][0].json.data).toEqual({ instructions: '<p>Photos help: <b>front</b> and back.</p>', Amount: 7 });
	});

	describe('File elements', () => {
		const files = [
			{ fieldLabel: 'Amount', fieldType: 'number' },
			{ fieldLabel: 'Receipt <1>', fieldType: 'file', multipleFiles: false, acceptFileTypes: '.PDF, image/*', requiredField: true },
			{ fieldLabel: 'Photos', fieldType: 'file' },
		];
		const withFiles = { ...parameters, formFields: { values: files } };
		/** A file as n8n hands a multipart upload over (formidable's file). */
		const upload = (name: string, mimetype: string, size = 10) => ({ filepath: `/tmp/upload-${name}`, originalFilename: name, newFilename: 'x1', mimetype, size });
		const posted = (uploads: IDataObject, data: IDataObject = { 'field-0': '3', 'form-end': '1' }) => ({ data, files: uploads });

		test('GET: a file input per element (one file or several, the accepted types), then the hidden input that marks the form\'s end', async () => {
			const { html } = await call({ method: 'GET', parameters: withFiles });

			expect(html).toContain('<label for="field-1">Receipt &lt;1&gt;<span class="required" aria-hidden="true">*</span></label><input type="file" id="field-1" name="field-1" accept=".pdf,image/*" required>');
			expect(html).toContain('<input type="file" id="field-2" name="field-2" multiple>');
			expect(html).toContain('<input type="hidden" name="form-end" value="1"><button');
			expect((await call({ method: 'GET', parameters })).html).not.toContain('form-end');
		});

		test('POST: each file copied into n8n\'s binary data, named by its label; the answer holds its name, type and size', async () => {
			const receipt = upload('receipt.pdf', 'application/pdf', 1234);
			const photos = [upload('a.jpg', 'image/jpeg'), upload('b.png', 'image/png')];
			const { result, status, copied } = await call({ method: 'POST', contentType: MULTIPART, body: posted({ 'field-1': receipt, 'field-2': photos }), parameters: withFiles });

			expect(status).toBe(200);
			expect(copied).toEqual([
				['/tmp/upload-receipt.pdf', 'receipt.pdf', 'application/pdf'],
				['/tmp/upload-a.jpg', 'a.jpg', 'image/jpeg'],
				['/tmp/upload-b.png', 'b.png', 'image/png'],
			]);
			const [[item]] = result.workflowData ?? [[]];
			expect(item.json.data).toEqual({
				Amount: 3,
				'Receipt <1>': { filename: 'receipt.pdf', mimetype: 'application/pdf', size: 1234 },
				Photos: [
					{ filename: 'a.jpg', mimetype: 'image/jpeg', size: 10 },
					{ filename: 'b.png', mimetype: 'image/png', size: 10 },
				],
			});
			expect(Object.keys(item.binary ?? {})).toEqual(['Receipt__1_', 'Photos_0', 'Photos_1']);
			expect(item.binary?.Photos_1).toEqual({ data: 'stored:/tmp/upload-b.png', fileName: 'b.png', mimeType: 'image/png' });
		});

		test('POST: an optional file element left empty (n8n may hand over a blank file) comes out empty, with no binary data', async () => {
			const blank = { filepath: '/tmp/blank', originalFilename: '', mimetype: 'application/octet-stream', size: 0 };
			const { result, copied } = await call({ method: 'POST', contentType: MULTIPART, body: posted({ 'field-1': upload('r.pdf', 'application/pdf'), 'field-2': blank }), parameters: withFiles });

			expect(result.workflowData?.[0][0].json.data).toMatchObject({ Photos: null });
			expect(Object.keys(result.workflowData?.[0][0].binary ?? {})).toEqual(['Receipt__1_']);
			expect(copied).toHaveLength(1);
		});

		test.each([
			['a required file missing', {}, undefined, '"Receipt <1>" needs a file.'],
			['two files where one is taken', { 'field-1': [upload('a.pdf', 'application/pdf'), upload('b.pdf', 'application/pdf')] }, undefined, '"Receipt <1>" takes one file.'],
			['a type not accepted', { 'field-1': upload('setup.exe', 'application/x-msdownload') }, undefined, '"Receipt <1>": "setup.exe" is not a type it takes (.pdf, image/*).'],
			['a form cut short by n8n (its end marker missing)', { 'field-1': upload('r.pdf', 'application/pdf') }, { 'field-0': '3' }, 'The form did not arrive whole'],
		])('POST with %s: a 400 page, nothing copied, the execution keeps waiting', async (_name, uploads, data, said) => {
			const { result, status, html, copied } = await call({ method: 'POST', contentType: MULTIPART, body: posted(uploads, data), parameters: withFiles });

			expect(status).toBe(400);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(html).toContain(said.replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
			expect(copied).toEqual([]);
		});

		test('a file without a name or type (n8n hands over what the browser sent): the answer falls back to the stored name, then to ""', async () => {
			const stored = { filepath: '/tmp/upload-1', newFilename: 'x1', size: 5 };
			const bare = { filepath: '/tmp/upload-2', size: 6 };
			const { result } = await call({ method: 'POST', contentType: MULTIPART, body: posted({ 'field-1': upload('r.pdf', 'application/pdf'), 'field-2': [stored, bare] }), parameters: withFiles });

			expect((result.workflowData?.[0][0].json.data as IDataObject).Photos).toStrictEqual([
				{ filename: 'x1', mimetype: '', size: 5 },
				{ filename: '', mimetype: '', size: 6 },
			]);
		});

		describe('Accepted File Types: an exact MIME type and a MIME family', () => {
			const typed = { ...parameters, formFields: { values: [{ fieldLabel: 'Scan', fieldType: 'file', acceptFileTypes: 'application/pdf, audio/*' }] } };
			const send = (file: IDataObject) => call({ method: 'POST', contentType: MULTIPART, body: posted({ 'field-0': file }, { 'form-end': '1' }), parameters: typed });

			test.each([
				['the exact type', upload('scan', 'application/pdf')],
				['a type of the family', upload('voice.m4a', 'audio/mp4')],
			])('%s: taken', async (_name, file) => {
				expect((await send(file)).status).toBe(200);
			});

			test.each([
				['a type that only starts like the exact one', upload('scan.pdfx', 'application/pdfx'), 'scan.pdfx'],
				['a type outside the family that starts with its letter', upload('a.zip', 'application/zip'), 'a.zip'],
				['a file without a name or type', { filepath: '/tmp/upload-3', size: 7 }, ''],
			])('%s: refused, naming the file', async (_name, file, name) => {
				const { status, html } = await send(file);

				expect(status).toBe(400);
				expect(html).toContain(`&quot;Scan&quot;: &quot;${name}&quot; is not a type it takes (application/pdf, audio/*).`);
			});
		});

		test('an image accepted by its MIME type, whatever its extension', async () => {
			const { status } = await call({ method: 'POST', contentType: MULTIPART, body: posted({ 'field-1': upload('scan.heic', 'image/heic') }), parameters: withFiles });
			expect(status).toBe(200);
		});
	});

	test('POST urlencoded (not what the page sends): 415, the execution keeps waiting', async () => {
		const { result, status } = await call({ method: 'POST', contentType: FORM, body: valid, parameters });

		expect(status).toBe(415);
		expect(result).toEqual({ noWebhookResponse: true });
	});

	/**
	 * A definition that was fine when the message went out can be read otherwise when the answer
	 * comes (an expression in Form Fields that gives something else there): no form to fill in,
	 * so no answer can be taken.
	 */
	describe('a form that cannot be read when the link is opened', () => {
		const broken: Array<[string, IDataObject]> = [
			['no element', { responseType: 'customForm', formFields: { values: [] } }],
			['Form Fields that are not JSON', { responseType: 'customForm', defineForm: 'json', jsonOutput: '<b>not json' }],
			['a label used twice', { responseType: 'customForm', formFields: { values: [{ fieldLabel: 'A' }, { fieldLabel: 'A' }] } }],
		];
		const PAGE = /<h1>This form cannot be shown<\/h1><p class="message">The form for this question has a problem in the workflow, so no answer can be taken here: nothing was recorded\. Tell whoever sent you the link\.<\/p>/;

		test.each(broken)('%s, GET: an error page with no form and no button; the problems go to n8n’s log', async (_name, broken) => {
			const { result, status, html, warned } = await call({ method: 'GET', parameters: broken });

			expect(result).toEqual({ noWebhookResponse: true });
			expect(status).toBe(500);
			expect(html).toMatch(PAGE);
			expect(html).not.toMatch(/<form|<button|<input/);
			expect(html).not.toContain('<b>');
			expect(warned).toEqual([expect.stringMatching(/^Send and Wait: the Custom Form cannot be read, so the answer page shows an error: .+/)]);
		});

		test.each(broken)('%s, POST: nothing recorded, the execution keeps waiting', async (_name, broken) => {
			const { result, status, html } = await call({ method: 'POST', contentType: MULTIPART, body: { data: {}, files: {} }, parameters: broken });

			expect(result).toEqual({ noWebhookResponse: true });
			expect(status).toBe(500);
			expect(html).toMatch(PAGE);
		});
	});
});
