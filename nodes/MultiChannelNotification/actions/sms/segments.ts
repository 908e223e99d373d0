/**
 * What an SMS costs: its encoding, its length in that encoding's units and how many segments
 * (billed messages) it takes. Pure; the rules and their sources are in docs/sms-segments.md.
 *
 * - 3GPP TS 23.038 § 6.2.1: the GSM 7-bit default alphabet (one septet per character) and its
 *   extension table (§ 6.2.1.1), whose characters are an escape (0x1B) then the character: two
 *   septets. A text of these characters only is sent as GSM-7.
 * - Any other character makes the whole message UCS-2 (TS 23.038 § 6.2.3): 16 bits per unit, and
 *   a character outside the Basic Multilingual Plane (most emoji) is a surrogate pair, two units.
 * - TS 23.040 § 9.2.2.1 and § 9.2.3.24.1: one SMS carries 140 octets of user data, 160 septets or
 *   70 UCS-2 units; split into parts, each part's concatenation header (6 octets with the 8-bit
 *   reference) leaves 153 septets or 67 units.
 * - A character is never split between two parts (an escape and its character, the two halves of
 *   a surrogate pair), as senders do: such a character starts the next part.
 */

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsCount {
	encoding: SmsEncoding;
	/** Septets for GSM-7, 16-bit units for UCS-2. */
	length: number;
	/** Billed messages; an empty text is still one SMS. */
	segments: number;
	/** The first few different characters outside GSM-7, in order of appearance (empty for GSM-7). */
	forcedBy: string[];
}

/** TS 23.038 § 6.2.1, in code order 0x00–0x7F; 0x1B (the escape) is not a character of its own. */
const GSM7_BASIC = new Set(
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** TS 23.038 § 6.2.1.1: the extension table's characters (form feed, ^ { } \ [ ~ ] | €), two septets each. */
const GSM7_EXTENSION = new Set('\f^{}\\[~]|€');

/** Units per message: alone, and per part of a longer one (TS 23.040). */
export const SMS_UNITS = {
	'GSM-7': { single: 160, perPart: 153 },
	'UCS-2': { single: 70, perPart: 67 },
} as const;

const MAX_FORCED_BY = 5;

/** Whether a character (one code point) is in GSM-7: 1 or 2 septets, or 0 when it is not. */
function septets(character: string): number {
	if (GSM7_BASIC.has(character)) return 1;
	return GSM7_EXTENSION.has(character) ? 2 : 0;
}

/** Parts needed when no character (of `sizes` units each) may straddle two parts. */
function partsFor(sizes: number[], perPart: number): number {
	let parts = 1;
	let used = 0;
	for (const size of sizes) {
		if (used + size > perPart) {
			parts++;
			used = 0;
		}
		used += size;
	}
	return parts;
}

/** The encoding, length and segments of an SMS text (see the sources above). */
export function countSms(text: string): SmsCount {
	const characters = [...text];
	const forcedBy: string[] = [];
	for (const character of characters) {
		if (septets(character) === 0 && !forcedBy.includes(character)) {
			forcedBy.push(character);
			if (forcedBy.length === MAX_FORCED_BY) break;
		}
	}
	const encoding: SmsEncoding = forcedBy.length === 0 ? 'GSM-7' : 'UCS-2';
	const sizes = characters.map((character) => (encoding === 'GSM-7' ? septets(character) : character.length));
	const length = sizes.reduce((sum, size) => sum + size, 0);
	const { single, perPart } = SMS_UNITS[encoding];
	return { encoding, length, segments: length <= single ? 1 : partsFor(sizes, perPart), forcedBy };
}
