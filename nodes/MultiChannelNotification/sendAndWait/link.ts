import type { IExecuteFunctions } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';

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
 * Puts the link into body placeholder {{position}} of a template candidate (read.ts): into the
 * {{1}}, {{2}}… inputs when they are used, else into Body Parameters. That placeholder must be
 * left empty, and every one before it given; the components as JSON cannot take it.
 */
export function withTemplateLink(candidate: Record<string, unknown>, position: number, link: string): Problem[] {
	const field = 'Link Goes Into';
	const path = ['linkPlaceholder'];
	if (candidate.componentsJson !== undefined) {
		return [{ field, path, rule: 'needs the body given as fields: switch Components to fields, the link cannot go into JSON' }];
	}
	if (!Number.isInteger(position) || position < 1) {
		return [{ field, path, rule: 'must be a placeholder number, 1 or more', value: JSON.stringify(position) }];
	}
	const inputs = Array.isArray(candidate.placeholderValues) && candidate.placeholderValues.length > 0;
	const key = inputs ? 'placeholderValues' : 'bodyParameters';
	const values = [...((candidate[key] as unknown[] | undefined) ?? [])];
	const at = position - 1;
	if (at < values.length && !isBlank(values[at])) {
		return [{ field, path, rule: `is {{${position}}}, which already has a value: leave it empty, the answer link goes there`, value: String(values[at]) }];
	}
	if (at > values.length) {
		return [{ field, path, rule: `is {{${position}}}, but only ${values.length} placeholder value(s) come before it: give {{1}} … {{${position - 1}}} a value first` }];
	}
	values[at] = link;
	candidate[key] = values;
	return [];
}
