import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { extractFromAICalls } from 'n8n-workflow';

import type { Delivery, Problem } from '../helpers/errors';
import { deliveryOf, problemsOf } from '../helpers/errors';

/**
 * The node as an AI agent's tool. n8n gives every `usableAsTool` node a tool variant (type
 * `<package>.<name>Tool`): the model sees its description and the arguments of the `$fromAI()`
 * calls in the parameters, and reads the `json` of its output items. Here: what the model is told
 * per operation, how the node knows it runs as a tool, and the result of a refused input or a
 * failed send, every problem named by the argument the model filled.
 */

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
