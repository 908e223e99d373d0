import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';

import type { FieldLabels } from '../schemas/common';
import { ruleShowing } from '../schemas/shown';
import { FILE_TYPE, HIDDEN_TYPE, HTML_TYPE, MAX_ANSWER_CHARS } from './constants';
import type { FormField, UploadedFile } from './form';
import { FORM_END, inputName } from './form';
import type { Choice } from './page';

/**
 * An answer POSTed from the page, checked on the server whatever the page's own checks let
 * through: sent the way the page sends it, then a Free Text answer, a choice, or a Custom Form's
 * fields one by one (each named by its label, as the page shows it). Each field's first broken
 * rule is its problem, and no rule shows the value given: the page says what to correct, and a
 * password is a password. The rules of the request as a whole are in REQUEST_RULES: the page
 * says each in its own words and with its own status (answer.ts).
 */

export const REQUEST_RULES = {
	/** Not the content type the page posts with. */
	notFromThePage: 'must be sent from the page the link opens',
	/** A Free Text answer. */
	empty: 'must not be empty',
	tooLong: `must be at most ${MAX_ANSWER_CHARS} characters`,
	/** Approval: a button's value. */
	notAChoice: 'must be one of the buttons',
	/** A form with a file element whose end marker is missing (see formAnswerSchema). */
	cutShort: 'must arrive whole',
} as const;

const never = () => null;
const STOP = { stop: true };
const rule = <T>(holds: (value: T) => boolean, text: string | ((value: T) => string)) => ruleShowing(holds, text, never, STOP);

export const REQUEST_LABELS = {
	contentType: { label: 'Answer' },
	text: { label: 'Your answer' },
	approved: { label: 'Choice' },
	[FORM_END]: { label: 'Form' },
} satisfies FieldLabels;

/** The request's content type (without parameters): the one the page posts with. */
export const sentAsSchema = (contentType: string) =>
	z.object({ contentType: z.unknown().superRefine(rule((value) => value === contentType, REQUEST_RULES.notFromThePage)) });

const freeText = z
	.unknown()
	.transform((value) => (typeof value === 'string' ? value : ''))
	.superRefine(rule((text: string) => text.trim() !== '', REQUEST_RULES.empty))
	.superRefine(rule((text: string) => [...text].length <= MAX_ANSWER_CHARS, REQUEST_RULES.tooLong));

/** Free Text: the text as written. */
export const textAnswerSchema = z.object({ text: freeText }).transform((answer) => answer.text);

/** Approval: the button pressed. */
export const choiceAnswerSchema = (choices: Choice[]) =>
	z
		.object({ approved: z.unknown().superRefine(rule((value) => choices.some((choice) => choice.answer === value), REQUEST_RULES.notAChoice)) })
		.transform((answer) => choices.find((choice) => choice.answer === answer.approved) as Choice);

/** A file as the answer shows it: its name, type and size, as in n8n's own forms. */
const about = (file: UploadedFile): IDataObject => ({ filename: file.originalFilename ?? file.newFilename ?? '', mimetype: file.mimetype ?? '', size: file.size });

function accepts(accept: string[], file: UploadedFile): boolean {
	const name = (file.originalFilename ?? '').toLowerCase();
	const type = (file.mimetype ?? '').toLowerCase();
	return accept.length === 0 || accept.some((rule) => (rule.startsWith('.') ? name.endsWith(rule) : rule.endsWith('/*') ? type.startsWith(rule.slice(0, -1)) : type === rule));
}

/** The files chosen: a file input left empty arrives, where n8n keeps it, as a file without name or bytes. */
export const chosenFiles = (given: unknown): UploadedFile[] =>
	(Array.isArray(given) ? given : given ? [given] : []).filter(
		(file: UploadedFile) => typeof file?.filepath === 'string' && (file.size > 0 || (file.originalFilename ?? '') !== ''),
	) as UploadedFile[];

/** One field's answer: its value in the output, and the files to keep as binary data. */
export interface FieldAnswer {
	value: IDataObject[keyof IDataObject];
	files: UploadedFile[];
}

function fileAnswer(field: FormField) {
	const refused = (files: UploadedFile[]) => files.find((file) => !accepts(field.accept, file));
	return z
		.unknown()
		.transform(chosenFiles)
		.superRefine(rule((files: UploadedFile[]) => !field.required || files.length > 0, 'needs a file.'))
		.superRefine(rule((files: UploadedFile[]) => field.multiple || files.length <= 1, 'takes one file.'))
		.superRefine(
			rule(
				(files: UploadedFile[]) => refused(files) === undefined,
				(files) => `: "${refused(files)?.originalFilename ?? ''}" is not a type it takes (${field.accept.join(', ')}).`,
			),
		)
		// None chosen: null, several or one, as in n8n's own forms.
		.transform((files): FieldAnswer => ({ value: files.length === 0 ? null : field.multiple ? files.map(about) : about(files[0]), files }));
}

