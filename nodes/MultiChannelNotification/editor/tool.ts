import type { INodeProperties } from 'n8n-workflow';

import type { SendOperation } from '../delivery/operation';
import { SMS_ALLOWED_NUMBER } from '../schemas/common';

/**
 * What an AI model is told about the node as its tool: the phrases several operations' tool
 * descriptions share (each operation writes its own text, in its own file), and the field that
 * shows each text. The run-time side is delivery/toolResult.ts.
 */

/** Resource → operation → how it is listed and what the model is told about it: the registry's shape. */
type ToolDescribed = Readonly<Record<string, Readonly<Record<string, Pick<SendOperation, 'option' | 'toolDescription'>>>>>;

export const PHONE_RULE = 'in E.164 format: leading +, country code, number, no spaces (e.g. +6281234567890)';

export const SMS_ONLY = `SMS only goes to ${SMS_ALLOWED_NUMBER}`;

export const TEMPLATE_RULES = [
	'Template name: the exact name of an approved template. Language code: the template’s language ("id" unless told otherwise).',
	'Components: the body is always required; its parameters fill the placeholders {{1}}, {{2}}, … in order, one text per placeholder, no more, no fewer.',
	'Optional: a header image (https link); at most 3 quick reply buttons at index 0, 1 or 2, each index once, each with a payload text; a URL button with its index (default 0) and the text for the placeholder in its URL.',
].join(' ');

export const OUTCOME_RULES =
	'One call sends one real message: never repeat a call that succeeded. If the result has sent: false, nothing was sent and "problems" names every argument to fix: fix all, then call again. If sent is "unknown", do not call again: tell the user.';

export const WAIT_RULES =
	'The call returns once the person has answered on the linked page (or the workflow’s wait time ran out, with no answer); the result is the answer: approved true or false, the text written, or the form’s fields by label.';

export const LINK_PLACEHOLDER_RULE =
	'The link fills the body placeholder the workflow chose: leave that one empty, give every other.';

/**
 * The "Tool Description" field of the tool variant, one per operation of the registry, prefilled
 * with that operation's tool description. `@tool` shows it only in the tool variant
 * (n8n-workflow's displayParameter, 1.x and 2.x). A node that declares `toolDescription` itself gets neither n8n's own
 * "Description" field nor its "Set Automatically" mode, whose text would be the operation's
 * action ("Send an SMS in Multi-Channel Notification"), so the model reads this text instead.
 */
export function toolDescriptionProperties(registry: ToolDescribed): INodeProperties[] {
	return Object.entries(registry).flatMap(([resource, operations]) =>
		Object.values(operations).map(({ option, toolDescription }) => ({
			displayName: 'Tool Description',
			name: 'toolDescription',
			type: 'string' as const,
			typeOptions: { rows: 6 },
			default: toolDescription,
			displayOptions: { show: { '@tool': [true], resource: [resource], operation: [option.value] } },
			description:
				'What the AI model is told about this tool, prefilled with the rules its arguments must follow. Add your own instructions if needed, but keep the rules.',
		})),
	);
}
