/**
 * A Custom Form's answer shaped as n8n's own forms shape it for the same definition (n8n-nodes-base
 * Form/utils: prepareFormReturnItem and addFormResponseDataToReturnItem, and the page's own
 * script, which posts a multiple choice as a JSON list and skips empty files): a dropdown with
 * Multiple Choice, a several-files element given one file, a radio left unanswered. And an
 * optional file element left empty on an n8n that stops reading a form there (2.8, 1.x).
 */
import type { IDataObject } from 'n8n-workflow';

import { call } from './webhookCall';

const MULTIPART = 'multipart/form-data; boundary=x';
const choices = (...options: string[]) => ({ values: options.map((option) => ({ option })) });
const form = (...values: IDataObject[]) => ({ responseType: 'customForm', formFields: { values } });
const answered = async (parameters: IDataObject, data: IDataObject, files: IDataObject = {}, headers: Record<string, string> = {}) => {
	const { result, status, html } = await call({ method: 'POST', contentType: MULTIPART, body: { data, files }, parameters, headers });
	const item = result.workflowData?.[0]?.[0];
	return { status, html, data: item?.json.data, binary: item?.binary };
};
/** A file as n8n hands a multipart upload over (formidable's file). */
const upload = (name: string, size = 10) => ({ filepath: `/tmp/upload-${name}`, originalFilename: name, newFilename: 'x1', mimetype: 'image/png', size });

describe('a dropdown with Multiple Choice (n8n\'s multiselect)', () => {
	const reason = { fieldLabel: 'Reason', fieldType: 'dropdown', multiselect: true, fieldOptions: choices('Damaged', 'Late', 'Lost') };

	test('GET: shown as checkboxes, as n8n shows it, not as a one-choice list', async () => {
		const { html } = await call({ method: 'GET', parameters: form(reason) });

		expect(html).not.toContain('<select');
		expect(html).toContain('<fieldset><legend>Reason</legend><label class="choice"><input type="checkbox" name="field-0" value="Damaged">Damaged</label>');
	});

	test.each([
		['from the editor', form(reason)],
		['from JSON', { responseType: 'customForm', defineForm: 'json', jsonOutput: JSON.stringify([{ ...reason, fieldOptions: reason.fieldOptions.values }]) }],
	])('POST %s: every choice made, as a list in the options\' order; none, an empty list', async (_name, parameters) => {
		expect((await answered(parameters, { 'field-0': ['Lost', 'Damaged'] })).data).toEqual({ Reason: ['Damaged', 'Lost'] });
		expect((await answered(parameters, {})).data).toEqual({ Reason: [] });
	});

	test('POST: a choice not offered is refused', async () => {
		const { status, html } = await answered(form(reason), { 'field-0': ['Late', 'Stolen'] });

		expect(status).toBe(400);
		expect(html).toContain('&quot;Reason&quot;: that is not one of the choices.');
	});
});

test('a several-files element given one file: the binary data under its label (n8n\'s Scans, not Scans_0), the answer still a list', async () => {
	const parameters = form({ fieldLabel: 'Scans', fieldType: 'file' });
	const one = await answered(parameters, { 'form-end': '1' }, { 'field-0': upload('a.png') });
	expect(Object.keys(one.binary ?? {})).toEqual(['Scans']);
	expect(one.data).toEqual({ Scans: [{ filename: 'a.png', mimetype: 'image/png', size: 10 }] });

	// n8n's parser hands a list of one over as one file; a list of one is read the same way.
	expect(Object.keys((await answered(parameters, { 'form-end': '1' }, { 'field-0': [upload('a.png')] })).binary ?? {})).toEqual(['Scans']);
	expect(Object.keys((await answered(parameters, { 'form-end': '1' }, { 'field-0': [upload('a.png'), upload('b.png')] })).binary ?? {})).toEqual(['Scans_0', 'Scans_1']);
});

test('an optional radio with nothing chosen: no key in the answer, as in n8n\'s; one chosen, its value', async () => {
	const parameters = form({ fieldLabel: 'Refund to', fieldType: 'radio', fieldOptions: choices('Card', 'Wallet') }, { fieldLabel: 'Ticket' });

	expect((await answered(parameters, { 'field-1': 'T-1' })).data).toStrictEqual({ Ticket: 'T-1' });
	expect((await answered(parameters, { 'field-0': 'Card', 'field-1': 'T-1' })).data).toStrictEqual({ 'Refund to': 'Card', Ticket: 'T-1' });
});

/**
 * n8n 2.8 and 1.x stop reading a multipart form at a file input left empty (their parser refuses
 * an empty file), delete every file they had read, and hand the webhook the fields they read.
 * The page puts optional file elements last, after a marker, so that everything else has
 * arrived when the parser stops at one.
 */
