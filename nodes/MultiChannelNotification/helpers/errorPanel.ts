import type { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * n8n's error panel renders an error's description as HTML (sanitised, `<br>` allowed), so the
 * line breaks of a plain-text description collapse: "… but 3 were given Nothing was sent for
 * this item". The panel prefers `context.descriptionTemplate` when present, so the same text
 * goes there with its line breaks as `<br>`; `description` stays plain text for every other
 * reader (the CLI, error workflows, continue-on-fail items, an AI agent's tool result).
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '%': '&#37;' };

export function descriptionAsPanelHtml(description: string): string {
	// `%` too: the panel replaces %%PARAMETER%% in a template.
	return description
		.replace(/[&<>%]/g, (character) => ESCAPES[character])
		.split('\n')
		.join('<br>');
}

/** The error, laid out for n8n's panel; call it last, once the description is final. */
export function forErrorPanel<T extends NodeApiError | NodeOperationError>(error: T): T {
	if (typeof error.description === 'string' && error.description.includes('\n')) {
		error.context.descriptionTemplate = descriptionAsPanelHtml(error.description);
	}
	return error;
}
