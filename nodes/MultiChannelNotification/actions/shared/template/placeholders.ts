import type { IExecuteFunctions } from 'n8n-workflow';

import { placeholderFieldId } from '../../../methods/placeholderMapping';

/**
 * Reading Placeholder Values (n8n's resource mapper: one input per placeholder of Template
 * Content) and whether Template Content is an expression. Values come from n8n's engine;
 * nothing here evaluates anything.
 */

interface MapperValue {
	value?: Record<string, unknown> | null;
	schema?: Array<{ id?: unknown; removed?: unknown }>;
}

/** The values for {{1}} … {{N}} in order (a missing one is undefined, reported as required), or [] when unused. */
export function readPlaceholderValues(context: IExecuteFunctions, itemIndex: number): unknown[] {
	const mapper = context.getNodeParameter('placeholderValues', itemIndex, null) as MapperValue | null;
	const values = mapper?.value;
	if (values === null || values === undefined || typeof values !== 'object') return [];
	// Only the placeholders of the current text: a value kept for one the text no longer has is dropped.
	const current = (mapper?.schema ?? []).filter((field) => field.removed !== true).map((field) => String(field.id));
	const ids = current.length > 0 ? current : Object.keys(values);
	const numbers = ids.map(Number).filter((number) => Number.isInteger(number) && number >= 1);
	if (numbers.length === 0) return [];
	const highest = Math.max(...numbers);
	const read = Array.from({ length: highest }, (_unused, at) => {
		const value = values[placeholderFieldId(at + 1)];
		if (value === null || value === undefined) return undefined;
		return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
	});
	// All empty: the inputs are unused (Body Parameters may carry the values instead).
	return read.every((value) => value === undefined || value === '') ? [] : read;
}

/**
 * Whether Template Content is set to Expression. n8n's editor switches a field to Expression
 * when text holding {{ }} is pasted or typed into it while empty, and its {{1}} then evaluate to
 * 1: the send's check then tells the user to switch the field back to Fixed. The raw value is
 * n8n's own (`rawExpressions`); a leading "=" is how n8n marks an expression.
 */
export function templateContentIsExpression(context: IExecuteFunctions, itemIndex: number): boolean {
	const raw = context.getNodeParameter('templateContent', itemIndex, '', { rawExpressions: true });
	return typeof raw === 'string' && raw.startsWith('=');
}
