import { countSms } from '../../../../../nodes/MultiChannelNotification/actions/sms/segments';

/**
 * Written from 3GPP TS 23.038 § 6.2.1 (the GSM 7-bit default alphabet and its extension table)
 * and TS 23.040 § 9.2.3.24.1 (a concatenated SMS's header leaves 153 septets, or 67 UCS-2
 * characters, per part), not from the module's own tables.
 */

const EVERY_BASIC_CHARACTER =
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const EVERY_EXTENSION_CHARACTER = '\f^{}\\[~]|€';

describe('countSms: GSM-7', () => {
	test.each([
		[160, 1],
		[161, 2],
		[306, 2],
		[307, 3],
		[459, 3],
		[460, 4],
	])('%i basic characters → %i segment(s)', (length, segments) => {
		expect(countSms('a'.repeat(length))).toEqual({ encoding: 'GSM-7', length, segments, forcedBy: [] });
	});

	test('every character of the default alphabet is one septet', () => {
		expect(EVERY_BASIC_CHARACTER).toHaveLength(127);
		expect(countSms(EVERY_BASIC_CHARACTER)).toEqual({ encoding: 'GSM-7', length: 127, segments: 1, forcedBy: [] });
	});

	test('every character of the extension table is two septets (an escape, then the character)', () => {
		expect(countSms(EVERY_EXTENSION_CHARACTER)).toEqual({ encoding: 'GSM-7', length: 20, segments: 1, forcedBy: [] });
	});

	test('a two-septet character at position 160 does not fit: 159 + 2 septets take two segments', () => {
		expect(countSms(`${'a'.repeat(159)}€`)).toEqual({ encoding: 'GSM-7', length: 161, segments: 2, forcedBy: [] });
		expect(countSms(`${'a'.repeat(158)}€`)).toEqual({ encoding: 'GSM-7', length: 160, segments: 1, forcedBy: [] });
	});

	test('an escape and its character are never split between parts', () => {
		// Part 1 would end on the escape (septet 153): the whole € moves to part 2, which then
		// holds 2 + 152 septets, and one more basic character needs a third part.
		expect(countSms(`${'a'.repeat(152)}€${'a'.repeat(151)}`)).toMatchObject({ length: 305, segments: 2 });
		expect(countSms(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toMatchObject({ length: 306, segments: 3 });
	});

	test('the empty message: no septets, one (empty) SMS', () => {
		expect(countSms('')).toEqual({ encoding: 'GSM-7', length: 0, segments: 1, forcedBy: [] });
	});
});

describe('countSms: UCS-2', () => {
	test.each([
		[70, 1],
		[71, 2],
		[134, 2],
		[135, 3],
		[201, 3],
		[202, 4],
	])('%i characters with one outside GSM-7 → %i segment(s)', (length, segments) => {
		expect(countSms(`${'a'.repeat(length - 1)}’`)).toEqual({ encoding: 'UCS-2', length, segments, forcedBy: ['’'] });
	});

	test('one character outside GSM-7 turns the whole message into UCS-2', () => {
		const gsm = 'Your order has shipped and arrives tomorrow between 9 and 12, see the link';
		expect(countSms(gsm)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
		expect(countSms(`${gsm} ✓`)).toEqual({ encoding: 'UCS-2', length: gsm.length + 2, segments: 2, forcedBy: ['✓'] });
	});

	test('extension characters count one in UCS-2 (no escape there)', () => {
		expect(countSms(`€ ’`)).toEqual({ encoding: 'UCS-2', length: 3, segments: 1, forcedBy: ['’'] });
	});

	test('a character outside the Basic Multilingual Plane (an emoji) counts two', () => {
		expect(countSms('😀')).toEqual({ encoding: 'UCS-2', length: 2, segments: 1, forcedBy: ['😀'] });
		expect(countSms(`${'a'.repeat(68)}😀`)).toMatchObject({ length: 70, segments: 1 });
		expect(countSms(`${'a'.repeat(69)}😀`)).toMatchObject({ length: 71, segments: 2 });
		// Other surrogate pairs: a CJK extension B ideograph and a mathematical letter.
		expect(countSms('𠀀𝒜')).toEqual({ encoding: 'UCS-2', length: 4, segments: 1, forcedBy: ['𠀀', '𝒜'] });
	});

	test('a surrogate pair is never split between parts', () => {
		// 66 + 2 would straddle unit 67: the emoji moves to part 2, which holds 2 + 65.
		expect(countSms(`${'a'.repeat(66)}😀${'a'.repeat(65)}`)).toMatchObject({ length: 133, segments: 2 });
		expect(countSms(`${'a'.repeat(66)}😀${'a'.repeat(66)}`)).toMatchObject({ length: 134, segments: 3 });
	});

	test('forcedBy lists the first five different characters, in order of appearance', () => {
		expect(countSms('“Hi” — café… ñ ‘ok’ 😀 ü ❤').forcedBy).toEqual(['“', '”', '—', '…', '‘']);
		expect(countSms('ǅ ǅ ǅ').forcedBy).toEqual(['ǅ']);
	});

	test('accented letters outside the default alphabet force UCS-2; those inside do not', () => {
		expect(countSms('àäéèìñòöùü ÄÅÇÉÑÖÜ')).toMatchObject({ encoding: 'GSM-7' });
		expect(countSms('çáíóú')).toEqual({ encoding: 'UCS-2', length: 5, segments: 1, forcedBy: ['ç', 'á', 'í', 'ó', 'ú'] });
	});
});
