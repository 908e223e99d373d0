import type { INodeProperties } from 'n8n-workflow';

import { SMS_ALLOWED_NUMBER } from '../schemas';

/**
 * What an AI model is told about the node as its tool: per operation, what one call does and the
 * rules its arguments must follow (the run-time side is delivery/toolResult.ts).
 */

const PHONE_RULE = 'in E.164 format: leading +, country code, number, no spaces (e.g. +6281234567890)';

const SMS_ONLY = `SMS only goes to ${SMS_ALLOWED_NUMBER}`;

const TEMPLATE_RULES = [
	'Template name: the exact name of an approved template. Language code: the template’s language ("id" unless told otherwise).',
	'Components: the body is always required; its parameters fill the placeholders {{1}}, {{2}}, … in order, one text per placeholder, no more, no fewer.',
	'Optional: a header image (https link); at most 3 quick reply buttons at index 0, 1 or 2, each index once, each with a payload text; a URL button with its index (default 0) and the text for the placeholder in its URL.',
].join(' ');

const OUTCOME_RULES =
	'One call sends one real message: never repeat a call that succeeded. If the result has sent: false, nothing was sent and "problems" names every argument to fix: fix all, then call again. If sent is "unknown", do not call again: tell the user.';

const WAIT_RULES =
	'The call returns once the person has answered on the linked page (or the workflow’s wait time ran out, with no answer); the result is the answer: approved true or false, the text written, or the form’s fields by label.';

const LINK_PLACEHOLDER_RULE =
	'The link fills the body placeholder the workflow chose: leave that one empty, give every other.';

/**
 * What the model is told about each operation: what one call does and the rules its arguments
 * must follow. Each text stays under 1024 characters, the shortest limit among model providers.
 */
export const TOOL_DESCRIPTIONS: Readonly<Record<string, string>> = {
	'sms.send': [
		'Sends one SMS through the Multi-Channel Notification Service.',
		`Phone number: the recipient ${PHONE_RULE}. ${SMS_ONLY}; any other country is refused.`,
		'Message: the exact SMS text.',
		OUTCOME_RULES,
	].join(' '),
	'chatMessage.sendTemplate': [
		'Sends one approved chat template message, the only chat message that reaches a user who has not written first.',
		`From (business sender) and To (recipient): phone numbers ${PHONE_RULE}.`,
		TEMPLATE_RULES,
		OUTCOME_RULES,
	].join(' '),
	'chatMessage.sendMedia': [
		'Sends one image, video, audio file or document in the chat channel.',
		'Delivered only to a user who has already started a chat with the business number; for anyone else send a template message instead.',
		`From (business sender) and To (recipient): phone numbers ${PHONE_RULE}.`,
		'Media URL: a public https link (http is refused). Only an image can carry a caption.',
		OUTCOME_RULES,
	].join(' '),
	'combined.sendWithFailover': [
		'Sends one notification as a single request that carries both parts: a chat template message and an SMS; the service falls back from the chat message to the SMS by its failover order.',
		'Both parts are required and checked before anything is sent.',
		`Chat part: From and To ${PHONE_RULE}; an approved template name; the body component is required, its parameters fill {{1}}, {{2}}, … in order, one per placeholder; at most 3 quick replies at index 0–2; an optional URL button.`,
		`SMS part: the phone number, also E.164 with leading +, and the SMS text. ${SMS_ONLY}.`,
		OUTCOME_RULES,
	].join(' '),
	'sms.sendAndWait': [
		'Asks a person by SMS and waits for the answer: the SMS carries a link to an answer page. Use it to get approval or a reply before acting.',
		`Phone number: the person ${PHONE_RULE}. ${SMS_ONLY}.`,
		'Message: the question, clear on its own (the link is added below it, and the answer page shows it too).',
		WAIT_RULES,
		OUTCOME_RULES,
	].join(' '),
	'chatMessage.sendAndWait': [
		'Asks a person in an approved chat template message and waits for the answer: the message carries a link to an answer page.',
		`From (business sender) and To (recipient): phone numbers ${PHONE_RULE}.`,
		'Template name, language code and body parameters {{1}}, {{2}}, … in order as for any template; the body is always required.',
		LINK_PLACEHOLDER_RULE,
		WAIT_RULES,
		OUTCOME_RULES,
	].join(' '),
	'combined.sendAndWait': [
		'Asks a person in a chat template with SMS failover, both carrying a link to an answer page, and waits for the answer.',
		`Chat part: From and To ${PHONE_RULE}; an approved template; the body is always required, its parameters fill {{1}}, {{2}}, … in order. ${LINK_PLACEHOLDER_RULE}`,
		`SMS part: the number (E.164, leading +; only ${SMS_ALLOWED_NUMBER}); the message is the question (the link goes below it).`,
		WAIT_RULES,
		OUTCOME_RULES,
	].join(' '),
};

/**
 * The "Tool Description" field of the tool variant, one per operation, prefilled with that
 * operation's rules. `@tool` shows it only in the tool variant (n8n-workflow's displayParameter,
 * 1.x and 2.x). A node that declares `toolDescription` itself gets neither n8n's own
 * "Description" field nor its "Set Automatically" mode, whose text would be the operation's
 * action ("Send an SMS in Multi-Channel Notification"), so the model reads this text instead.
 */
export const toolDescriptionProperties: INodeProperties[] = Object.entries(TOOL_DESCRIPTIONS).map(([key, text]) => {
	const [resource, operation] = key.split('.');
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 6 },
		default: text,
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
		description:
			'What the AI model is told about this tool, prefilled with the rules its arguments must follow. Add your own instructions if needed, but keep the rules.',
	};
});
