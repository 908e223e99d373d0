/**
 * Send and Wait for Response through n8n's engine: the message carries n8n's signed resume link,
 * the execution waits only when the message went out, and nothing is sent (and nothing waits)
 * when any input is invalid.
 */
import type { INodeParameters } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { MultiChannelNotificationApi } from '../../../../credentials/MultiChannelNotificationApi.credentials';
import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { createWorkflowRunner } from '../../../../harness/workflowRunner';
import { NODE_NAME, NODE_TYPE, runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';
import { templateQuestion } from '../../../helpers/sendAndWaitParameters';

const sandbox = useSandbox();
/** The node's AI-tool variant (type …Tool), run through the engine as an AI agent runs it. */
const runTool = createWorkflowRunner({ typeName: `${NODE_TYPE}Tool`, typeVersion: 1, nodeType: new MultiChannelNotification(), name: NODE_NAME });
const credentialType = new MultiChannelNotificationApi();

/** n8n's waiting-webhook link for the harness's execution and node ("target"), with its question's value, signed. */
const LINK = /^http:\/\/127\.0\.0\.1\/webhook-waiting\/\d+\/target\?question=[A-Za-z0-9]{32}&signature=[\w.-]+$/;

const sms = (fields: INodeParameters = {}, options: INodeParameters = {}): INodeParameters => ({
	resource: 'sms',
	operation: 'sendAndWait',
	phoneNumber: '+6281234567890',
	message: 'Approve the refund of Rp 150.000 for order 42?',
	options,
	...fields,
});


describe('SMS → Send and Wait for Response', () => {
	test('sends the message with the answer link on its own line, then the execution waits indefinitely', async () => {
		const { run, error, output } = await runNode({ parameters: sms(), credentials: credentialsFor(sandbox()), items: [{ order: 42 }] });

		expect(error).toBeUndefined();
		// While it waits, the node's output is its input, as n8n's own send-and-wait nodes leave it.
		expect(output).toEqual([expect.objectContaining({ json: { order: 42 } })]);
		expect(sandbox().deliveries()).toHaveLength(1);
		const [text, link, ...rest] = (sandbox().requests[0].body as { message: string }).message.split('\n');
		expect(text).toBe('Approve the refund of Rp 150.000 for order 42?');
		expect(link).toMatch(LINK);
		expect(rest).toEqual([]);
		expect(run.waitTill).toEqual(WAIT_INDEFINITELY);
		expect(run.status).toBe('waiting');
	});

	test('Limit Wait Time: waits until that long after the send', async () => {
		const before = Date.now();
		const { run } = await runNode({
			parameters: sms({}, { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } } }),
			credentials: credentialsFor(sandbox()),
		});
		const after = Date.now();

		expect(run.waitTill?.getTime()).toBeGreaterThanOrEqual(before + 45 * 60_000);
		expect(run.waitTill?.getTime()).toBeLessThanOrEqual(after + 45 * 60_000);
	});

	test.each([
		['a number outside Indonesia', sms({ phoneNumber: '+14155550100' }), 'Phone Number must be an Indonesian number'],
		['an empty message', sms({ message: '  ' }), 'Message is required'],
		[
			'a wait limit in the past',
			sms({}, { limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2020-01-01T00:00:00' } } }),
			'Options → Limit Wait Time → Max Date and Time must be a date and time in the future',
		],
		[
			'a wait of 0 hours',
			sms({}, { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0, resumeUnit: 'hours' } } }),
			'Options → Limit Wait Time → Amount must be a number above 0',
		],
	])('%s: refused with the field and the rule, nothing sent, nothing waits', async (_name, parameters, rule) => {
		const { run, error } = await runNode({ parameters, credentials: credentialsFor(sandbox()) });

		expect(error?.name).toBe('NodeOperationError');
		expect(`${error?.message}\n${error?.description}`).toContain(rule);
		expect(error?.description).toContain('Nothing was sent');
		expect(sandbox().requests).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
	});

	test('a refusal by the service: its message surfaces and nothing waits', async () => {
		sandbox().injectFault({ kind: 'status', status: 422, message: 'recipient blocked' });
		const { run, error } = await runNode({ parameters: sms(), credentials: credentialsFor(sandbox()) });

		expect(error?.message).toBe('The service answered HTTP 422: recipient blocked');
		expect(run.waitTill).toBeUndefined();
	});

	test('Dry Run shows the SMS with its link, sends nothing and does not wait', async () => {
		const { output, run } = await runNode({ parameters: sms({}, { dryRun: true }), credentials: credentialsFor(sandbox()) });

		expect(sandbox().requests).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
		const body = (output?.[0].json.request as { body: { message: string } }).body;
		expect(body.message.split('\n')[1]).toMatch(LINK);
	});

	test('one message per execution, from the first item, as n8n’s own send-and-wait nodes do', async () => {
		const { run } = await runNode({
			parameters: sms({ message: '={{ "Approve order " + $json.order + "?" }}' }),
			items: [{ order: 1 }, { order: 2 }],
			credentials: credentialsFor(sandbox()),
		});

		expect(sandbox().requests).toHaveLength(1);
		expect((sandbox().requests[0].body as { message: string }).message).toMatch(/^Approve order 1\?\n/);
		expect(run.status).toBe('waiting');
	});
});

