import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';

import type { FieldLabels } from '../schemas/common';
import { asJson, ruleShowing } from '../schemas/shown';
import { CHOICE_TYPES, FILE_TYPE, FORM_FIELD_TYPES, HIDDEN_TYPE, HTML_TYPE, JSON_FORM_KEYS } from './constants';

/**
 * A Custom Form's definition, from the editor's Form Elements or the JSON list of Form Fields,
 * with every rule that would make it impossible to fill in: no element, a label missing or used
 * twice, a choice element without choices or with one twice, a file element's types unreadable
 * or its binary name taken, an unknown element type (and, in JSON, a key the forms do not take).
 * The output is the list of elements, each choice list as `{ values: [...] }`.
 */

export const EDITOR_FORM_LABELS = {
	formFields: {
		label: 'Form Elements',
		at: ['formFields', 'values'],
		entry: 'Element',
		parts: {
			fieldLabel: 'Label',
			fieldName: 'Field Name',
			elementName: 'Element Name',
			fieldType: 'Element Type',
			fieldOptions: 'Field Options',
			acceptFileTypes: 'Accepted File Types',
		},
	},
} satisfies FieldLabels;

/** In JSON an element's keys are named as written, and every problem points at the one parameter. */
export const JSON_FORM_LABELS = { jsonOutput: { label: 'Form Fields', entry: 'element', entryKey: () => 'jsonOutput' } } satisfies FieldLabels;

export const text = (value: unknown) => (typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value).trim());

/** The binary property a file element's file goes into, as n8n's own forms name it: the label, other characters as `_`. */
export const binaryKey = (label: string) => label.replace(/\W/g, '_');

const EXTENSION = /^\.[a-z0-9][a-z0-9._+-]*$/;
const MIME_TYPE = /^[a-z]+\/([a-z0-9][a-z0-9.+-]*|\*)$/;

/** Accepted File Types as a list: lowercased, extensions with their dot. */
export const acceptList = (value: unknown) =>
	text(value)
		.split(',')
		.map((entry) => entry.trim().toLowerCase())
		.filter((entry) => entry !== '')
		.map((entry) => (entry.includes('/') || entry.startsWith('.') ? entry : `.${entry}`));

/** An element's type (text unless set), and the key that names its answer in the output. */
export function kindOf(entry: IDataObject): { type: string; key: string; label: string } {
	const type = entry.fieldType === undefined ? 'text' : String(entry.fieldType);
	const key = type === HIDDEN_TYPE ? 'fieldName' : type === HTML_TYPE ? 'elementName' : 'fieldLabel';
	return { type, key, label: text(entry[key]) };
}

export const optionsOf = (entry: IDataObject): string[] => {
	const listed = (entry.fieldOptions as IDataObject | undefined)?.values;
	return (Array.isArray(listed) ? (listed as IDataObject[]) : []).map((choice) => text(choice.option));
};

/** One element, with what the elements before it took: their labels and their binary names. */
interface Element {
	entry: IDataObject;
	earlierLabels: Set<string>;
	earlierBinaryKeys: Set<string>;
}

function withEarlier(entries: IDataObject[]): Element[] {
	const labels = new Set<string>();
	const binaryKeys = new Set<string>();
	return entries.map((entry) => {
		const element = { entry, earlierLabels: new Set(labels), earlierBinaryKeys: new Set(binaryKeys) };
		const { type, label } = kindOf(entry);
		labels.add(label);
		if (type === FILE_TYPE && label !== '') binaryKeys.add(binaryKey(label));
		return element;
	});
}

const never = () => null;
const showOf = (pick: (element: Element) => unknown) => (element: Element) => asJson(pick(element));
const typeOf = (element: Element) => kindOf(element.entry).type;
const labelOf = (element: Element) => kindOf(element.entry).label;
const givenOptions = (element: Element) => optionsOf(element.entry).filter((option) => option !== '');
const twiceIn = (options: string[]) => options.find((option, position) => options.indexOf(option) !== position);
const isChoice = (element: Element) => CHOICE_TYPES.includes(typeOf(element));

