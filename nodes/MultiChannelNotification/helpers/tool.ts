import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { NO_CONNECTION, saysMayHaveBeenDelivered } from './errors';

/**
 * The node as an AI agent's tool.
 *
 * n8n gives every `usableAsTool` node a tool variant (type `<package>.<name>Tool`). The model
 * sees the tool's description and an argument schema built from the `$fromAI()` calls in the
 * parameters; what the tool returns (the `json` of its output items) is what the model reads
 * next. This module holds what the model must be told (one description per operation, shown
 * only in the tool variant), how the node knows it runs as a tool, and the tool result for a
 * refused input or a failed send: every problem listed, in plain words, naming the argument the
 * model filled rather than the editor's label.
 */

export type ToolOperationKey =
	| 'chatMessage.sendTemplate'
	| 'chatMessage.sendMedia'
	| 'sms.send'
	| 'combined.sendWithFailover';

const PHONE_RULE = 'in E.164 format: leading +, country code, number, no spaces (e.g. +6281234567890)';

const TEMPLATE_RULES = [
	'Template name: the exact name of an approved template. Language code: the template’s language ("id" unless told otherwise).',
	'Components: the body is always required; its parameters fill the placeholders {{1}}, {{2}}, … in order, one text per placeholder, no more, no fewer.',
	'Optional: a header image (https link); at most 3 quick reply buttons at index 0, 1 or 2, each index once, each with a payload text; a URL button with its index (default 0) and the text for the placeholder in its URL.',
].join(' ');

const OUTCOME_RULES =
	'One call sends one real message: never repeat a call that succeeded. If the result has sent: false, nothing was sent and "problems" names every argument to fix: fix all, then call again. If sent is "unknown", do not call again: tell the user.';

/**
 * What the model is told about each operation: what one call does and the rules its arguments
 * must follow. Each text stays under 1024 characters, the shortest limit among model providers.
 */
export const TOOL_DESCRIPTIONS: Readonly<Record<ToolOperationKey, string>> = {
	'sms.send': [
		'Sends one SMS through the Multi-Channel Notification Service.',
		`Phone number: the recipient ${PHONE_RULE}. SMS only goes to Indonesian numbers (+62); any other country is refused.`,
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
		'SMS part: the phone number, also E.164 with leading +, Indonesian (+62) only, and the SMS text.',
		OUTCOME_RULES,
	].join(' '),
};

/** The tool description for an operation, or undefined for an unknown one. */
export function toolDescriptionFor(resource: string, operation: string): string | undefined {
	return (TOOL_DESCRIPTIONS as Record<string, string>)[`${resource}.${operation}`];
}

/**
 * The "Tool Description" field of the tool variant, one per operation, prefilled with that
 * operation's rules. `@tool` shows it only in the tool variant (n8n-workflow's displayParameter,
 * 1.x and 2.x). A node that declares `toolDescription` itself gets neither n8n's own
 * "Description" field nor its "Set Automatically" mode, whose text would be the operation's
 * action ("Send an SMS in Multi-Channel Notification"), so the model reads this text instead.
 */
