/**
 * The answer page and form behind the link (the node's webhook method). n8n itself routes the
 * link to it, checks the signature and the execution's state (the real-n8n check covers that);
 * here the webhook functions n8n hands the node are stood in for: request, response, parameters.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';

interface Call {
	method: 'GET' | 'POST';
	contentType?: string;
	body?: unknown;
	parameters?: IDataObject;
}

interface Answered {
	result: IWebhookResponseData;
	/** The files the node copied into n8n's binary data store: path, name, MIME type. */
	copied: string[][];
	status: number;
	headers: Record<string, string>;
	html: string;
}

const node = new MultiChannelNotification();

/** The README's limit on a Free Text answer (2,000 characters), written out rather than imported. */
const MAX_ANSWER_CHARS = 2000;

async function call({ method, contentType, body, parameters = {} }: Call): Promise<Answered> {
	const answered = { status: 0, headers: {} as Record<string, string>, html: '', copied: [] as string[][] };
	const response = {
		status(code: number) {
			answered.status = code;
			return response;
		},
		set(headers: Record<string, string>) {
			Object.assign(answered.headers, headers);
			return response;
		},
		send(html: string) {
			answered.html = html;
			return response;
		},
	};
	const values: IDataObject = { message: 'Approve the refund?', responseType: 'approval', ...parameters };
	const context = {
		getRequestObject: () => ({ method, headers: contentType ? { 'content-type': contentType } : {} }),
		getResponseObject: () => response,
		getBodyData: () => body ?? {},
		getNodeParameter: (name: string, fallback: unknown) =>
			name.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], values) ?? fallback,
		// Who was asked is read back through n8n's engine (question.test.ts); here there is none.
		getNode: () => ({ name: 'Ask' }),
		evaluateExpression: () => undefined,
		nodeHelpers: {
			copyBinaryFile: async (filePath: string, fileName: string, mimeType?: string) => {
				answered.copied.push([filePath, fileName, mimeType ?? '']);
				return { data: `stored:${filePath}`, fileName, mimeType: mimeType ?? 'application/octet-stream' };
			},
		},
	} as unknown as IWebhookFunctions;
	const result = await node.webhook.call(context);
	return { result, ...answered };
}

const FORM = 'application/x-www-form-urlencoded';
const double = { approvalOptions: { values: { approvalType: 'double', approveLabel: 'Yes, refund', disapproveLabel: 'No' } } };

