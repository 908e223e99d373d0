import type { IDataObject } from 'n8n-workflow';

import type { Problem } from '../../../helpers/errors';
import { showValue } from '../../../helpers/validation';
import { CHOICE_TYPES, FORM_FIELD_TYPES, HIDDEN_TYPE, JSON_FORM_KEYS, MAX_ANSWER_CHARS } from './fields';

/**
 * Custom Form: the fields a person fills in on the answer page (their node fields are in
 * fields.ts). Element types, parameter names and the output (`{ data: { <label>: value } }`)
 * are those of n8n's own send-and-wait forms, for the types a phone's browser renders without
 * script (text, textarea, number, email, date, password, dropdown, radio buttons and checkboxes)
 * and a hidden field, whose value is the node's, not the page's: the output holds what the
 * workflow set, whatever a page sends back. The form
 * is defined with the editor's fields (Form Elements) or as JSON (Form Fields), as in n8n's own
 * forms. The definition is checked before the message is sent (a form nobody can fill in must not
 * go out); each answer is checked on the server, whatever the page's own checks let through.
 */

export interface FormField {
	/** The key of the answer in the output: the Label, or a hidden field's Field Name. */
	label: string;
	type: string;
	/** A hidden field's value. */
	value: string;
	placeholder: string;
	options: string[];
	required: boolean;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value).trim());

/** Where a definition's problems point: the editor's Form Elements, or the JSON of Form Fields. */
interface Definition {
	field: string;
	path: Array<string | number>;
	element: (index: number, name: string, key: string) => Pick<Problem, 'field' | 'path'>;
}

const EDITOR: Definition = {
	field: 'Form Elements',
	path: ['formFields'],
	element: (index, name, key) => ({ field: `Form Elements → Element ${index + 1} → ${name}`, path: ['formFields', 'values', index, key] }),
};

const JSON_LIST: Definition = {
	field: 'Form Fields',
	path: ['jsonOutput'],
	element: (index, _name, key) => ({ field: `Form Fields → element ${index + 1} → ${key}`, path: ['jsonOutput'] }),
};

/**
 * The Custom Form of the node's parameters (`parameter(name, fallback)` reads one): from Form
 * Elements, or with Define Form → Using JSON from the JSON list of Form Fields (text, or the list
 * an expression gave), with every problem that would make it impossible to fill in.
 */
export function readFormParameters(parameter: (name: string, fallback: unknown) => unknown): { fields: FormField[]; problems: Problem[] } {
	if (parameter('defineForm', 'fields') !== 'json') return readForm(parameter('formFields.values', []), EDITOR);
	const raw = parameter('jsonOutput', '[]');
	const refused = (rule: string): { fields: FormField[]; problems: Problem[] } => {
		const value = showValue(raw);
		return { fields: [], problems: [{ field: 'Form Fields', path: ['jsonOutput'], rule, ...(value === undefined ? {} : { value }) }] };
	};
	let entries: unknown = raw;
	if (typeof raw === 'string') {
		try {
			entries = JSON.parse(raw);
		} catch {
			return refused('must be JSON: a list of form elements, e.g. [{ "fieldLabel": "Name" }]');
		}
	}
	if (!Array.isArray(entries) || !entries.every((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry))) {
		return refused('must be a JSON list of form elements, each an object such as { "fieldLabel": "Name" }');
	}
	const elements = entries as IDataObject[];
	const unknown: Problem[] = elements.flatMap((entry, index) =>
		Object.keys(entry)
			.filter((key) => !JSON_FORM_KEYS.includes(key))
			.map((key) => ({ ...JSON_LIST.element(index, key, key), rule: `is not a key this node's forms take (they take ${JSON_FORM_KEYS.join(', ')})` })),
	);
	// n8n's forms also take the choices as a plain list: fieldOptions: [{ "option": "A" }].
	const normalised = elements.map((entry) => (Array.isArray(entry.fieldOptions) ? { ...entry, fieldOptions: { values: entry.fieldOptions } } : entry));
	const form = readForm(normalised, JSON_LIST);
	return { fields: form.fields, problems: [...unknown, ...form.problems] };
}

/**
 * A form's elements (`formFields.values`, or the JSON list), with every problem that would make
 * it impossible to fill in: no element, a label missing or used twice, a choice element without
 * choices or with one twice, an unknown element type.
 */
function readForm(raw: unknown, definition: Definition): { fields: FormField[]; problems: Problem[] } {
	const entries = Array.isArray(raw) ? (raw as IDataObject[]) : [];
	const problems: Problem[] = [];
	const at = (index: number, name: string, key: string, rule: string, value?: unknown): Problem => ({
		...definition.element(index, name, key),
		label: definition.field,
		rule,
		...(value === undefined ? {} : { value: JSON.stringify(value) }),
	});
	if (entries.length === 0) {
		problems.push({ field: definition.field, path: definition.path, rule: 'needs at least one element for the person to fill in' });
	}
	const seen = new Set<string>();
	const fields = entries.map((entry, index): FormField => {
		const type = entry.fieldType === undefined ? 'text' : String(entry.fieldType);
		const hidden = type === HIDDEN_TYPE;
		const [name, key] = hidden ? ['Field Name', 'fieldName'] : ['Label', 'fieldLabel'];
		const label = text(entry[key]);
		const listed = (entry.fieldOptions as IDataObject | undefined)?.values;
		const options = (Array.isArray(listed) ? (listed as IDataObject[]) : []).map((choice) => text(choice.option));
		if (label === '') problems.push(at(index, name, key, 'is required: it names the answer in the output'));
		else if (seen.has(label)) problems.push(at(index, name, key, 'is used by an earlier element: each answer needs its own key in the output', label));
		seen.add(label);
		if (!FORM_FIELD_TYPES.includes(type)) problems.push(at(index, 'Element Type', 'fieldType', `must be one of ${FORM_FIELD_TYPES.join(', ')}`, type));
		if (CHOICE_TYPES.includes(type)) {
			const given = options.filter((option) => option !== '');
			if (given.length === 0) problems.push(at(index, 'Field Options', 'fieldOptions', 'needs at least one option to choose'));
			const twice = given.find((option, position) => given.indexOf(option) !== position);
			if (twice !== undefined) problems.push(at(index, 'Field Options', 'fieldOptions', 'has the same option twice', twice));
		}
		return {
			label,
			type,
			value: hidden ? text(entry.fieldValue) : '',
			placeholder: text(entry.placeholder),
			options: options.filter((option) => option !== ''),
			required: entry.requiredField === true || entry.requiredField === 'true',
		};
	});
	return { fields, problems };
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
 * One POSTed form, checked field by field: the answers by label, or what is wrong (the first
 * field that breaks a rule, named by its label). Empty optional fields come out as "" (text,
 * email, date, password, one choice), null (number) or [] (checkboxes). Answers are trimmed, a
 * password's excepted.
 */
export function readFormAnswer(fields: FormField[], body: IDataObject): { data: IDataObject } | { problem: string } {
	const data: IDataObject = {};
	for (const [index, field] of fields.entries()) {
		if (field.type === HIDDEN_TYPE) {
			data[field.label] = field.value;
			continue;
		}
		const posted = body[inputName(index)];
		const values = (Array.isArray(posted) ? posted : posted === undefined ? [] : [posted]).map((value) => String(value));
		const value = (values[0] ?? '').trim();
		const named = `"${field.label}"`;
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
	return { data };
}
