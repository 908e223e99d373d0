import type { IDataObject } from 'n8n-workflow';

import { escapeHtml } from '../helpers/html';

/**
 * Keeps the API key out of everything the node shows (output items, success answers too, and
 * error texts): a service or proxy may echo it as typed, percent-, JSON- or HTML-escaped, or cut
 * short. By key length:
 * - 8 characters or more: every occurrence, in each of those forms, becomes `***`;
 * - 16 or more: also any run of 12 or more consecutive characters of the key (a key cut short);
 * - under 8: only where the key stands alone, not next to a letter or digit, so "abc" never
 *   mangles "abcdef". Such keys are weak anyway.
 */

export const MASK = '***';
const WHOLE_KEY_MIN = 8;
const FRAGMENT_KEY_MIN = 16;
const FRAGMENT_MIN = 12;

/** The text as a page writes it, with `apostrophe` for `'` (pages differ in that one). */
function htmlEscape(text: string, apostrophe: string): string {
	return escapeHtml(text).replace(/&#39;/g, apostrophe);
}

/** The forms in which a text may come back from a service (none empty for a text that is not). */
function encodings(text: string): string[] {
	const forms = new Set<string>([
		text,
		encodeURIComponent(text),
		encodeURIComponent(text).toLowerCase(),
		encodeURI(text),
		JSON.stringify(text).slice(1, -1),
		htmlEscape(text, '&#39;'),
		htmlEscape(text, '&#x27;'),
		htmlEscape(text, '&apos;'),
	]);
	return [...forms];
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export type Scrubber = (text: string) => string;

/** A function that masks the key in a text; the identity for an empty key. */
export function makeScrubber(key: string): Scrubber {
	if (key === '') return (text) => text;
	if (key.length < WHOLE_KEY_MIN) {
		const pattern = new RegExp(
			`(?<![A-Za-z0-9])(?:${encodings(key).map(escapeRegExp).join('|')})(?![A-Za-z0-9])`,
			'g',
		);
		return (text) => text.replace(pattern, MASK);
	}
	const needles = encodings(key).sort((a, b) => b.length - a.length);
	const fragments: string[] = [];
	if (key.length >= FRAGMENT_KEY_MIN) {
		for (const form of needles) {
			for (let start = 0; start + FRAGMENT_MIN <= form.length; start++) {
				fragments.push(form.slice(start, start + FRAGMENT_MIN));
			}
		}
	}
	const shortest = Math.min(key.length, FRAGMENT_MIN);
	return (text) => {
		// Most strings of an answer (ids, "success") are shorter than any form of the key.
		if (text.length < shortest) return text;
		let result = text;
		for (const needle of needles) {
			if (result.includes(needle)) result = result.split(needle).join(MASK);
		}
		if (fragments.length === 0) return result;
		// Mark every position covered by a 12-character window of the key, then mask each run.
		let covered: Uint8Array | undefined;
		for (const fragment of fragments) {
			for (let at = result.indexOf(fragment); at !== -1; at = result.indexOf(fragment, at + 1)) {
				covered ??= new Uint8Array(result.length);
				covered.fill(1, at, at + fragment.length);
			}
		}
		if (covered === undefined) return result;
		let masked = '';
		for (let index = 0; index < result.length; ) {
			if (covered[index]) {
				while (index < result.length && covered[index]) index++;
				masked += MASK;
			} else {
				masked += result[index++];
			}
		}
		return masked;
	};
}

/** A copy of a parsed answer with the key masked in every string, keys of objects included. */
export function scrubValue(value: unknown, scrub: Scrubber, depth = 0): unknown {
	if (typeof value === 'string') return scrub(value);
	if (value === null || typeof value !== 'object') return value;
	// Deeper than any real answer: dropped rather than walked (and never shown unscrubbed).
	if (depth > 64) return '(omitted: nested too deeply)';
	if (Array.isArray(value)) return value.map((entry) => scrubValue(entry, scrub, depth + 1));
	const copy: IDataObject = {};
	for (const [name, entry] of Object.entries(value as IDataObject)) {
		copy[scrub(name)] = scrubValue(entry, scrub, depth + 1) as IDataObject[string];
	}
	return copy;
}
