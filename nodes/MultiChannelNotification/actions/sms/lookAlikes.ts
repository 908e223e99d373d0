/**
 * Options → Replace Look-Alike Characters: characters a word processor or phone keyboard puts in
 * text that look like GSM-7 ones but would turn the whole SMS into UCS-2 (segments.ts), each
 * replaced by the GSM-7 text it looks like, or removed when it is invisible. Only look-alikes:
 * accented letters and emoji change what the text says, so they are kept. docs/sms-segments.md
 * lists this table.
 */

export interface LookAlike {
	from: string;
	to: string;
	/** What the character is, for the docs. */
	name: string;
}

const each = (characters: string, to: string, name: string): LookAlike[] => [...characters].map((from) => ({ from, to, name }));

export const LOOK_ALIKES: readonly LookAlike[] = [
	...each('\u2018\u2019\u201a\u201b', "'", 'curly single quotes and apostrophe'),
	...each('\u2032\u00b4\u0060', "'", 'prime, acute accent and backtick used as apostrophes'),
	...each('\u2039\u203a', "'", 'single angle quotes'),
	...each('\u201c\u201d\u201e\u201f', '"', 'curly double quotes'),
	...each('\u2033\u00ab\u00bb', '"', 'double prime and angle quotes (guillemets)'),
	...each('\u2010\u2011\u2012\u2013\u2014\u2015\u2212', '-', 'hyphens, dashes and the minus sign'),
	{ from: '\u2026', to: '...', name: 'ellipsis' },
	...each('\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t', ' ', 'non-breaking, narrow, wide and other spaces, and the tab'),
	...each('\u2028\u2029', '\n', 'line and paragraph separators'),
	...each('\u200b\u2060\ufeff\u00ad', '', 'invisible: zero-width space, word joiner, byte-order mark, soft hyphen'),
];

const REPLACEMENTS = new Map(LOOK_ALIKES.map(({ from, to }) => [from, to]));

/** The text with every look-alike replaced; any other character is kept as it is. */
export function replaceLookAlikes(text: string): string {
	return [...text].map((character) => REPLACEMENTS.get(character) ?? character).join('');
}
