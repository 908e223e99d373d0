import type { IExecuteFunctions } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';
import { judge } from '../helpers/validation';
import { LINK_PLACEHOLDER_LABELS, linkPlaceholderSchema } from '../schemas/linkPlaceholder.schema';

/**
 * The answer link and where it goes. The link is n8n's own resume URL for this execution and
 * node (its waiting webhook, /webhook-waiting/<execution>/<node id>): signed where the running
 * n8n signs them, so it can be neither guessed nor altered. Feature-checked: an n8n without the
 * signing helper gets the plain resume URL, and one without either is told so.
 */
export function answerLink(context: IExecuteFunctions): string {
	if (typeof context.getSignedResumeUrl === 'function') return context.getSignedResumeUrl();
	const resumeUrl = context.evaluateExpression('{{ $execution.resumeUrl }}', 0);
	if (typeof resumeUrl !== 'string' || resumeUrl === '') {
		throw new Error('This n8n gives no resume URL, so Send and Wait for Response cannot work here');
	}
	return `${resumeUrl}/${context.getNode().id}`;
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The SMS text with the link on its own line; a blank text stays blank so the schema names it. */
export function withSmsLink(text: unknown, link: string): unknown {
	return typeof text === 'string' && !isBlank(text) ? `${text}\n${link}` : text;
}

/**
 * Puts the link into body placeholder {{position}} of a template candidate (actions/read/template.ts): into the
 * {{1}}, {{2}}… inputs when they are used, else into Body Parameters; or the problems of Link Goes
 * Into (linkPlaceholder.schema.ts), the candidate unchanged.
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
