/**
 * Required elements on the answer page: a visible asterisk that screen readers skip, the control's
 * own `required` (or, for a group of checkboxes, which has none, the word in its legend), and a
 * line saying what the asterisk means. The server still refuses an unanswered one, naming it.
 */
import { readFormAnswer } from '../../../../nodes/MultiChannelNotification/sendAndWait/answer';
import { readFormParameters } from '../../../../nodes/MultiChannelNotification/sendAndWait/form';
import { answerPage } from '../../../../nodes/MultiChannelNotification/sendAndWait/page';
import { REQUIRED_MARK as MARK, REQUIRED_NOTE as NOTE, REQUIRED_WORD as WORD } from '../../../helpers/answerPage';

const choices = (...options: string[]) => ({ values: options.map((option) => ({ option })) });

function formPage(elements: object[]) {
	const { fields, problems } = readFormParameters((name, fallback) => (name === 'formFields.values' ? elements : fallback));
	expect(problems).toEqual([]);
	const page = answerPage('Your answer', { kind: 'form', message: 'Refund?', fields, title: '', description: '', buttonLabel: 'Submit' });
	return { fields, page };
}

describe('marks', () => {
	const { page } = formPage([
		{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
		{ fieldLabel: 'Reason', fieldType: 'dropdown', fieldOptions: choices('Damaged', 'Late'), requiredField: true },
		{ fieldLabel: 'Refund to', fieldType: 'radio', fieldOptions: choices('Card', 'Wallet'), requiredField: true },
		{ fieldLabel: 'Notify', fieldType: 'checkbox', fieldOptions: choices('SMS', 'Email'), requiredField: true },
		{ fieldLabel: 'Note', fieldType: 'textarea' },
	]);

	test('a required input or list: the asterisk in its label, `required` on the control', () => {
		expect(page).toContain(`<label for="field-0">Amount${MARK}</label><input type="number" id="field-0" name="field-0" step="any" inputmode="decimal" required>`);
		expect(page).toContain(`<label for="field-1">Reason${MARK}</label><select id="field-1" name="field-1" required>`);
	});

	test('a required group of choices: the asterisk and the word "required" for screen readers in its legend', () => {
		expect(page).toContain(`<legend>Refund to${MARK}${WORD}</legend><label class="choice"><input type="radio" name="field-2" value="Card" required>`);
		expect(page).toContain(`<legend>Notify${MARK}${WORD}</legend><label class="choice"><input type="checkbox" name="field-3" value="SMS">`);
	});

	test('an optional element carries no mark', () => {
		expect(page).toContain('<label for="field-4">Note</label><textarea id="field-4" name="field-4" maxlength="2000"></textarea>');
	});

	test('the form says once, before its elements, what the asterisk means', () => {
		expect(page.split(NOTE)).toHaveLength(2);
		expect(page.indexOf(NOTE)).toBeLessThan(page.indexOf('field-0'));
	});

	test('the asterisk is visible: coloured by the page’s own style, and the screen-reader word is kept off screen', () => {
		expect(page).toMatch(/\.required\{color:#b3261e;/);
		expect(page).toMatch(/\.sr-only\{position:absolute;width:1px;height:1px;/);
	});
});

test('a form without a required element shows no note and no mark', () => {
	const { page } = formPage([
		{ fieldLabel: 'Note', fieldType: 'textarea' },
		{ fieldLabel: 'Order', fieldType: 'hiddenField', fieldName: 'order', fieldValue: '42', requiredField: true },
	]);
	expect(page).not.toContain(NOTE);
	expect(page).not.toContain('class="required"');
});

test('Free Text: its one answer box is marked as required too', () => {
	const page = answerPage('Your answer', { kind: 'text', message: 'Why?', maxLength: 2000, title: '', description: '', buttonLabel: 'Submit' });
	expect(page).toContain(`${NOTE}<label for="answer">Your answer${MARK}</label><textarea id="answer" name="text" required maxlength="2000">`);
});

test('the server still refuses an unanswered required element, naming it', () => {
	const { fields } = formPage([
		{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
		{ fieldLabel: 'Notify', fieldType: 'checkbox', fieldOptions: choices('SMS', 'Email'), requiredField: true },
	]);
	expect(readFormAnswer(fields, { 'field-1': 'SMS' })).toEqual({ problems: [{ field: 'Amount', path: ['field-0'], rule: 'is required.' }] });
	expect(readFormAnswer(fields, { 'field-0': '5' })).toEqual({ problems: [{ field: 'Notify', path: ['field-1'], rule: 'needs at least one choice.' }] });
});
