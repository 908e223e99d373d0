import type { INodeProperties } from 'n8n-workflow';

import { PLACEHOLDER_INPUT_COUNT } from '../../../schemas';

/**
 * Placeholder Values: one input per placeholder of Template Content, labelled {{1}} … {{N}}.
 *
 * Each input is an ordinary string field that n8n shows while Template Content contains its
 * placeholder (a display condition n8n evaluates in the editor as the text changes, in 1.x and
 * 2.x alike). n8n's resource mapper was tried first: its inputs are fetched from the server and
 * refetched only when the editor can resolve every parameter of the node, so one field mapped
 * from input data that has not run yet ("To: {{ $json.phone }}") kept the inputs from ever
 * appearing in n8n 2.8.4 until the panel was reopened.
 */

/** How many placeholders get an input; a longer template uses Body Parameters. */
export const PLACEHOLDER_INPUTS = PLACEHOLDER_INPUT_COUNT;

/** The parameter holding the value of {{number}}. */
export const placeholderInputName = (number: number): string => `placeholder${number}`;

// n8n's display condition: a regular expression tested on Template Content's text.
const uses = (pattern: string) => ({ templateContent: [{ _cnd: { regex: pattern } }] });

export function placeholderInputFields(show: Record<string, string[]>): INodeProperties[] {
	return [
		{
			displayName:
				'Placeholder Values: one input per placeholder of Template Content, in order. Each accepts an expression, e.g. {{ $json.name }}.',
			name: 'placeholderValuesNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...show, ...uses('\\{\\{[1-9]\\d*\\}\\}') } },
		},
		...Array.from(
			{ length: PLACEHOLDER_INPUTS },
			(_unused, at): INodeProperties => ({
				displayName: `{{${at + 1}}}`,
				name: placeholderInputName(at + 1),
				type: 'string',
				default: '',
				displayOptions: { show: { ...show, ...uses(`\\{\\{${at + 1}\\}\\}`) } },
				description: `The value that replaces {{${at + 1}}} in Template Content`,
			}),
		),
	];
}
