/**
 * The answer page's one script, on a Custom Form with a File element: the page has it only there,
 * its Content-Security-Policy allows exactly it by its sha256, and, run against a page's file
 * inputs, it leaves those with no file out of the POST (disabled on submit) and gives them back
 * when the person returns to the page (pageshow). Every other page has no script, and a policy
 * with no script-src, so default-src 'none' blocks any.
 */
import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';

import type { IDataObject } from 'n8n-workflow';

import { call } from './webhookCall';

const MULTIPART = 'multipart/form-data; boundary=x';
const SCRIPTS = /<script\b[^>]*>([\s\S]*?)<\/script>/gi;
const scriptsOf = (html: string) => [...html.matchAll(SCRIPTS)].map((match) => match[1]);
const customForm = (values: IDataObject[]) => ({ responseType: 'customForm', formFields: { values } });

const note = { fieldLabel: 'Note', fieldType: 'text' };
const WITH_FILES = customForm([note, { fieldLabel: 'Receipt', fieldType: 'file', multipleFiles: false }, { fieldLabel: 'Photos', fieldType: 'file' }]);

describe('a Custom Form with a File element', () => {
	test('has one script, the one its Content-Security-Policy allows by sha256, and nothing else is allowed', async () => {
		const { html, headers } = await call({ method: 'GET', parameters: WITH_FILES });
		const scripts = scriptsOf(html);

		expect(scripts).toHaveLength(1);
		expect((html.match(/<script/gi) ?? []).length).toBe(1);
		const hash = createHash('sha256').update(scripts[0], 'utf8').digest('base64');
		const policy = headers['Content-Security-Policy'].split(';').map((directive) => directive.trim());
		expect(policy).toContain(`script-src 'sha256-${hash}'`);
		expect(policy).toContain("default-src 'none'");
		expect(policy.filter((directive) => directive.startsWith('script-src'))).toHaveLength(1);
	});

	test('a required File element alone gets the script too; the pages after a POST (notices) do not', async () => {
		const required = customForm([{ fieldLabel: 'Receipt', fieldType: 'file', requiredField: true }]);
		expect(scriptsOf((await call({ method: 'GET', parameters: required })).html)).toHaveLength(1);

		const refused = await call({ method: 'POST', contentType: MULTIPART, body: { data: { 'form-end': '1' }, files: {} }, parameters: required });
		expect(refused.status).toBe(400);
		expect(refused.html).not.toMatch(/<script/i);
		expect(refused.headers['Content-Security-Policy']).not.toMatch(/script-src/);
	});
});

test.each([
	['an approval', {}],
	['a free-text answer', { responseType: 'freeText' }],
	['a Custom Form without a File element', customForm([note, { fieldLabel: 'Amount', fieldType: 'number' }])],
])('%s: no script on the page and no script-src in its policy', async (_name, parameters) => {
	const { html, headers } = await call({ method: 'GET', parameters });

	expect(html).not.toMatch(/<script/i);
	expect(headers['Content-Security-Policy']).toContain("default-src 'none'");
	expect(headers['Content-Security-Policy']).not.toMatch(/script-src/);
});

/** A file input as the script sees it: the files chosen, and whether it is disabled. */
interface FakeInput {
	files: { length: number };
	disabled: boolean;
}

/** Runs the page's script against a document holding `inputs` (the file inputs the page has); returns how to fire its events. */
function runScript(script: string, inputs: FakeInput[]) {
	const listeners: Record<string, Array<() => void>> = {};
	const listen = (type: string, listener: () => void) => (listeners[type] ??= []).push(listener);
	const queried: string[] = [];
	const document = {
		addEventListener: listen,
		querySelectorAll: (selector: string) => {
			queried.push(selector);
			return selector === 'input[type=file]' ? inputs : [];
		},
	};
	runInNewContext(script, { document, window: { addEventListener: listen } });
	return { fire: (type: string) => (listeners[type] ?? []).forEach((listener) => listener()), queried };
}

test('the script: on submit it disables each file input with no file, only those; on pageshow it enables them all again', async () => {
	const { html } = await call({ method: 'GET', parameters: WITH_FILES });
	const [script] = scriptsOf(html);
	expect(script).toBeDefined();
	const [empty, chosen, alsoEmpty] = [{ files: { length: 0 }, disabled: false }, { files: { length: 2 }, disabled: false }, { files: { length: 0 }, disabled: false }];
	const page = runScript(script, [empty, chosen, alsoEmpty]);
	expect([empty.disabled, chosen.disabled, alsoEmpty.disabled]).toEqual([false, false, false]);

	page.fire('submit');
	expect([empty.disabled, chosen.disabled, alsoEmpty.disabled]).toEqual([true, false, true]);
	expect(page.queried.every((selector) => selector === 'input[type=file]')).toBe(true);

	page.fire('pageshow');
	expect([empty.disabled, chosen.disabled, alsoEmpty.disabled]).toEqual([false, false, false]);
});

test('the POST the script makes, both optional File elements left out of it, records both as null with no binary data', async () => {
	const { status, result } = await call({ method: 'POST', contentType: MULTIPART, body: { data: { 'field-0': 'Box crushed', 'form-end': '1' }, files: {} }, parameters: WITH_FILES });

	expect(status).toBe(200);
	expect(result.workflowData).toEqual([[{ json: { data: { Note: 'Box crushed', Receipt: null, Photos: null } } }]]);
});
