/**
 * `data.respondedAt`: when the node recorded the answer, as n8n's own send-and-wait nodes give
 * it (an ISO time), for every kind of answer; set last, so a form field of that name cannot
 * stand in for it.
 */
import { call, FORM, ISO_TIME } from './webhookCall';

const MULTIPART = 'multipart/form-data; boundary=x';

test.each([
	['an approval', FORM, { approved: 'true' }, {}],
	['a Free Text answer', FORM, { text: 'ok' }, { responseType: 'freeText' }],
	[
		'a Custom Form answer',
		MULTIPART,
		{ data: { 'field-0': 'Late' } },
		{ responseType: 'customForm', formFields: { values: [{ fieldLabel: 'Reason', fieldType: 'text', requiredField: true }] } },
	],
])('%s: the time the answer was recorded, in ISO form', async (_name, contentType, body, parameters) => {
	// Bounds, not a clock: the node reads the time while the call runs, between these two.
	const before = Date.now();
	const { respondedAt } = await call({ method: 'POST', contentType, body, parameters });
	const after = Date.now();

	expect(respondedAt).toMatch(ISO_TIME);
	expect(Date.parse(String(respondedAt))).toBeGreaterThanOrEqual(before);
	expect(Date.parse(String(respondedAt))).toBeLessThanOrEqual(after);
});

test('a form field named respondedAt does not stand in for the time (the hidden field\'s value, a posted value)', async () => {
	const fields = [
		{ fieldLabel: 'respondedAt', fieldType: 'text' },
		{ fieldType: 'hiddenField', fieldName: 'respondedAt', fieldValue: '2000-01-01T00:00:00.000Z' },
	];
	for (const field of fields) {
		const { respondedAt, status } = await call({
			method: 'POST',
			contentType: MULTIPART,
			body: { data: { 'field-0': '1999-01-01T00:00:00.000Z' } },
			parameters: { responseType: 'customForm', formFields: { values: [field] } },
		});

		expect(status).toBe(200);
		expect(respondedAt).toMatch(ISO_TIME);
		expect(Date.parse(String(respondedAt))).toBeGreaterThan(Date.parse('2026-01-01'));
	}
});
