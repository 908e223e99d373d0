import type { IDataObject } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';
import { judge } from '../helpers/validation';
import { FILE_TYPE, HIDDEN_TYPE, HTML_TYPE, MAX_ANSWER_CHARS } from './constants';
import {
	acceptList,
	binaryKey,
	EDITOR_FORM_LABELS,
	editorFormSchema,
	JSON_FORM_LABELS,
	jsonFormSchema,
	kindOf,
	optionsOf,
	text,
} from './formDefinition.schema';
import { safeHtml } from './html';

/**
 * Custom Form: the fields a person fills in on the answer page (their node fields are in
 * fields.ts). Element types, parameter names and the output (`{ data: { <label>: value } }`)
 * are those of n8n's own send-and-wait forms, for the types a phone's browser renders without
 * script (text, textarea, number, email, date, password, dropdown, radio buttons, checkboxes and
 * files), text to show (Custom HTML), and a hidden field, whose value is the node's, not the
 * page's: the output holds what the workflow set, whatever a page sends back. The form
 * is defined with the editor's fields (Form Elements) or as JSON (Form Fields), as in n8n's own
 * forms. The definition is checked before the message is sent (a form nobody can fill in must not
 * go out); each answer is checked on the server, whatever the page's own checks let through.
 */

export interface FormField {
	/** The key of the answer in the output: the Label, a hidden field's Field Name, Custom HTML's Element Name (may be empty). */
	label: string;
	type: string;
	/** A hidden field's value; Custom HTML's markup, made safe. */
	value: string;
	placeholder: string;
	options: string[];
	required: boolean;
	/** A file element: whether it takes several files, and the extensions (.pdf) and MIME types (image/png, image/*) it takes (none: any). */
	multiple: boolean;
	accept: string[];
}

/** A file as n8n hands a multipart upload to the webhook (formidable's file). */
export interface UploadedFile {
	filepath: string;
	originalFilename?: string | null;
	newFilename?: string;
	mimetype?: string | null;
	size: number;
}

/** The hidden input that ends a form with a file element: missing from a POST, the form did not arrive whole. */
export const FORM_END = 'form-end';

function accepts(accept: string[], file: UploadedFile): boolean {
	const name = (file.originalFilename ?? '').toLowerCase();
	const type = (file.mimetype ?? '').toLowerCase();
	return accept.length === 0 || accept.some((rule) => (rule.startsWith('.') ? name.endsWith(rule) : rule.endsWith('/*') ? type.startsWith(rule.slice(0, -1)) : type === rule));
}

/** One element of a checked definition, as the page shows it and the answer is read. */
function formFieldOf(entry: IDataObject): FormField {
	const { type, label } = kindOf(entry);
	const [hidden, html] = [type === HIDDEN_TYPE, type === HTML_TYPE];
	return {
		label,
		type,
		value: hidden ? text(entry.fieldValue) : html ? safeHtml(typeof entry.html === 'string' ? entry.html : '') : '',
		placeholder: text(entry.placeholder),
		options: optionsOf(entry).filter((option) => option !== ''),
		required: !html && (entry.requiredField === true || entry.requiredField === 'true'),
		multiple: type === FILE_TYPE && entry.multipleFiles !== false && entry.multipleFiles !== 'false',
		accept: type === FILE_TYPE ? acceptList(entry.acceptFileTypes) : [],
	};
}

/**
 * The Custom Form of the node's parameters (`parameter(name, fallback)` reads one): from Form
 * Elements, or with Define Form → Using JSON from the JSON list of Form Fields (text, or the list
 * an expression gave), with every problem that would make it impossible to fill in
 * (formDefinition.schema.ts); no fields when there is one.
 */
export function readFormParameters(parameter: (name: string, fallback: unknown) => unknown): { fields: FormField[]; problems: Problem[] } {
	const verdict =
		parameter('defineForm', 'fields') === 'json'
			? judge(jsonFormSchema, { jsonOutput: parameter('jsonOutput', '[]') }, JSON_FORM_LABELS)
			: judge(editorFormSchema, { formFields: parameter('formFields.values', []) }, EDITOR_FORM_LABELS);
	return 'data' in verdict ? { fields: verdict.data.map(formFieldOf), problems: [] } : { fields: [], problems: verdict.problems };
}

/** The name a field's input posts under: its position, so no label has to survive HTML. */
export const inputName = (index: number) => `field-${index}`;

