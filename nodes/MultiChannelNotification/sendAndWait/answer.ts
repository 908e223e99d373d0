import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';
import type { Verdict } from '../helpers/validation';
import { judge } from '../helpers/validation';
import { FILE_TYPE, HIDDEN_TYPE, HTML_TYPE, MAX_ANSWER_CHARS } from './constants';
import type { FormField, UploadedFile } from './form';
import { FIELDS_END, FORM_END, inputName, putLast } from './form';
import { binaryKey } from './formDefinition.schema';
import type { PageBody } from './page';
import type { FieldAnswer } from './postedAnswer.schema';
import {
	choiceAnswerSchema,
	chosenFiles,
	formAnswerLabels,
	formAnswerSchema,
	REQUEST_LABELS,
	REQUEST_RULES,
	sentAsSchema,
	textAnswerSchema,
} from './postedAnswer.schema';

/**
 * Reading a POSTed answer (postedAnswer.schema.ts has its rules): what it answers, or the page that
 * tells the person why it was not recorded, which is where its problems become an HTTP status
 * and a text. The execution keeps waiting for a better one.
 */

/** A Custom Form's answers by label, and the files to keep as binary data under their keys. */
interface FormAnswer {
	data: IDataObject;
	files: Array<{ key: string; file: UploadedFile }>;
}

type Answer = { data: IDataObject; files?: FormAnswer['files']; said: string };
interface Refusal {
	status: number;
	title: string;
	text: string;
}

const TITLE = 'Answer not recorded';
const RECORDED = 'Your answer was recorded.';

/** What the page says for each rule about the request as a whole, and with which status. */
const REFUSALS: Record<string, Omit<Refusal, 'title'>> = {
	[REQUEST_RULES.notFromThePage]: { status: 415, text: 'Please answer with the buttons on the page the link opens.' },
	[REQUEST_RULES.empty]: { status: 400, text: 'The answer was empty: go back and write one.' },
	[REQUEST_RULES.tooLong]: { status: 413, text: `The answer is longer than ${MAX_ANSWER_CHARS} characters: go back and shorten it.` },
	[REQUEST_RULES.notAChoice]: { status: 400, text: 'That is not one of the choices: go back and press one of the buttons.' },
	[REQUEST_RULES.cutShort]: {
		status: 400,
		text: 'The form did not arrive whole: a file was too large, or this n8n stops reading a form at a file field left empty. Choose a file for each file field, or a smaller one. Go back and correct it.',
	},
};

/** The page for a refused answer: its first problem, in the page's words. */
function refusalOf([problem]: Problem[]): Refusal {
	const said = REFUSALS[problem.rule];
	if (said !== undefined) return { title: TITLE, ...said };
	// A form field's rule follows its quoted label: "Amount" is required. / "Reason": that is not …
	const gap = problem.rule.startsWith(':') ? '' : ' ';
	return { status: 400, title: TITLE, text: `"${problem.field}"${gap}${problem.rule} Go back and correct it.` };
}

/** The answers by label (a hidden field's and Custom HTML's value are the node's), and the files by binary key. */
function collect(fields: FormField[], answers: Record<string, FieldAnswer | undefined>): FormAnswer {
	const form: FormAnswer = { data: {}, files: [] };
	fields.forEach((field, index) => {
		const answer = answers[inputName(index)];
		if (answer === undefined) {
			if ((field.type === HIDDEN_TYPE || field.type === HTML_TYPE) && field.label !== '') form.data[field.label] = field.value;
			return;
		}
		// An optional radio with nothing chosen has no key, as in n8n's own forms.
		if (answer.value !== undefined) form.data[field.label] = answer.value;
		const key = binaryKey(field.label);
		// One file is under the label, several under label_0, label_1…: n8n's parser hands a list of one over as one file.
		const several = answer.files.length > 1;
		if (field.type === FILE_TYPE) form.files.push(...answer.files.map((file, position) => ({ key: several ? `${key}_${position}` : key, file })));
	});
	return form;
}