/** The values posted under one input: none, one, or several (checkboxes). */
const postedValues = (posted: unknown) => (Array.isArray(posted) ? posted : posted === undefined ? [] : [posted]).map((value) => String(value));

function checkboxAnswer(field: FormField) {
	return z
		.unknown()
		.transform(postedValues)
		.superRefine(rule((values: string[]) => values.every((choice) => field.options.includes(choice)), ': that is not one of the choices.'))
		.superRefine(rule((values: string[]) => !field.required || values.length > 0, 'needs at least one choice.'))
		.transform((values): FieldAnswer => ({ value: field.options.filter((option) => values.includes(option)), files: [] }));
}

/** A decimal number as a phone's number input sends it (no hex, no "Infinity"). */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A real calendar day in YYYY-MM-DD (2026-02-30 is not). */
const isDate = (value: string) => DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** The rules of a field with one answer by its type; each holds for an answer left empty. */
const TYPE_RULES: Record<string, { holds: (value: string, field: FormField) => boolean; rule: string }> = {
	number: { holds: (value) => NUMBER.test(value) && Number.isFinite(Number(value)), rule: 'must be a number.' },
	email: { holds: (value) => EMAIL.test(value), rule: 'must be an email address.' },
	date: { holds: isDate, rule: 'must be a date (YYYY-MM-DD).' },
	dropdown: { holds: (value, field) => field.options.includes(value), rule: ': that is not one of the choices.' },
	radio: { holds: (value, field) => field.options.includes(value), rule: ': that is not one of the choices.' },
};

/** The types whose answer is what the person typed, spaces and line breaks included, as n8n's own forms keep them. */
const AS_TYPED = ['password', 'textarea'];

/** A field with one answer, trimmed (a password's and a textarea's excepted). */
function singleAnswer(field: FormField) {
	const first = (values: string[]) => (values[0] ?? '').trim();
	const typed = TYPE_RULES[field.type];
	return z
		.unknown()
		.transform(postedValues)
		.superRefine(rule((values: string[]) => values.length <= 1, 'takes one answer.'))
		.superRefine(rule((values: string[]) => !field.required || first(values) !== '', 'is required.'))
		.superRefine(rule((values: string[]) => [...(values[0] ?? '')].length <= MAX_ANSWER_CHARS, `is longer than ${MAX_ANSWER_CHARS} characters.`))
		.superRefine(rule((values: string[]) => typed === undefined || first(values) === '' || typed.holds(first(values), field), typed?.rule ?? ''))
		.transform((values): FieldAnswer => {
			if (AS_TYPED.includes(field.type)) return { value: values[0] ?? '', files: [] };
			const value = first(values);
			// Left empty: a radio has no answer (n8n's own forms leave its key out), a number null, others "".
			if (value === '') return { value: field.type === 'radio' ? undefined : field.type === 'number' ? null : '', files: [] };
			return { value: field.type === 'number' ? Number(value) : value, files: [] };
		});
}

/** The schema of one field's answer; a hidden field and Custom HTML take none. */
function fieldAnswer(field: FormField) {
	if (field.type === FILE_TYPE) return fileAnswer(field);
	return field.type === 'checkbox' ? checkboxAnswer(field) : singleAnswer(field);
}

const takesAnswer = (field: FormField) => field.type !== HIDDEN_TYPE && field.type !== HTML_TYPE;

/** Each field named by its label, under the input it posts as. */
export function formAnswerLabels(fields: FormField[]): FieldLabels {
	const labels: FieldLabels = { ...REQUEST_LABELS };
	fields.forEach((field, index) => (labels[inputName(index)] = { label: field.label }));
	return labels;
}

/**
 * A Custom Form's answer: each field's answer by input name.
 * Older n8n (2.8 and 1.x among them) stops reading a multipart body at a file input left empty
 * or too large, and calls the webhook with what it read: the hidden input after the fields, the
 * form's end, is then missing.
 */
export function formAnswerSchema(fields: FormField[]) {
	const shape: Record<string, z.ZodType> = {};
	if (fields.some((field) => field.type === FILE_TYPE)) {
		shape[FORM_END] = z.unknown().superRefine(rule((value) => value === '1', REQUEST_RULES.cutShort));
	}
	fields.forEach((field, index) => {
		if (takesAnswer(field)) shape[inputName(index)] = fieldAnswer(field);
	});
	return z.object(shape).transform((answers) => answers as Record<string, FieldAnswer | undefined>);
}
