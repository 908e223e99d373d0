import type { FormField } from '../../nodes/MultiChannelNotification/sendAndWait/form';

/** A Custom Form element as the answer page takes it: a plain optional text field, with `set` over it. */
export const formField = (set: Partial<FormField>): FormField => ({
	label: 'Name',
	type: 'text',
	value: '',
	placeholder: '',
	options: [],
	required: false,
	multiple: false,
	accept: [],
	...set,
});

/** A required element's marks on the page, written out: the visible asterisk, the word for screen readers, the line saying what the asterisk means. */
export const REQUIRED_MARK = '<span class="required" aria-hidden="true">*</span>';
export const REQUIRED_WORD = '<span class="sr-only"> (required)</span>';
export const REQUIRED_NOTE = '<p class="note" aria-hidden="true">Fields marked <span class="required">*</span> are required.</p>';