/** The rules about an element's own label (the key that names its answer), at that key. */
function labelRules(element: Element, context: z.RefinementCtx<Element>): void {
	const { type, key, label } = kindOf(element.entry);
	// Custom HTML without an Element Name is only shown, not output.
	ruleShowing(() => label !== '' || type === HTML_TYPE, 'is required: it names the answer in the output', never, { path: [key] })(element, context);
	ruleShowing(
		() => label === '' || !element.earlierLabels.has(label),
		'is used by an earlier element: each answer needs its own key in the output',
		showOf(labelOf),
		{ path: [key] },
	)(element, context);
}

const ELEMENT_RULES = [
	ruleShowing((element: Element) => FORM_FIELD_TYPES.includes(typeOf(element)), `must be one of ${FORM_FIELD_TYPES.join(', ')}`, showOf(typeOf), {
		path: ['fieldType'],
	}),
	ruleShowing((element: Element) => !isChoice(element) || givenOptions(element).length > 0, 'needs at least one option to choose', never, {
		path: ['fieldOptions'],
	}),
	ruleShowing((element: Element) => !isChoice(element) || twiceIn(givenOptions(element)) === undefined, 'has the same option twice', showOf((element) => twiceIn(givenOptions(element))), {
		path: ['fieldOptions'],
	}),
	ruleShowing(
		(element: Element) => typeOf(element) !== FILE_TYPE || acceptList(element.entry.acceptFileTypes).every((rule) => EXTENSION.test(rule) || MIME_TYPE.test(rule)),
		'must list file extensions (.pdf) or MIME types (image/png, image/*), separated by commas',
		showOf((element) => text(element.entry.acceptFileTypes)),
		{ path: ['acceptFileTypes'] },
	),
	ruleShowing(
		(element: Element) => typeOf(element) !== FILE_TYPE || !element.earlierBinaryKeys.has(binaryKey(labelOf(element))),
		(element) => `names the same binary data (${binaryKey(labelOf(element))}) as an earlier file element: give it another label`,
		showOf(labelOf),
		{ path: ['fieldLabel'] },
	),
];

/** In JSON, each key an element has that the forms do not take. */
function knownKeys(element: Element, context: z.RefinementCtx<Element>): void {
	for (const key of Object.keys(element.entry).filter((name) => !JSON_FORM_KEYS.includes(name))) {
		ruleShowing(() => false, `is not a key this node's forms take (they take ${JSON_FORM_KEYS.join(', ')})`, never, { path: [key] })(element, context);
	}
}

function elementSchema(json: boolean) {
	const rules = [...(json ? [knownKeys] : []), labelRules, ...ELEMENT_RULES];
	return rules.reduce((schema, rule) => schema.superRefine(rule), z.custom<Element>());
}

function elementsSchema(json: boolean) {
	return z
		.custom<IDataObject[]>()
		.superRefine(ruleShowing((entries: IDataObject[]) => entries.length > 0, 'needs at least one element for the person to fill in', never))
		.transform(withEarlier)
		.pipe(z.array(elementSchema(json)))
		.transform((elements) => elements.map((element) => element.entry));
}

/**
 * Form Fields as given: JSON text, or the list an expression gave; n8n's forms also take the
 * choices as a plain list. Neither JSON nor a list of objects is the one problem: nothing after it is judged.
 */
function jsonElements(raw: unknown, context: z.RefinementCtx<unknown>): IDataObject[] {
	let entries: unknown = raw;
	if (typeof raw === 'string') {
		try {
			entries = JSON.parse(raw);
		} catch {
			context.addIssue({ code: 'custom', message: 'must be JSON: a list of form elements, e.g. [{ "fieldLabel": "Name" }]', input: raw, continue: false });
			return [];
		}
	}
	if (!Array.isArray(entries) || !entries.every((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry))) {
		context.addIssue({ code: 'custom', message: 'must be a JSON list of form elements, each an object such as { "fieldLabel": "Name" }', input: raw, continue: false });
		return [];
	}
	return (entries as IDataObject[]).map((entry) => (Array.isArray(entry.fieldOptions) ? { ...entry, fieldOptions: { values: entry.fieldOptions } } : entry));
}

export const editorFormSchema = z
	.object({ formFields: z.unknown().transform((raw) => (Array.isArray(raw) ? (raw as IDataObject[]) : [])).pipe(elementsSchema(false)) })
	.transform((form) => form.formFields);

export const jsonFormSchema = z.object({ jsonOutput: z.unknown().transform(jsonElements).pipe(elementsSchema(true)) }).transform((form) => form.jsonOutput);