describe('Custom Form', () => {
	const form = (values: INodeParameters[]): INodeParameters => ({ responseType: 'customForm', formFields: { values } });

	test('a fillable form: the SMS goes out and the execution waits', async () => {
		const fields = form([
			{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
			{ fieldLabel: 'Reason', fieldType: 'dropdown', fieldOptions: { values: [{ option: 'Damaged' }, { option: 'Late' }] } },
			{ fieldLabel: 'Receipt', fieldType: 'file', multipleFiles: false, acceptFileTypes: '.pdf, jpg, image/*' },
			{ fieldType: 'html', html: '<p>Photos help.</p>' },
		]);
		const { run, error } = await runNode({ parameters: sms(fields), credentials: credentialsFor(sandbox()) });

		expect(error).toBeUndefined();
		expect(sandbox().deliveries()).toHaveLength(1);
		expect(run.status).toBe('waiting');
	});

	test.each([
		['no element', form([]), ['Form Elements needs at least one element']],
		['an element without a label', form([{ fieldLabel: ' ', fieldType: 'text' }]), ['Form Elements → Element 1 → Label is required']],
		[
			'the same label twice',
			form([{ fieldLabel: 'Amount' }, { fieldLabel: 'Amount', fieldType: 'number' }]),
			['Form Elements → Element 2 → Label is used by an earlier element: each answer needs its own key in the output — got "Amount"'],
		],
		[
			'a hidden field named like a label',
			form([{ fieldLabel: 'orderId' }, { fieldType: 'hiddenField', fieldName: 'orderId', fieldValue: 'ORD-42' }]),
			['Form Elements → Element 2 → Field Name is used by an earlier element'],
		],
		['a dropdown without options', form([{ fieldLabel: 'Reason', fieldType: 'dropdown', fieldOptions: { values: [{ option: '' }] } }]), ['Element 1 → Field Options needs at least one option']],
		['a radio option twice', form([{ fieldLabel: 'Reason', fieldType: 'radio', fieldOptions: { values: [{ option: 'A' }, { option: 'A' }] } }]), ['Element 1 → Field Options has the same option twice']],
		[
			'two file elements whose files would share one binary name',
			form([{ fieldLabel: 'Photo 1', fieldType: 'file' }, { fieldLabel: 'Photo_1', fieldType: 'file' }]),
			['Form Elements → Element 2 → Label names the same binary data (Photo_1) as an earlier file element: give it another label — got "Photo_1"'],
		],
		[
			'accepted file types that are neither extensions nor MIME types',
			form([{ fieldLabel: 'Receipt', fieldType: 'file', acceptFileTypes: 'pdf, image/' }]),
			['Form Elements → Element 1 → Accepted File Types must list file extensions (.pdf) or MIME types'],
		],
	])('%s: refused before anything is sent, nothing waits', async (_name, fields, rules) => {
		const { run, error } = await runNode({ parameters: sms(fields), credentials: credentialsFor(sandbox()) });

		for (const rule of rules) expect(`${error?.message}\n${error?.description}`).toContain(rule);
		expect(error?.description).toContain('Nothing was sent');
		expect(sandbox().requests).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
	});

	test('a bad form and a bad message: one error lists both', async () => {
		const { error } = await runNode({ parameters: sms({ ...form([]), phoneNumber: '+14155550100' }), credentials: credentialsFor(sandbox()) });

		expect(error?.description).toContain('Form Elements needs at least one element');
		expect(error?.description).toContain('Phone Number must be an Indonesian number');
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Custom Form → Define Form → Using JSON', () => {
	const json = (jsonOutput: unknown): INodeParameters => ({ responseType: 'customForm', defineForm: 'json', jsonOutput } as INodeParameters);

	test.each([
		['JSON text', JSON.stringify([{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true }, { fieldLabel: 'Reason', fieldType: 'radio', fieldOptions: [{ option: 'Damaged' }] }])],
		['an expression that builds the list', '={{ [{ fieldLabel: "Reason", fieldType: "dropdown", fieldOptions: { values: [{ option: $json.reason }] } }] }}'],
	])('a fillable form from %s: the SMS goes out and the execution waits', async (_name, jsonOutput) => {
		const { run, error } = await runNode({ parameters: sms(json(jsonOutput)), credentials: credentialsFor(sandbox()), items: [{ reason: 'Late' }] });

		expect(error).toBeUndefined();
		expect(sandbox().deliveries()).toHaveLength(1);
		expect(run.status).toBe('waiting');
	});

	test.each([
		['not JSON', '[{ "fieldLabel": "Name" ', 'Form Fields must be JSON: a list of form elements'],
		['an object, not a list', '{ "fieldLabel": "Name" }', 'Form Fields must be a JSON list of form elements'],
		['an empty list', '[]', 'Form Fields needs at least one element'],
		['a key the node does not take', '[{ "fieldLabel": "Name", "defaultValue": "Budi" }]', 'Form Fields → element 1 → defaultValue is not a key this node\'s forms take'],
		['an element type the page cannot show', '[{ "fieldLabel": "Map", "fieldType": "location" }]', 'Form Fields → element 1 → fieldType must be one of text, textarea, number, email, date, password, dropdown, radio, checkbox, file, html, hiddenField — got "location"'],
		['Custom HTML named like a label', '[{ "fieldLabel": "Note" }, { "fieldType": "html", "elementName": "Note", "html": "<p>x</p>" }]', 'Form Fields → element 2 → elementName is used by an earlier element'],
		['a file type that is neither an extension nor a MIME type', '[{ "fieldLabel": "Receipt", "fieldType": "file", "acceptFileTypes": ".pdf, image/*, *.png" }]', 'Form Fields → element 1 → acceptFileTypes must list file extensions (.pdf) or MIME types (image/png, image/*), separated by commas — got ".pdf, image/*, *.png"'],
		['a hiddenField without a fieldName', '[{ "fieldLabel": "Amount" }, { "fieldType": "hiddenField", "fieldValue": "ORD-42" }]', 'Form Fields → element 2 → fieldName is required'],
		['a dropdown without choices', '[{ "fieldLabel": "Reason", "fieldType": "dropdown" }]', 'Form Fields → element 1 → fieldOptions needs at least one option'],
	])('%s: refused before anything is sent, nothing waits', async (_name, jsonOutput, rule) => {
		const { run, error } = await runNode({ parameters: sms(json(jsonOutput)), credentials: credentialsFor(sandbox()) });

		expect(`${error?.message}\n${error?.description}`).toContain(rule);
		expect(error?.description).toContain('Nothing was sent');
		expect(sandbox().requests).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
	});
});

describe('Chat Message → Send and Wait for Response (template)', () => {
	test('the link goes into the chosen body placeholder; the rest is a normal template send', async () => {
		const { run, error } = await runNode({ parameters: templateQuestion(), credentials: credentialsFor(sandbox()) });

		expect(error).toBeUndefined();
		const body = sandbox().requests[0].body as { template: { name: string; components: Array<{ type: string; parameters: Array<{ text: string }> }> } };
		expect(body.template.name).toBe('refund_approval');
		const parameters = body.template.components.find((component) => component.type === 'body')?.parameters ?? [];
		expect(parameters.map((parameter) => parameter.text)[0]).toBe('Budi');
		expect(parameters[1].text).toMatch(LINK);
		expect(parameters).toHaveLength(2);
		expect(run.status).toBe('waiting');
	});

	test.each([
		['the link placeholder already has a value', templateQuestion({ placeholder2: 'https://example.com' }), 'Link Goes Into is {{2}}, which already has a value'],
		['a placeholder before it has no value', templateQuestion({ placeholder1: '', linkPlaceholder: 3, templateContent: 'Hi {{1}} {{2}} {{3}}' }), 'Link Goes Into is {{3}}'],
		[
			'components given as JSON',
			templateQuestion({ componentsInputMode: 'json', componentsJson: '[{"type":"body","parameters":[]}]' }),
			'Link Goes Into needs the body given as fields',
		],
		// The editor refuses an empty Message, but not an expression that comes out empty.
		['a Message that comes out empty', templateQuestion({ message: '={{ "  " }}' }), 'Message is required: the answer page shows it above the choices'],
		['a Message that comes out null', templateQuestion({ message: '={{ null }}' }), 'Message is required: the answer page shows it above the choices'],
	])('%s: refused, nothing sent, nothing waits', async (_name, parameters, rule) => {
		const { run, error } = await runNode({ parameters, credentials: credentialsFor(sandbox()) });

		expect(`${error?.message}\n${error?.description}`).toContain(rule);
		expect(sandbox().requests).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
	});

	test('as an AI tool, a Message that comes out empty is named by the argument that filled it', async () => {
		// Each $fromAI call is parsed (it names the argument) but not run: the Message comes out blank.
		const parameters = templateQuestion({ placeholder1: "={{ true ? 'Budi' : $fromAI('name') }}", message: "={{ true ? '  ' : $fromAI('question') }}" });
		const { output } = await runTool({ parameters, items: [{}], credentials: { [credentialType.name]: { type: credentialType, data: credentialsFor(sandbox()) } } });

		expect(output?.[0].json.problems).toContainEqual(expect.stringMatching(/^argument "question" is required: the answer page shows it above the choices/));
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Combined Notification → Send and Wait for Response', () => {
	const combined = (fields: INodeParameters = {}) => templateQuestion({ resource: 'combined', phoneNumber: '+6281234567890', message: 'Approve the refund?', ...fields });

	test('the same link in the template placeholder and below the SMS text', async () => {
		const { run, error } = await runNode({ parameters: combined(), credentials: credentialsFor(sandbox()) });

		expect(error).toBeUndefined();
		const body = sandbox().requests[0].body as { chat: { template: { components: Array<{ type: string; parameters: Array<{ text: string }> }> } }; sms: { message: string } };
		const [text, link] = body.sms.message.split('\n');
		expect(text).toBe('Approve the refund?');
		expect(link).toMatch(LINK);
		expect(body.chat.template.components.find((component) => component.type === 'body')?.parameters[1].text).toBe(link);
		expect(run.status).toBe('waiting');
	});

	test('Dry Run shows the template text with the link in it, as Send with Failover does; without Template Content, no preview', async () => {
		const { output } = await runNode({ parameters: combined({ options: { dryRun: true } }), credentials: credentialsFor(sandbox()) });
		const { output: bare } = await runNode({ parameters: combined({ templateContent: '', linkPlaceholder: 1, options: { dryRun: true } }), credentials: credentialsFor(sandbox()) });

		expect(sandbox().requests).toHaveLength(0);
		const [text, link] = String(output?.[0].json.preview).split(': ');
		expect(text).toBe('Hi Budi, approve the refund here');
		expect(link).toMatch(LINK);
		expect(bare?.[0].json.dryRun).toBe(true);
		expect(bare?.[0].json).not.toHaveProperty('preview');
	});

	test.each([
		['the link placeholder already has a value', combined({ placeholder2: 'https://example.com' }), 'Link Goes Into is {{2}}, which already has a value'],
		['a placeholder before it has no value', combined({ placeholder1: '', linkPlaceholder: 3, templateContent: 'Hi {{1}} {{2}} {{3}}' }), 'Link Goes Into is {{3}}'],
	])('%s: refused, nothing sent, nothing waits', async (_name, parameters, rule) => {
		const { run, error } = await runNode({ parameters, credentials: credentialsFor(sandbox()) });

		expect(`${error?.message}\n${error?.description}`).toContain(rule);
		expect(sandbox().requests).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
	});
});
