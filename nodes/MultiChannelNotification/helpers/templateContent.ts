/**
 * The template content check (optional Template Content field): placeholders are written
 * {{1}}, {{2}}, … (spec: numbers start at 1, parameters are ordered by number), so the content
 * must use 1…N without gaps and the send must carry exactly N body parameters.
 */

const PLACEHOLDER = /\{\{(\d+)\}\}/g;

export type PlaceholderCheck = { count: number } | { problem: string };

export function checkPlaceholders(content: string): PlaceholderCheck {
	const numbers = new Set<number>();
	for (const match of content.matchAll(PLACEHOLDER)) numbers.add(Number(match[1]));
	if (numbers.size === 0) return { count: 0 };
	const sorted = [...numbers].sort((a, b) => a - b);
	const highest = sorted[sorted.length - 1];
	const missing: number[] = [];
	for (let number = 1; number <= highest && missing.length < 5; number++) {
		if (!numbers.has(number)) missing.push(number);
	}
	if (numbers.has(0)) {
		return { problem: 'placeholders are numbered from {{1}}, but the content uses {{0}}' };
	}
	if (missing.length > 0) {
		return {
			problem: `placeholders must be numbered {{1}} to {{${highest}}} without gaps, but ${missing
				.map((number) => `{{${number}}}`)
				.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`,
		};
	}
	return { count: highest };
}

/** The content with every placeholder filled in: what the recipient reads. */
export function fillPlaceholders(content: string, values: readonly string[]): string {
	return content.replace(PLACEHOLDER, (placeholder, number: string) => values[Number(number) - 1] ?? placeholder);
}