describe('an optional file element left empty, on an n8n that stops reading the form there', () => {
	const amount = { fieldLabel: 'Amount', fieldType: 'number', requiredField: true };
	const photos = { fieldLabel: 'Photos', fieldType: 'file' };
	const receipt = { fieldLabel: 'Receipt', fieldType: 'file', multipleFiles: false, requiredField: true };
	const scan = { fieldLabel: 'Scan', fieldType: 'file', multipleFiles: false };
	const small = { 'content-length': '6000' };
	const cut = { 'field-0': '3', 'fields-end': '1' };

	const order = async (parameters: IDataObject) => [...(await call({ method: 'GET', parameters })).html.matchAll(/<input[^>]* name="([\w-]+)"/g)].map((match) => match[1]);

	test('GET: a form\'s only file element, optional, comes last, after the fields-end marker, then the form\'s end', async () => {
		expect(await order(form(scan, amount, { fieldLabel: 'Note' }))).toEqual(['field-1', 'field-2', 'fields-end', 'field-0', 'form-end']);
	});

	test('GET: with a required file element or several file elements, every element stays in place', async () => {
		expect(await order(form(receipt, amount))).toEqual(['field-0', 'field-1', 'form-end']);
		expect(await order(form(photos, amount, scan))).toEqual(['field-0', 'field-1', 'field-2', 'form-end']);
	});

	test('the only file element, optional, left empty: the answer is recorded, that element null', async () => {
		const { status, data, binary } = await answered(form(amount, { fieldLabel: 'Note' }, scan), { ...cut, 'field-1': 'ok' }, {}, small);

		expect(status).toBe(200);
		expect(data).toStrictEqual({ Amount: 3, Note: 'ok', Scan: null });
		expect(binary).toBeUndefined();
	});

	test.each([
		['a required file element as well (its file, read before the stop, is deleted)', form(amount, receipt, scan), { 'field-1': upload('r.png') }, cut, small],
		['another optional file element, with a file (deleted)', form(amount, photos, scan), { 'field-1': upload('p.png') }, cut, small],
		['another optional file element, empty (files after it would be lost)', form(amount, photos, scan), {}, cut, small],
		['the form cut before its optional file elements', form(amount, scan), {}, { 'field-0': '3' }, small],
		['a request of 1 MiB or more (a file may have been over n8n\'s limit)', form(amount, scan), {}, cut, { 'content-length': String(1024 * 1024) }],
		['no content-length to tell', form(amount, scan), {}, cut, {}],
		// Not a whole number of bytes: no size to tell, so not taken as small.
		['a content-length below zero', form(amount, scan), {}, cut, { 'content-length': '-1' }],
		['a content-length with a fraction', form(amount, scan), {}, cut, { 'content-length': '1.5' }],
		['the file element last, given a file, yet no form end after it', form(amount, scan), { 'field-1': upload('s.png') }, cut, small],
	])('%s: refused as a form that did not arrive whole', async (_name, parameters, files, data, headers) => {
		const { status, html, data: recorded } = await answered(parameters, data, files, headers);

		expect(status).toBe(400);
		expect(recorded).toBeUndefined();
		expect(html).toContain('The form did not arrive whole');
	});
});

test('a textarea: as typed, spaces and line breaks kept, as n8n\'s own forms keep them; only spaces does not answer a required one', async () => {
	const parameters = form({ fieldLabel: 'Note', fieldType: 'textarea' }, { fieldLabel: 'Why', fieldType: 'textarea', requiredField: true });

	expect((await answered(parameters, { 'field-0': '  indented\r\nnext ', 'field-1': ' because ' })).data).toStrictEqual({ Note: '  indented\r\nnext ', Why: ' because ' });
	const { status, html } = await answered(parameters, { 'field-0': '', 'field-1': ' \r\n ' });
	expect(status).toBe(400);
	expect(html).toContain('&quot;Why&quot; is required.');
});

test('optional file elements left empty: null, as in n8n\'s own forms, whether they take one file or several', async () => {
	const parameters = form({ fieldLabel: 'Photos', fieldType: 'file' }, { fieldLabel: 'Scan', fieldType: 'file', multipleFiles: false });
	const blank = { filepath: '/tmp/blank', originalFilename: '', mimetype: 'application/octet-stream', size: 0 };

	const { data, binary } = await answered(parameters, { 'form-end': '1' }, { 'field-0': blank });
	expect(data).toStrictEqual({ Photos: null, Scan: null });
	expect(binary).toBeUndefined();
});

test('a form with a file element whose form end comes posted empty: no form end, refused as a form that did not arrive whole', async () => {
	const parameters = form({ fieldLabel: 'Amount', fieldType: 'number' }, { fieldLabel: 'Receipt', fieldType: 'file', requiredField: true });
	const { status, html, data } = await answered(parameters, { 'field-0': '3', 'form-end': '' }, { 'field-1': upload('r.png') });

	expect(status).toBe(400);
	expect(data).toBeUndefined();
	expect(html).toContain('The form did not arrive whole');
});