describe('GET: the page, never an answer', () => {
	test('shows the message and one POST form per choice; resumes nothing', async () => {
		const { result, status, headers, html } = await call({ method: 'GET', parameters: double });

		expect(status).toBe(200);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(html).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
		expect(html).toContain('Approve the refund?');
		expect(html.match(/<form method="post">/g)).toHaveLength(2);
		expect(html).toContain('name="approved" value="true"');
		expect(html).toContain('name="approved" value="false"');
		expect(html).toContain('>Yes, refund</button>');
		expect(html).not.toMatch(/<script|<link|src=|url\(/i);
		expect(headers['Content-Security-Policy']).toContain("default-src 'none'");
		expect(headers['Cache-Control']).toBe('no-store');
	});

	test.each([
		['a new node (no Approval Options)', {}],
		['Approval Options just added', { approvalOptions: { values: {} } }],
	])('%s: Approve and Decline, as n8n resolves the parameters', async (_name, set) => {
		const all = { resource: 'sms', operation: 'sendAndWait', phoneNumber: '+6281234567890', message: 'Approve the refund?', ...set };
		const parameters = NodeHelpers.getNodeParameters(node.description.properties, all, true, false, null, node.description) as IDataObject;
		const { html } = await call({ method: 'GET', parameters });

		expect(html.match(/<form method="post">/g)).toHaveLength(2);
		expect(html).toContain('>✓ Approve</button>');
		expect(html).toContain('>✗ Decline</button>');
	});

	test('workflow text is escaped: no markup or script gets onto the page', async () => {
		const { html } = await call({
			method: 'GET',
			parameters: { message: '<script>alert(1)</script> & "quotes"', approvalOptions: { values: { approveLabel: '<b>ok</b>' } } },
		});

		expect(html).not.toContain('<script>alert');
		expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
		expect(html).toContain('&lt;b&gt;ok&lt;/b&gt;');
	});

	test('free text: a text box capped at the documented length', async () => {
		const { html } = await call({ method: 'GET', parameters: { responseType: 'freeText' } });

		expect(html).toContain(`<textarea id="answer" name="text" required maxlength="${MAX_ANSWER_CHARS}">`);
		expect(html).toContain('>Submit</button>');
		expect(html).not.toContain('<h1>');
	});

	test('free text: the form title, description and button label the user set, escaped', async () => {
		const options = { responseFormTitle: 'Refund <b>#42</b>', responseFormDescription: 'Say how much & why', responseFormButtonLabel: 'Send it' };
		const { html } = await call({ method: 'GET', parameters: { responseType: 'freeText', options } });

		expect(html).toContain('<h1>Refund &lt;b&gt;#42&lt;/b&gt;</h1>');
		expect(html).toContain('Say how much &amp; why');
		expect(html).toContain('>Send it</button>');
	});

	test('Response Form Custom Styling: after the page\'s own style on every page of the answer, unable to end its style element', async () => {
		const options = { responseFormCustomCss: '.primary { background: #0a7d3b }\n</style><script>alert(1)</script><style>' };
		const page = await call({ method: 'GET', parameters: { responseType: 'freeText', options } });
		const thanks = await call({ method: 'POST', contentType: FORM, body: { text: 'ok' }, parameters: { responseType: 'freeText', options } });
		const refused = await call({ method: 'POST', contentType: FORM, body: { text: ' ' }, parameters: { responseType: 'freeText', options } });

		for (const { html } of [page, thanks, refused]) {
			expect(html).toContain('<style>.primary { background: #0a7d3b }\n\\3c /style>\\3c script>alert(1)\\3c /script>\\3c style></style></head>');
			expect(html).not.toMatch(/<script/i);
			expect(html.match(/<\/style>/g)).toHaveLength(2);
		}
		expect((await call({ method: 'GET', parameters: { responseType: 'freeText' } })).html.match(/<style>/g)).toHaveLength(1);
	});
});

describe('POST: records the answer, in the shape of n8n’s own send-and-wait nodes', () => {
	test.each([
		['approve', { approved: 'true' }, double, { approved: true }, 'Recorded: Yes, refund'],
		['decline', { approved: 'false' }, double, { approved: false }, 'Recorded: No'],
		['free text', { text: 'Refund half, please & thanks' }, { responseType: 'freeText' }, { text: 'Refund half, please & thanks' }, 'Your answer was recorded.'],
	])('%s', async (_name, body, parameters, data, said) => {
		const { result, status, html } = await call({ method: 'POST', contentType: `${FORM}; charset=UTF-8`, body, parameters });

		expect(status).toBe(200);
		expect(result).toEqual({ noWebhookResponse: true, workflowData: [[{ json: { data } }]] });
		expect(html).toContain(said.replace('&', '&amp;'));
	});

	test.each([
		['no choice', FORM, {}, {}, 400],
		['decline where only Approve is offered', FORM, { approved: 'false' }, { approvalOptions: { values: { approvalType: 'single' } } }, 400],
		['an unknown choice', FORM, { approved: 'maybe' }, double, 400],
		['a JSON body', 'application/json', { approved: 'true' }, {}, 415],
		['no content type', undefined, { approved: 'true' }, {}, 415],
		['an empty text', FORM, { text: '   ' }, { responseType: 'freeText' }, 400],
		['a text over the limit', FORM, { text: 'x'.repeat(MAX_ANSWER_CHARS + 1) }, { responseType: 'freeText' }, 413],
	])('%s: a clear 4xx page, and the execution keeps waiting', async (_name, contentType, body, parameters, code) => {
		const { result, status, html } = await call({ method: 'POST', contentType, body, parameters });

		expect(status).toBe(code);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(html).toContain('Answer not recorded');
	});

	test('a text of exactly the limit is taken', async () => {
		const text = 'é'.repeat(MAX_ANSWER_CHARS);
		const { result } = await call({ method: 'POST', contentType: FORM, body: { text }, parameters: { responseType: 'freeText' } });

		expect(result.workflowData).toEqual([[{ json: { data: { text } } }]]);
	});
});

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
		expect(html).not.toMatch(/<script|<link|src=|url\(/i);
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
							'Note <i>': 'line 1\nline 2',
							Ticket: '',
							// What the person typed, spaces included: a password is not trimmed.
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

			expect(result.workflowData?.[0][0].json.data).toMatchObject({ Photos: [] });
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
});
