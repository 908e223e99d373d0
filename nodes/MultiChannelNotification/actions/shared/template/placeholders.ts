import type { IExecuteFunctions } from 'n8n-workflow';

import { asText } from '../../../helpers/parameters';
import { placeholderNumbers } from '../../../helpers/templateContent';
import { PLACEHOLDER_INPUTS, placeholderInputName } from './placeholderInputs';

/**
 * Reading Placeholder Values (one input per placeholder of Template Content) and whether
 * Template Content is an expression. Values come from n8n's engine; nothing here evaluates
 * anything.
 */

/**
 * The values for {{1}} … {{N}} in order, N being the highest placeholder of the text (at most
 * the inputs there are), or [] when every one is empty: the inputs are then unused and Body
 * Parameters may carry the values.
 */
export function readPlaceholderValues(context: IExecuteFunctions, itemIndex: number, content: unknown): unknown[] {
	if (typeof content !== 'string') return [];
	const numbers = placeholderNumbers(content).filter((number) => number >= 1);
	const highest = Math.min(numbers.length === 0 ? 0 : numbers[numbers.length - 1], PLACEHOLDER_INPUTS);
	const read = Array.from({ length: highest }, (_unused, at) =>
		asText(context.getNodeParameter(placeholderInputName(at + 1), itemIndex, '')),
	);
	return read.every((value) => value === undefined || value === null || value === '') ? [] : read;
}

/**
 * Whether Template Content holds template placeholders ({{1}}, {{2}}, …) as written but is set to
 * Expression. n8n's editor switches a field to Expression when text holding {{ }} is pasted or
 * typed into it while empty; n8n then evaluates {{1}} to 1, so the text the node gets has lost
 * its placeholders and a send would go out without its values. The raw value is n8n's own
 * (`rawExpressions`; a leading "=" is how n8n marks an expression), read for the template's own
 * {{n}} notation exactly as a Fixed Template Content is: nothing is evaluated here.
 */
export function templateTextTurnedIntoExpression(context: IExecuteFunctions, itemIndex: number): boolean {
	const raw = context.getNodeParameter('templateContent', itemIndex, '', { rawExpressions: true });
	return typeof raw === 'string' && raw.startsWith('=') && placeholderNumbers(raw.slice(1)).length > 0;
}
