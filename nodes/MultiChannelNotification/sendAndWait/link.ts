import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { randomString } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';
import { inputError } from '../helpers/errors';
import { judge } from '../helpers/validation';
import { LINK_PLACEHOLDER_LABELS, linkPlaceholderSchema } from '../schemas/linkPlaceholder.schema';
import { QUESTION_PARAMETER } from './constants';

/**
 * The question's own value in its link, made once per node run: the message and the stored
 * question (wait.ts) read the same one. Keyed by the input array n8n hands every try of one run
 * (as delivery/retries.ts is), so Retry On Fail sends the same message again, while a later run
 * (a loop, an agent calling its review tool again) asks with a new value.
 */
const nonces = new WeakMap<INodeExecutionData[], string>();

export function questionNonce(context: IExecuteFunctions): string {
	const input = context.getInputData();
	const nonce = nonces.get(input) ?? randomString(32);
	nonces.set(input, nonce);
	return nonce;
}

/** Options → Allow Unsigned Answer Links, refused unless on: the problem when an unsigned link would go out. */
function unsignedProblem(context: IExecuteFunctions, itemIndex: number): Problem | undefined {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (options.allowUnsignedAnswerLinks === true) return undefined;
	return {
		field: 'Allow Unsigned Answer Links',
		label: 'Options',
		path: ['options', 'allowUnsignedAnswerLinks'],
		rule:
			'is off, and this n8n cannot sign answer links: an unsigned link can be answered by anyone who knows or guesses the execution ID (they are sequential) and the node ID (every earlier message showed it). Update n8n, or turn the option on if you accept that',
	};
}

/**
 * The answer link and where it goes. The link is n8n's own resume URL for this execution and
 * node (its waiting webhook, /webhook-waiting/<execution>/<node id>) with this question's value
 * (`questionNonce`), signed where the running n8n signs them, so it can be neither guessed nor
 * altered, and the value in it cannot be changed. Feature-checked: an n8n without the signing
 * helper gets the plain resume URL only when Allow Unsigned Answer Links is on (else nothing is
 * sent), and one without either is told so.
 */
export function answerLink(context: IExecuteFunctions, itemIndex = 0): string {
	const parameters = { [QUESTION_PARAMETER]: questionNonce(context) };
	if (typeof context.getSignedResumeUrl === 'function') return context.getSignedResumeUrl(parameters);
	const refused = unsignedProblem(context, itemIndex);
	if (refused !== undefined) throw inputError(context.getNode(), itemIndex, [refused]);
	const resumeUrl = context.evaluateExpression('{{ $execution.resumeUrl }}', 0);
	if (typeof resumeUrl !== 'string' || resumeUrl === '') {
		throw new Error('This n8n gives no resume URL, so Send and Wait for Response cannot work here');
	}
	return `${resumeUrl}/${context.getNode().id}?${new URLSearchParams(parameters).toString()}`;
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The SMS text with the link on its own line; a blank text stays blank so the schema names it. */
export function withSmsLink(text: unknown, link: string): unknown {
	return typeof text === 'string' && !isBlank(text) ? `${text}\n${link}` : text;
}

/**
 * Puts the link into body placeholder {{position}} of a template candidate (as `readTemplateFields`
 * reads it): into the {{1}}, {{2}}… inputs when they are used, else into Body Parameters; or the
 * problems of Link Goes Into (linkPlaceholder.schema.ts), the candidate unchanged.
 */
export function withTemplateLink(candidate: Record<string, unknown>, position: number, link: string): Problem[] {
	const inputs = Array.isArray(candidate.placeholderValues) && candidate.placeholderValues.length > 0;
	const key = inputs ? 'placeholderValues' : 'bodyParameters';
	const values = [...((candidate[key] as unknown[] | undefined) ?? [])];
	const placement = { json: candidate.componentsJson !== undefined, position, values };
	const verdict = judge(linkPlaceholderSchema, { linkPlaceholder: placement }, LINK_PLACEHOLDER_LABELS);
	if ('problems' in verdict) return verdict.problems;
	values[position - 1] = link;
	candidate[key] = values;
	return [];
}