export const toolDescriptionProperties: INodeProperties[] = (
	Object.entries(TOOL_DESCRIPTIONS) as Array<[ToolOperationKey, string]>
).map(([key, text]) => {
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

/** The part of n8n's execute context `isToolRun` looks at. */
export interface ToolRunContext {
	getNode(): { type: string };
	/** n8n 1.x/2.x: true in a SupplyDataContext serving an `ai_tool` connection. */
	isToolExecution?: () => boolean;
}

/**
 * True when the node runs as an AI agent's tool. The AI Agent (v3, n8n 1.1xx and 2.x) asks the
 * engine to run the tool node itself: an ordinary execute context whose `isToolExecution()` is
 * false, but whose node is the tool variant, type `…Tool`. Older agents and other tool users
 * call the node from a supply-data context, where `isToolExecution()` is true.
 */
export function isToolRun(context: ToolRunContext): boolean {
	try {
		if (context.isToolExecution?.() === true) return true;
	} catch {
		// A context without the method implemented: fall back to the node type.
	}
	const type = context.getNode().type ?? '';
	const name = type.slice(type.lastIndexOf('.') + 1);
	return name.endsWith('Tool');
}

const FROM_AI_CALL = /\$from(?:AI|Ai|ai)\s*\(\s*(?:(['"`])((?:\\.|(?!\1)[^\\])*)\1)?/g;

/**
 * The keys of every `$fromAI('key', …)` call in a raw parameter value (an expression string, or
 * any object or list holding them, e.g. a fixedCollection), in order, each once.
 */
export function fromAiKeys(raw: unknown): string[] {
	const keys: string[] = [];
	const visit = (value: unknown): void => {
		if (typeof value === 'string') {
			if (!value.startsWith('=')) return;
			for (const match of value.matchAll(FROM_AI_CALL)) {
				const key = match[2]?.replace(/\\(.)/g, '$1');
				if (key && !keys.includes(key)) keys.push(key);
			}
		} else if (Array.isArray(value)) {
			value.forEach(visit);
		} else if (value !== null && typeof value === 'object') {
			Object.values(value).forEach(visit);
		}
	};
	visit(raw);
	return keys;
}

/** The key of the `$fromAI()` call in a raw parameter value, when there is exactly one. */
export function fromAiKey(raw: unknown): string | undefined {
	const keys = fromAiKeys(raw);
	return keys.length === 1 ? keys[0] : undefined;
}

/** Something shaped like n8n's NodeOperationError / NodeApiError. */
export interface ErrorLike {
	message: string;
	description?: string | null;
	httpCode?: string | null;
}

const ITEM_PREFIX = /^Item \d+: /;

/**
 * The problems an error reports, each as one line: the node's validation errors name the first
 * problem in `message` ("Item 0: To must be …") and list all of them in `description`
 * ("• To must be …", "• Message is required", "Nothing was sent for this item.").
 */
export function problemTexts(error: ErrorLike): string[] {
	const bullets = (error.description ?? '')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line.startsWith('• '))
		.map((line) => line.slice(2).trim());
	if (bullets.length > 0) return bullets;
	return [error.message.replace(ITEM_PREFIX, '').trim()];
}

interface LabelledField {
	label: string;
	path: string[];
	property: INodeProperties;
}

/** Top-level fields and the entries of a plain collection (the Options), by label. */
function labelledFields(properties: INodeProperties[]): LabelledField[] {
	const fields: LabelledField[] = [];
	for (const property of properties) {
		if (property.type === 'notice' || property.name === 'toolDescription') continue;
		fields.push({ label: property.displayName, path: [property.name], property });
		if (property.type === 'collection') {
			for (const option of (property.options ?? []) as INodeProperties[]) {
				if ('displayName' in option && 'name' in option && 'type' in option) {
					fields.push({ label: option.displayName, path: [property.name, option.name], property: option });
				}
			}
		}
	}
	// Longest first, so "SMS Phone Number" wins over a shorter label it starts with.
	return fields.sort((a, b) => b.label.length - a.label.length);
}

const LABEL_ENDS = [' ', ':', ','];

function startsWithLabel(text: string, label: string): boolean {
	return text === label || (text.startsWith(label) && LABEL_ENDS.includes(text.charAt(label.length)));
}

interface CollectionGroup {
	displayName: string;
	name: string;
	values: INodeProperties[];
}

/**
 * Follows " → Button 2 → Payload" after a fixedCollection's label into its raw value. Returns
 * the raw value reached, the label consumed and the rest of the text.
 */
function followSegments(
	field: LabelledField,
	raw: unknown,
	text: string,
): { raw: unknown; label: string; rest: string } {
	let label = field.label;
	let rest = text.slice(field.label.length);
	let groups: CollectionGroup[] = field.property.type === 'fixedCollection' ? ((field.property.options ?? []) as CollectionGroup[]) : [];
	let values: INodeProperties[] = [];
	let current = raw;
	for (;;) {
		if (!rest.startsWith(' → ')) break;
		const segment = rest.slice(3);
		const numbered = groups
			.map((candidate) => ({ group: candidate, match: new RegExp(`^${escape(candidate.displayName)} (\\d+)`).exec(segment) }))
			.find((candidate) => candidate.match !== null);
		if (numbered?.match) {
			const { group } = numbered;
			const number = Number(numbered.match[1]);
			const entries = (current as Record<string, unknown> | undefined)?.[group.name];
			const list = Array.isArray(entries) ? entries : entries === undefined ? [] : [entries];
			const consumed = `${group.displayName} ${number}`;
			label += ` → ${consumed}`;
			rest = rest.slice(3 + consumed.length);
			current = list[number - 1];
			values = group.values;
			groups = [];
			continue;
		}
		// A value of the entry reached, or of a single-entry group's only entry ("URL Button → URL Parameter").
		const only = values.length === 0 && groups.length === 1 ? groups[0] : undefined;
		const entry = only ? (current as Record<string, unknown> | undefined)?.[only.name] : current;
		const container = Array.isArray(entry) ? entry[0] : entry;
		const value = (only ? only.values : values).find((candidate) => startsWithLabel(segment, candidate.displayName));
		if (value) {
			label += ` → ${value.displayName}`;
			rest = rest.slice(3 + value.displayName.length);
			current = (container as Record<string, unknown> | undefined)?.[value.name];
			values = [];
			groups = [];
			continue;
		}
		break;
	}
	return { raw: current, label, rest };
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function valueAt(parameters: INodeParameters, path: string[]): unknown {
	let current: unknown = parameters;
	for (const key of path) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string, unknown>)[key];
	}
	return current;
}

const quote = (key: string): string => `"${key}"`;

/**
 * Rewrites one problem so it names what the model can act on. The editor's label at the start
 * ("To", "Body Parameters → Parameter 2", "Components (JSON) at [0]…") becomes the argument the
 * model filled, found from the `$fromAI('key', …)` call in the field's raw value:
 * `argument "to" must be …`. A field the workflow fixes (no `$fromAI`) is said to be so, since the
 * model cannot change it. A problem that names no field is returned as it is.
 *
 * @param properties the operation's fields (the node description's properties for it)
 * @param parameters the node's raw parameters (`this.getNode().parameters`), expressions unresolved
 */
export function nameArgument(text: string, properties: INodeProperties[], parameters: INodeParameters): string {
	const field = labelledFields(properties).find((candidate) => startsWithLabel(text, candidate.label));
	return field ? describeField(field, parameters, text) : text;
}

function describeField(field: LabelledField, parameters: INodeParameters, text: string): string {
	const { raw, label, rest } = followSegments(field, valueAt(parameters, field.path), text);
	const keys = fromAiKeys(raw);
	if (keys.length === 1) return `argument ${quote(keys[0])}${rest}`;
	if (keys.length > 1) return `arguments ${keys.map(quote).join(', ')} (${label})${rest}`;
	return `the workflow's fixed setting "${label}" (not one of your arguments)${rest}`;
}

/** One broken rule as the node's input errors carry it (helpers/errors.ts `Problem`). */
export interface ProblemLike {
	/** The field as labelled in the editor, possibly with " → Parameter 2" or " at [0].text". */
	field: string;
	/** The node parameter behind the field, dotted for the Options ("options.timeout"). */
	parameter?: string;
	rule: string;
	value?: string;
}

/** A structured problem, named for the model: the parameter (when given) picks the field. */
export function nameProblem(problem: ProblemLike, properties: INodeProperties[], parameters: INodeParameters): string {
	const text = `${problem.field} ${problem.rule}${problem.value === undefined ? '' : ` — got ${problem.value}`}`;
	if (problem.parameter) {
		const path = problem.parameter.split('.');
		const field = labelledFields(properties).find((candidate) => candidate.path.join('.') === path.join('.'));
		if (field) {
			// The problem may label the field in its own words ("Timeout" for "Timeout (ms)").
			return describeField(startsWithLabel(text, field.label) ? field : { ...field, label: problem.field }, parameters, text);
		}
		// A parameter the properties do not list: named from its raw value alone.
		const keys = fromAiKeys(valueAt(parameters, path));
		if (keys.length === 1) return `argument ${quote(keys[0])}${text.slice(problem.field.length)}`;
	}
	return nameArgument(text, properties, parameters);
}

/** The structured problems an error carries, if any (helpers/errors.ts `inputError`). */
function structuredProblems(error: unknown): ProblemLike[] {
	const problems = (error as { problems?: unknown } | null)?.problems;
	if (!Array.isArray(problems)) return [];
	return problems.filter(
		(problem): problem is ProblemLike =>
			typeof problem === 'object' && problem !== null && typeof problem.field === 'string' && typeof problem.rule === 'string',
	);
}

/** Every problem of an error, each naming the argument it is about. */
export function argumentProblems(
	error: ErrorLike,
	properties: INodeProperties[],
	parameters: INodeParameters,
): string[] {
	const structured = structuredProblems(error);
	if (structured.length > 0) return structured.map((problem) => nameProblem(problem, properties, parameters));
	return problemTexts(error).map((text) => nameArgument(text, properties, parameters));
}

/**
 * What happened to the message:
 * - `refused`: the node refused the arguments; nothing was sent.
 * - `rejected`: the service answered with a refusal (HTTP 4xx); nothing was delivered.
 * - `unreached`: no connection to the service could be made; nothing was sent.
 * - `unknown`: no clear answer (timeout, network failure, HTTP 5xx, an answer other than
 *   "success"); the message may have been delivered.
 */
export type ToolOutcome = 'refused' | 'rejected' | 'unreached' | 'unknown';

/** The outcome of a failed send, from the error the transport threw. */
export function sendFailureOutcome(error: ErrorLike): Exclude<ToolOutcome, 'refused'> {
	const status = Number(error.httpCode);
	if (Number.isInteger(status) && status >= 400 && status < 500) return 'rejected';
	return (error.description ?? '').includes(NO_CONNECTION) ? 'unreached' : 'unknown';
}

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

/**
 * The tool result for a send that did not succeed: what the model reads instead of a thrown
 * error (which would end the whole agent run). No top-level `error` key: n8n's engine treats an
 * output whose first item has one as a failed node and, with "Retry On Fail", runs it again,
 * which for an unconfirmed send could deliver the message twice.
 */
export function toolErrorResult(problems: string[], outcome: ToolOutcome = 'refused'): IDataObject {
	const listed = problems.length > 0 ? problems : ['the input was refused'];
	return {
		sent: outcome === 'unknown' ? 'unknown' : false,
		outcome,
		message: HEADLINES[outcome](listed.length),
		problems: listed,
	};
}

/**
 * Whether an error was raised before sending (the item was refused: nothing left the machine)
 * or by the send itself. Input and credential errors say "Nothing was sent"; a NodeApiError
 * comes from the wire or the service.
 */
export function errorStage(error: ErrorLike & { name?: string }): 'validation' | 'send' {
	if (structuredProblems(error).length > 0) return 'validation';
	if (error.name === 'NodeApiError' || (error.httpCode ?? '') !== '') return 'send';
	if (/Nothing was sent\b/.test(error.description ?? '')) return 'validation';
	return saysMayHaveBeenDelivered(error.description) ? 'send' : 'validation';
}

/**
 * The tool result for an error thrown while preparing or sending an item (the stage is read
 * from the error unless given), with each problem naming the model's argument.
 *
 * @param properties the operation's fields (the node description's properties for it)
 * @param parameters the node's raw parameters (`this.getNode().parameters`)
 */
export function toolResultForError(
	error: ErrorLike & { name?: string },
	properties: INodeProperties[],
	parameters: INodeParameters,
	stage: 'validation' | 'send' = errorStage(error),
): IDataObject {
	if (stage === 'validation') return toolErrorResult(argumentProblems(error, properties, parameters), 'refused');
	const problems = [error.message.replace(ITEM_PREFIX, '').trim()];
	const detail = error.description?.trim();
	if (detail) problems.push(detail);
	return toolErrorResult(problems, sendFailureOutcome(error));
}
