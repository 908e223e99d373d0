import type { IDataObject } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';
import { judge } from '../helpers/validation';
import { FILE_TYPE, HIDDEN_TYPE, HTML_TYPE } from './constants';
import { safeHtml } from './customHtml';
import {
	acceptList,
	EDITOR_FORM_LABELS,
	editorFormSchema,
	JSON_FORM_LABELS,
	jsonFormSchema,
	kindOf,
	optionsOf,
	text,
} from './formDefinition.schema';

/**
 * Custom Form: the fields a person fills in on the answer page (their node fields are in
 * editor/customForm.ts). Element types, parameter names and the output (`{ data: { <label>: value } }`)
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

/**
 * The hidden input before a form's only file element when it is optional, which the page puts
 * after all the others: n8n 2.8 and 1.x stop reading a form at a file input left empty, and what
 * comes before it has then arrived (answer.ts). With JavaScript the page's script leaves empty
 * file inputs out (pageScript.ts); this is for a browser without it.
 */
export const FIELDS_END = 'fields-end';

/** The element the page puts last, after FIELDS_END: a form's only file element, if optional. */
export function putLast(fields: FormField[]): FormField | undefined {
	const files = fields.filter((field) => field.type === FILE_TYPE);
	return files.length === 1 && !files[0].required ? files[0] : undefined;
}

/** A switch as n8n hands it over: true, or "true" from JSON. */
const isTrue = (value: unknown) => value === true || value === 'true';

/** One element of a checked definition, as the page shows it and the answer is read. */
function formFieldOf(entry: IDataObject): FormField {
	const { type: defined, label } = kindOf(entry);
	// A dropdown with Multiple Choice is shown and read as checkboxes, as n8n's own forms do.
	const type = defined === 'dropdown' && isTrue(entry.multiselect) ? 'checkbox' : defined;
	const [hidden, html] = [type === HIDDEN_TYPE, type === HTML_TYPE];
	return {
		label,
		type,
		value: hidden ? text(entry.fieldValue) : html ? safeHtml(typeof entry.html === 'string' ? entry.html : '') : '',
		placeholder: text(entry.placeholder),
		options: optionsOf(entry).filter((option) => option !== ''),
		required: !html && isTrue(entry.requiredField),
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