/** Under n8n's smallest limit on uploaded files (N8N_FORMDATA_FILE_SIZE_MAX, in MB): no file in a smaller request went over it. */
const UNDER_ANY_FILE_LIMIT = 1024 * 1024;

/**
 * Whether a form that lacks its end marker arrived whole but for its only file element, optional
 * and left empty: n8n 2.8 and 1.x stop reading a form at a file input left empty (and delete any
 * file they had read) and call the webhook with the fields they read. It is so when the page put
 * that element last (form.ts) and everything before it arrived (its marker), no file did, and
 * the request was too small for a file to have gone over n8n's limit (the other reason a form
 * stops early). With several file elements, a file read before the stop is gone, or files after
 * it are lost: the form is not whole.
 */
function stoppedAtOnlyEmptyFile(fields: FormField[], body: IDataObject, uploads: Record<string, unknown>, sentBytes: number): boolean {
	const last = putLast(fields);
	if (last === undefined) return false;
	const chosen = chosenFiles(uploads[inputName(fields.indexOf(last))]);
	return body[FIELDS_END] === '1' && chosen.length === 0 && sentBytes < UNDER_ANY_FILE_LIMIT;
}

/**
 * One POSTed form (its fields, and its files by input name), checked field by field. Empty
 * optional fields come out as "" (text, textarea, email, date, password, dropdown), null
 * (number, file) or [] (checkboxes, several choices); a radio has no key.
 */
export function readFormAnswer(fields: FormField[], body: IDataObject, uploads: Record<string, unknown> = {}, sentBytes = Infinity): Verdict<FormAnswer> {
	const whole = body[FORM_END] === '1' || stoppedAtOnlyEmptyFile(fields, body, uploads, sentBytes);
	const candidate: IDataObject = { [FORM_END]: whole ? '1' : body[FORM_END] };
	fields.forEach((field, index) => {
		const name = inputName(index);
		candidate[name] = (field.type === FILE_TYPE ? uploads[name] : body[name]) as IDataObject[string];
	});
	const verdict = judge(formAnswerSchema(fields), candidate, formAnswerLabels(fields));
	return 'data' in verdict ? { data: collect(fields, verdict.data) } : verdict;
}

/** The answer a page of this kind posts. */
function answerOf(page: PageBody, posted: IDataObject, sentBytes: number): Verdict<Answer> {
	if (page.kind === 'text') {
		const verdict = judge(textAnswerSchema, posted, REQUEST_LABELS);
		return 'data' in verdict ? { data: { data: { text: verdict.data }, said: RECORDED } } : verdict;
	}
	if (page.kind === 'form') {
		// n8n hands a multipart body over as { data: fields, files }.
		const verdict = readFormAnswer(page.fields, (posted.data ?? {}) as IDataObject, (posted.files ?? {}) as Record<string, unknown>, sentBytes);
		return 'data' in verdict ? { data: { ...verdict.data, said: RECORDED } } : verdict;
	}
	const verdict = judge(choiceAnswerSchema(page.kind === 'question' ? page.choices : []), posted, REQUEST_LABELS);
	if ('problems' in verdict) return verdict;
	return { data: { data: { approved: verdict.data.answer === 'true' }, said: `Recorded: ${verdict.data.label}` } };
}

/** What a POST answers, or the page explaining why it was refused (the execution keeps waiting). */
export function readAnswer(context: IWebhookFunctions, page: PageBody): Answer | Refusal {
	const { headers } = context.getRequestObject();
	const contentType = String(headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	// The size the browser said it sent; unknown, as large as can be.
	const length = String(headers['content-length'] ?? '');
	const sentBytes = /^\d+$/.test(length) ? Number(length) : Infinity;
	const expected = page.kind === 'form' ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
	const sent = judge(sentAsSchema(expected), { contentType }, REQUEST_LABELS);
	if ('problems' in sent) return refusalOf(sent.problems);
	const answer = answerOf(page, (context.getBodyData() ?? {}) as IDataObject, sentBytes);
	return 'data' in answer ? answer.data : refusalOf(answer.problems);
}
