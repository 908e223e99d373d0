import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { escapeHtml } from './html';

/**
 * The one place that builds the errors this node throws: input, credential, service, network
 * and boundary (redirect, oversized or slow answer). Each has a short title (at most
 * {@link MAX_TITLE} characters, bold in n8n's error panel), the detail in `description`, the item
 * index, and facts the node acts on, set here and never read back from text. Callers pass text
 * that holds no secret: the transport scrubs the API key before anything reaches here.
 */

const MAX_TITLE = 80;
export const NOTHING_SENT = 'Nothing was sent for this item.';
export const MAY_HAVE_BEEN_DELIVERED = 'The message may or may not have been delivered: check before sending it again.';
/** Said, with {@link NOTHING_SENT}, of a send that failed before any connection was made. */
export const NO_CONNECTION = 'No connection was made.';

/**
 * What became of an item's message; tool results, Retry On Fail and the run's summary act on it.
 * - `notSent`: refused before sending (input, credential, expression): nothing left the machine.
 * - `unreached`: no connection to the service could be made: nothing was sent.
 * - `rejected`: the service answered with a refusal (HTTP 4xx, 429 included): nothing delivered.
 * - `maybe`: no clear answer (timeout, dropped connection, 5xx, redirect, not "success"): the
 *   message may have gone out, so it is never sent again by the node.
 */
export type Delivery = 'notSent' | 'unreached' | 'rejected' | 'maybe';

/** One broken rule of one item, as the user sees it. */
export interface Problem {
	/** The field as labelled in the editor, e.g. "To" or "Quick Reply Buttons → Button 2 → Payload". */
	field: string;
	/** The top-level field's label ("Quick Reply Buttons"), when it differs from `field`. */
	label?: string;
	/** Where the value sits in the node's parameters (["quickReplyButtons", "button", 1, "payload"]). */
	path: Array<string | number>;
	/** The rule, phrased to follow the label: "must be in full international form like +6281234567890 …". */
	rule: string;
	/** The offending value, already shortened for display; absent when showing it would not help. */
	value?: string;
}

/*
 * The two classes below carry their facts as read-only, non-enumerable properties: n8n stores a
 * failed run's error as `{ ...error }`, so the facts stay out of what it stores. n8n's
 * constructors set `name` from `this.constructor.name`, and its engine and telemetry test it
 * (`error.name === 'NodeApiError'`): each sets `name` back, so to n8n they are its own classes.
 */

/** An item refused before sending, with the problems it was refused for. */
class InputError extends NodeOperationError {
	declare readonly problems: Problem[];

	constructor(node: INode, message: string, options: ConstructorParameters<typeof NodeOperationError>[2], problems: Problem[]) {
		super(node, message, options);
		this.name = 'NodeOperationError';
		Object.defineProperty(this, 'problems', { value: problems });
	}
}

/** A failure on the wire or on the service's side, with what became of the message. */
class ServiceError extends NodeApiError {
	declare readonly delivery: Exclude<Delivery, 'notSent'>;

	constructor(node: INode, response: JsonObject, options: ConstructorParameters<typeof NodeApiError>[2], delivery: Exclude<Delivery, 'notSent'>) {
		super(node, response, options);
		this.name = 'NodeApiError';
		Object.defineProperty(this, 'delivery', { value: delivery });
	}
}

/** What became of the message: a service error says; anything else was raised before sending. */
export function deliveryOf(error: unknown): Delivery {
	return error instanceof ServiceError ? error.delivery : 'notSent';
}

/** The problems an input error was built from (empty for any other error). */
export function problemsOf(error: unknown): Problem[] {
	return error instanceof InputError ? error.problems : [];
}