/** A decimal number as a phone's number input sends it (no hex, no "Infinity"). */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A real calendar day in YYYY-MM-DD (2026-02-30 is not). */
const isDate = (value: string) => DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/**
 * One POSTed form (its fields, and its files by input name), checked field by field: the answers
 * by label and the files to keep as binary data, or what is wrong (the first field that breaks a
 * rule, named by its label). Empty optional fields come out as "" (text, email, date, password,
 * one choice), null (number, one file) or [] (checkboxes, several files). Answers are trimmed, a
 * password's excepted. A file's answer is its name, type and size, as in n8n's own forms.
 */
export function readFormAnswer(
	fields: FormField[],
	body: IDataObject,
	uploads: Record<string, unknown> = {},
): { data: IDataObject; files: Array<{ key: string; file: UploadedFile }> } | { problem: string } {
	const data: IDataObject = {};
	const files: Array<{ key: string; file: UploadedFile }> = [];
	// Older n8n (2.8 and 1.x among them) stops reading a multipart body at a file input left empty
	// or too large, and calls the webhook with what it read: the hidden input after the fields is lost.
	if (fields.some((field) => field.type === FILE_TYPE) && body[FORM_END] !== '1') {
		return {
			problem:
				'The form did not arrive whole: a file was too large, or this n8n stops reading a form at a file field left empty. Choose a file for each file field, or a smaller one.',
		};
	}
	for (const [index, field] of fields.entries()) {
		const named = `"${field.label}"`;
		if (field.type === HIDDEN_TYPE || field.type === HTML_TYPE) {
			if (field.label !== '') data[field.label] = field.value;
			continue;
		}
		if (field.type === FILE_TYPE) {
			const given = uploads[inputName(index)];
			// A file input left empty arrives, where n8n keeps it, as a file without name or bytes.
			const chosen = (Array.isArray(given) ? given : given ? [given] : []).filter(
				(file: UploadedFile) => typeof file?.filepath === 'string' && (file.size > 0 || (file.originalFilename ?? '') !== ''),
			) as UploadedFile[];
			if (field.required && chosen.length === 0) return { problem: `${named} needs a file.` };
			if (!field.multiple && chosen.length > 1) return { problem: `${named} takes one file.` };
			const refused = chosen.find((file) => !accepts(field.accept, file));
			if (refused) return { problem: `${named}: "${refused.originalFilename ?? ''}" is not a type it takes (${field.accept.join(', ')}).` };
			const about = (file: UploadedFile): IDataObject => ({ filename: file.originalFilename ?? file.newFilename ?? '', mimetype: file.mimetype ?? '', size: file.size });
			data[field.label] = field.multiple ? chosen.map(about) : chosen[0] ? about(chosen[0]) : null;
			const key = binaryKey(field.label);
			files.push(...chosen.map((file, position) => ({ key: field.multiple ? `${key}_${position}` : key, file })));
			continue;
		}
		const posted = body[inputName(index)];
		const values = (Array.isArray(posted) ? posted : posted === undefined ? [] : [posted]).map((value) => String(value));
		const value = (values[0] ?? '').trim();
		if (field.type === 'checkbox') {
			const unknown = values.find((choice) => !field.options.includes(choice));
			if (unknown !== undefined) return { problem: `${named}: that is not one of the choices.` };
			if (field.required && values.length === 0) return { problem: `${named} needs at least one choice.` };
			data[field.label] = field.options.filter((option) => values.includes(option));
			continue;
		}
		if (values.length > 1) return { problem: `${named} takes one answer.` };
		if (value === '') {
			if (field.required) return { problem: `${named} is required.` };
			data[field.label] = field.type === 'number' ? null : '';
			continue;
		}
		if ([...value].length > MAX_ANSWER_CHARS) return { problem: `${named} is longer than ${MAX_ANSWER_CHARS} characters.` };
		if (field.type === 'number') {
			const number = Number(value);
			if (!NUMBER.test(value) || !Number.isFinite(number)) return { problem: `${named} must be a number.` };
			data[field.label] = number;
		} else if (field.type === 'email' && !EMAIL.test(value)) {
			return { problem: `${named} must be an email address.` };
		} else if (field.type === 'date' && !isDate(value)) {
			return { problem: `${named} must be a date (YYYY-MM-DD).` };
		} else if ((field.type === 'dropdown' || field.type === 'radio') && !field.options.includes(value)) {
			return { problem: `${named}: that is not one of the choices.` };
		} else {
			// A password is what the person typed, spaces included.
			data[field.label] = field.type === 'password' ? values[0] : value;
		}
	}
	return { data, files };
}
