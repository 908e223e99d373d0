import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';
import { extractFromAICalls } from 'n8n-workflow';

import { SMS_ALLOWED_NUMBER } from '../schemas/common';
import type { Delivery, Problem } from './errors';
import { deliveryOf, problemsOf } from './errors';

/**
 * The node as an AI agent's tool. n8n gives every `usableAsTool` node a tool variant (type
 * `<package>.<name>Tool`): the model sees its description and the arguments of the `$fromAI()`
 * calls in the parameters, and reads the `json` of its output items. Here: what the model is told
 * per operation, how the node knows it runs as a tool, and the result of a refused input or a
 * failed send, every problem named by the argument the model filled.
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

/**
 * True when the node runs as an AI agent's tool. The AI Agent (v3, n8n 1.1xx and 2.x) asks the
 * engine to run the tool node itself: an ordinary execute context whose `isToolExecution()` is
 * false, but whose node is the tool variant, type `…Tool`. Older agents and other tool users
 * call the node from a supply-data context, where `isToolExecution()` is true.
 */
export function isToolRun(context: { getNode(): { type: string }; isToolExecution?: () => boolean }): boolean {
	try {
		if (context.isToolExecution?.() === true) return true;
	} catch {
		// A context without the method implemented: fall back to the node type.
	}
	return (context.getNode().type ?? '').endsWith('Tool');
}

/**
 * The keys of the `$fromAI('key', …)` calls in a raw parameter value (an expression, or a
 * collection holding them), in order, each once — read by n8n's own parser.
 */
export function fromAiKeys(raw: unknown): string[] {
	if (raw !== null && typeof raw === 'object') return [...new Set(Object.values(raw).flatMap(fromAiKeys))];
	if (typeof raw !== 'string' || !raw.startsWith('=')) return [];
	try {
		return [...new Set(extractFromAICalls(raw).map((call) => call.key))].filter((key) => key !== '');
	} catch {
		// A malformed call: n8n refuses such a tool before the node runs, so it fills no field.
		return [];
	}
}

function valueAt(parameters: INodeParameters, path: Array<string | number>): unknown {
	let current: unknown = parameters;
	for (const key of path) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string | number, unknown>)[key];
	}
	return current;
}

const quote = (key: string): string => `"${key}"`;

/**
 * One problem, naming what the model can act on: the argument that filled the field (from the
 * `$fromAI()` calls in its raw value, found by the problem's parameter path), or, for a field
 * the workflow fixes, that the model cannot change it.
 */
export function nameProblem(problem: Problem, parameters: INodeParameters): string {
	const rule = `${problem.rule}${problem.value === undefined ? '' : ` — got ${problem.value}`}`;
	const keys = fromAiKeys(valueAt(parameters, problem.path));
	if (keys.length === 1) return `argument ${quote(keys[0])} ${rule}`;
	if (keys.length > 1) return `arguments ${keys.map(quote).join(', ')} (${problem.field}) ${rule}`;
	return `the workflow's fixed setting "${problem.field}" (not one of your arguments) ${rule}`;
}

/**
 * What happened to the message:
 * - `refused`: the node refused the arguments; nothing was sent.
 * - `rejected`: the service answered with a refusal (HTTP 4xx); nothing was delivered.
 * - `unreached`: no connection to the service could be made; nothing was sent.
 * - `unknown`: no clear answer (timeout, network failure, HTTP 5xx, an answer other than
 *   "success"); the message may have been delivered.
 */
type ToolOutcome = 'refused' | 'rejected' | 'unreached' | 'unknown';

const OUTCOMES: Record<Delivery, ToolOutcome> = {
	notSent: 'refused',
	rejected: 'rejected',
	unreached: 'unreached',
	maybe: 'unknown',
};

const HEADLINES: Record<ToolOutcome, (count: number) => string> = {
	refused: (count) =>
		`Nothing was sent: ${count === 1 ? 'one argument breaks a rule' : `${count} problems with the arguments`}. Fix every problem listed, then call the tool again.`,
	rejected: () =>
		'Nothing was delivered: the notification service refused the message. Read the problem, fix the arguments if they caused it, and call again only then.',
	unreached: () =>
		'Nothing was sent: the notification service could not be reached. The arguments are not the problem; tell the user, and call again only later.',
	unknown: () =>
		'The notification service did not confirm the send, so the message may or may not have been delivered. Do not call the tool again for this message; tell the user.',
};

/** A refusal that breaks no rule of the arguments: an expression or the credential failed. */
const SETUP_FAILED =
	'Nothing was sent: the workflow’s own setup (an expression in a field, or the credential) failed for this call, not a rule of the arguments. Tell the user; calling again will most likely fail the same way.';

/**
 * The tool result for a send that did not succeed: what the model reads instead of a thrown
 * error (which would end the whole agent run). No top-level `error` key: n8n's engine treats an
 * output whose first item has one as a failed node and, with "Retry On Fail", runs it again,
 * which for an unconfirmed send could deliver the message twice.
 */
export function toolErrorResult(problems: string[], outcome: ToolOutcome = 'refused', headline?: string): IDataObject {
	const listed = problems.length > 0 ? problems : ['the input was refused'];
	return {
		sent: outcome === 'unknown' ? 'unknown' : false,
		outcome,
		message: headline ?? HEADLINES[outcome](listed.length),
		problems: listed,
	};
}

/**
 * The tool result for an error of one item, from the facts the error carries: its problems
 * (each naming the model's argument) and what became of the message.
 *
 * @param parameters the node's raw parameters (`this.getNode().parameters`)
 */
export function toolResultForError(
	error: { message: string; description?: string | null },
	parameters: INodeParameters,
): IDataObject {
	const problems = problemsOf(error);
	if (problems.length > 0) return toolErrorResult(problems.map((problem) => nameProblem(problem, parameters)));
	const detail = error.description?.trim();
	const outcome = OUTCOMES[deliveryOf(error)];
	return toolErrorResult(detail ? [error.message, detail] : [error.message], outcome, outcome === 'refused' ? SETUP_FAILED : undefined);
}
