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
