/**
 * Reading the optional Template Content: placeholders are written {{1}}, {{2}}, … (spec:
 * "Content"). The rules about their numbering and count are in schemas/template.schema.ts.
 */

const PLACEHOLDER = /\{\{(\d+)\}\}/g;

/** The distinct placeholder numbers the content uses, ascending. */
export function placeholderNumbers(content: string): number[] {
	const numbers = new Set<number>();
	for (const match of content.matchAll(PLACEHOLDER)) numbers.add(Number(match[1]));
	return [...numbers].sort((a, b) => a - b);
}

/** The content with every placeholder filled in: what the recipient reads. */
export function fillPlaceholders(content: string, values: readonly string[]): string {
	return content.replace(PLACEHOLDER, (placeholder, number: string) => values[Number(number) - 1] ?? placeholder);
}
