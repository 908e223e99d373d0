/**
 * An error title that fits n8n's panel: a text longer than the limit is cut to one character
 * less and ends with "…"; the cut falls at a word past the title's middle, never inside an
 * aside in brackets left open, and drops the separators it would end on. A short limit keeps
 * each case readable: 20 characters, so the middle is the 10th.
 */
import { titleText } from '../../../../nodes/MultiChannelNotification/helpers/errors';

const MAX = 20;

describe('a title cut to fit', () => {
	test('a text of exactly the limit is kept whole', () => {
		expect(titleText('a'.repeat(MAX), MAX)).toBe('a'.repeat(MAX));
	});

	test('one long word is cut to one character less than the limit, then "…"', () => {
		const cut = titleText('x'.repeat(30), MAX);

		expect(cut).toBe(`${'x'.repeat(MAX - 1)}…`);
		expect(cut).toHaveLength(MAX);
	});

	test('an aside opened in the first half is cut through, not dropped', () => {
		expect(titleText('aaaaaaaaaa(bbbbbbbbbbbbbbb', MAX)).toBe('aaaaaaaaaa(bbbbbbbb…');
	});

	test('an aside closed before the cut is kept', () => {
		expect(titleText('aaaaaaaaaaa(bb) cccccccccc', MAX)).toBe('aaaaaaaaaaa(bb)…');
	});

	test('a space in the first half (here the middle itself) is not where the cut goes', () => {
		expect(titleText('a bbbbbbbbbbbbbbbbbbbbbbbbb', MAX)).toBe('a bbbbbbbbbbbbbbbbb…');
		expect(titleText('aaaaaaaaaa bbbbbbbbbbbbbbb', MAX)).toBe('aaaaaaaaaa bbbbbbbb…');
	});

	test('a cut that lands just after a word (a line break here) keeps that word', () => {
		expect(titleText('aaaaaaaaaaaa bbbbb\ncccccc', MAX)).toBe('aaaaaaaaaaaa bbbbb…');
	});

	test('every separator the cut would end on is dropped', () => {
		expect(titleText('aaaaaaaaaaaaaa,; cccccccccc', MAX)).toBe('aaaaaaaaaaaaaa…');
	});
});
