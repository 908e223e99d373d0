/**
 * The answer page's fixed facts, read at run time by the form, the page and the webhook, and
 * shown by the editor's Send and Wait fields: lengths, default labels and the element types.
 */

/** Longest free-text answer the page takes, and longest text of one Custom Form field, in characters. */
export const MAX_ANSWER_CHARS = 2000;
export const DEFAULT_APPROVE_LABEL = '✓ Approve';
export const DEFAULT_DECLINE_LABEL = '✗ Decline';
export const DEFAULT_SUBMIT_LABEL = 'Submit';

/** The element types that offer choices (Field Options). */
export const CHOICE_TYPES = ['dropdown', 'radio', 'checkbox'];
/** The element the page does not show: its value, set in the node, goes into the output under its Field Name. */
export const HIDDEN_TYPE = 'hiddenField';
/** The element the person attaches files with: they come out as the output item's binary data. */
export const FILE_TYPE = 'file';
/** The element that shows text of the workflow's on the page (customHtml.ts keeps what is safe of it); output only if it has an Element Name. */
export const HTML_TYPE = 'html';
/** Every element type a Custom Form can have: those a phone's browser renders without script (files too), text to show, and a hidden one. */
export const FORM_FIELD_TYPES = ['text', 'textarea', 'number', 'email', 'date', 'password', ...CHOICE_TYPES, FILE_TYPE, HTML_TYPE, HIDDEN_TYPE];
/** The keys an element of a form defined in JSON may have (n8n's own names). */
export const JSON_FORM_KEYS = [
	'fieldLabel',
	'fieldType',
	'placeholder',
	'requiredField',
	'fieldOptions',
	'multiselect',
	'fieldName',
	'fieldValue',
	'multipleFiles',
	'acceptFileTypes',
	'html',
	'elementName',
];

/**
 * The answer link's query parameter that names its question (link.ts): inside what n8n signs, so
 * it cannot be changed, and only the question the execution now waits for is answered by it.
 */
export const QUESTION_PARAMETER = 'question';