export function shorten(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const formatProblem = ({ field, rule, value }: Problem) => (value === undefined ? `${field} ${rule}` : `${field} ${rule} — got ${value}`);

/**
 * A title that fits: cut at a word, and before an aside in brackets that would be left open
 * ("… +62 (SMS can on…" reads as a broken sentence; "… +62…" does not).
 */
export function titleText(text: string, max = MAX_TITLE): string {
	if (text.length <= max) return text;
	let cut = text.slice(0, max - 1);
	const open = cut.lastIndexOf('(');
	if (open > max / 2 && cut.indexOf(')', open) === -1) cut = cut.slice(0, open);
	const space = cut.lastIndexOf(' ');
	// A cut that ends a word (the next character is a space) keeps that word.
	if (space > max / 2 && !/\s$/.test(cut) && !/^\s/.test(text.slice(max - 1))) cut = cut.slice(0, space);
	return `${cut.replace(/[\s,:;—–-]+$/, '')}…`;
}

/**
 * An item the node refused before sending. The title names the first problem (or how many
 * fields are wrong); the description lists every problem, so one run shows all there is to fix.
 */
export function inputError(node: INode, itemIndex: number, problems: Problem[]): InputError {
	const lines = problems.map(formatProblem);
	// The fields as the panel's top level names them; the description has the full paths.
	const fields = [...new Set(problems.map((problem) => problem.label ?? problem.field))];
	const headline = problems.length === 1 ? lines[0] : `${problems.length} problems (${fields.join(', ')})`;
	return new InputError(
		node,
		titleText(`Item ${itemIndex}: ${headline}`),
		{ itemIndex, description: [...lines.map((line) => `• ${line}`), NOTHING_SENT].join('\n') },
		problems,
	);
}

/** The credential cannot be used as it is; nothing left the machine. */
export function credentialError(node: INode, problem: string, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(node, shorten(`Credential problem: ${problem}`, MAX_TITLE), {
		...(itemIndex === undefined ? {} : { itemIndex }),
		description: `${problem}. Nothing was sent. Fix the Multi-Channel Notification API credential and run again.`,
	});
}

interface ServiceErrorDetails {
	itemIndex: number;
	/** Short headline, e.g. "The service answered HTTP 400". */
	title: string;
	/** What happened and what to do. */
	description: string;
	httpCode?: number;
	/** The service's own `message` (scrubbed) or the network cause, kept as the error's cause. */
	cause: string;
	/** Extra fields for the error's cause object (e.g. retryAfter, systemCode). */
	extra?: Record<string, string>;
	delivery: Exclude<Delivery, 'notSent'>;
}

/** A failure on the wire or on the service's side: a NodeApiError, n8n's class for API failures. */
export function serviceError(node: INode, details: ServiceErrorDetails): ServiceError {
	const httpCode = details.httpCode === undefined ? {} : { httpCode: String(details.httpCode) };
	return new ServiceError(
		node,
		{ message: details.cause, ...httpCode, ...details.extra } as JsonObject,
		{ itemIndex: details.itemIndex, ...httpCode, message: shorten(details.title, MAX_TITLE), description: details.description },
		details.delivery,
	);
}

/**
 * An item never sent: the service's pause after an HTTP 429 (to any request of its credential and
 * Base URL, in any execution) would hold it past Rate Limit Max Wait. The caller adds how long.
 * The service's refusal, as an item refused on its own 429: nothing delivered, no answer of its own.
 */
export function pausedError(node: INode, itemIndex: number): ServiceError {
	return serviceError(node, {
		itemIndex,
		title: `Item ${itemIndex}: not sent: the service's rate limit pauses every send`,
		description:
			'The service refused another request with HTTP 429 (same credential and Base URL, in this execution or another), and every send to it waits for the Retry-After the service gave.',
		cause: "the service's rate limit pauses every send",
		delivery: 'rejected',
	});
}

/** Any other failure, e.g. an expression that could not be resolved for an item. */
export function otherError(node: INode, error: unknown, itemIndex?: number): NodeOperationError {
	const text = error instanceof Error ? error.message : String(error);
	const title = itemIndex === undefined ? text : `Item ${itemIndex}: ${text}`;
	const detail = (error as { description?: unknown } | null)?.description;
	// A title cut short (the item prefix counts) keeps the whole text in the description.
	const description = [title.length > MAX_TITLE ? text : undefined, typeof detail === 'string' ? detail : undefined]
		.filter((part) => part !== undefined)
		.join('\n');
	return new NodeOperationError(node, error instanceof Error ? error : text, {
		...(itemIndex === undefined ? {} : { itemIndex }),
		message: shorten(title, MAX_TITLE),
		...(description ? { description } : {}),
	});
}

/** The error as n8n reports node errors: one of ours as it is, anything else wrapped. */
export function asNodeError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return otherError(node, error, itemIndex);
}

/**
 * n8n's error panel renders a description as sanitised HTML, so plain line breaks collapse
 * ("… but 3 were given Nothing was sent"). It prefers `context.descriptionTemplate`, which gets
 * the same text with `<br>` (and `%` escaped: the panel fills %%PARAMETER%% in a template);
 * `description` stays plain text for every other reader (CLI, error workflows, tool results).
 */
export function descriptionAsPanelHtml(description: string): string {
	return escapeHtml(description).replace(/%/g, '&#37;').split('\n').join('<br>');
}

/** The error, laid out for n8n's panel; call it last, once the description is final. */
export function forErrorPanel<T extends NodeApiError | NodeOperationError>(error: T): T {
	if (typeof error.description === 'string' && error.description.includes('\n')) {
		error.context.descriptionTemplate = descriptionAsPanelHtml(error.description);
	}
	return error;
}
