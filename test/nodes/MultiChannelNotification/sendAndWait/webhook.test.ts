/**
 * The answer page behind the link (the node's webhook method): what a GET shows, and how a POST
 * of an approval or a Free Text answer is recorded or refused. Custom Forms are in
 * webhook.customForm.test.ts; the stand-in for n8n's webhook functions is webhookCall.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { call, double, FORM, MAX_ANSWER_CHARS, node } from './webhookCall';

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
		expect(headers).toEqual({
			'Content-Type': 'text/html; charset=utf-8',
			'Cache-Control': 'no-store',
			'X-Frame-Options': 'DENY',
			'X-Content-Type-Options': 'nosniff',
			'Referrer-Policy': 'no-referrer',
			'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
		});
	});

	test('a Custom Form that cannot be read: each of its problems in the one line for n8n\'s log, told apart by "; "', async () => {
		const values = [{ fieldLabel: '' }, { fieldLabel: 'A', fieldType: 'dropdown' }];
		const { status, warned } = await call({ method: 'GET', parameters: { responseType: 'customForm', formFields: { values } } });

		expect(status).toBe(500);
		expect(warned).toEqual([
			'Send and Wait: the Custom Form cannot be read, so the answer page shows an error: Form Elements → Element 1 → Label is required: it names the answer in the output; Form Elements → Element 2 → Field Options needs at least one option to choose',
		]);
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

	test('labels and message trimmed; a blank label gets the default; Approve is the primary button, Decline the secondary; no custom style', async () => {
		const parameters = {
			message: '  Approve the refund?\n',
			approvalOptions: { values: { approvalType: 'double', approveLabel: ' \t', disapproveLabel: ' Not now ' } },
			options: { responseFormCustomCss: 'h1 { color: red }' },
		};
		const { html } = await call({ method: 'GET', parameters });

		expect(html).toContain('<div class="card"><p class="message">Approve the refund?</p><form method="post">');
		expect(html).toContain('<button class="primary" type="submit">✓ Approve</button>');
		expect(html).toContain('<button class="secondary" type="submit">Not now</button>');
		// Custom Styling belongs to the Free Text and Custom Form pages.
		expect(html.match(/<style>/g)).toHaveLength(1);
	});

	test('a Message whose expression gives nothing when the page opens: an empty message, nothing made up', async () => {
		// n8n hands over what the expression gave (here null) as it is, not the fallback.
		const { status, html } = await call({ method: 'GET', parameters: { ...double, message: null } });

		expect(status).toBe(200);
		expect(html).toContain('<div class="card"><p class="message"></p><form method="post">');
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
		// The message only: no description paragraph.
		expect(html.match(/<p class="message">/g)).toHaveLength(1);
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
		// A content type as a proxy may rewrite it: other case, spaces before its parameters.
		const { result, status, html } = await call({ method: 'POST', contentType: `${FORM.toUpperCase()} ; charset=UTF-8`, body, parameters });

		expect(status).toBe(200);
		expect(result).toEqual({ noWebhookResponse: true, workflowData: [[{ json: { data } }]] });
		expect(html).toContain('<title>Thank you</title>');
		expect(html).toContain(`<h1>Thank you</h1><p class="message">${said.replace('&', '&amp;')}\nYou can close this page.</p>`);
	});

	test.each([
		['no choice', FORM, {}, {}, 400],
		['decline where only Approve is offered', FORM, { approved: 'false' }, { approvalOptions: { values: { approvalType: 'single' } } }, 400],
		['an unknown choice', FORM, { approved: 'maybe' }, double, 400],
		['a JSON body', 'application/json', { approved: 'true' }, {}, 415],
		['no content type', undefined, { approved: 'true' }, {}, 415],
		['an empty text', FORM, { text: '   ' }, { responseType: 'freeText' }, 400],
		['a text over the limit', FORM, { text: 'x'.repeat(MAX_ANSWER_CHARS + 1) }, { responseType: 'freeText' }, 413],
		// Two inputs named "text" (not what the page sends): no text to take.
		['a text posted twice', FORM, { text: ['yes', 'no'] }, { responseType: 'freeText' }, 400],
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
