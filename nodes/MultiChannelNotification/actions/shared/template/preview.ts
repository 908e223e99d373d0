import { fillPlaceholders } from '../../../helpers/templateContent';
import type { TemplateMessage } from '../../../schemas';

/** What the recipient reads: the Template Content with the sent body parameters filled in. */
export function templatePreview(content: unknown, message: TemplateMessage): string | undefined {
	if (typeof content !== 'string') return undefined;
	const body = message.template.components.find((component) => component.type === 'body');
	const values = body?.type === 'body' ? body.parameters.map((parameter) => parameter.text) : [];
	return fillPlaceholders(content, values);
}
