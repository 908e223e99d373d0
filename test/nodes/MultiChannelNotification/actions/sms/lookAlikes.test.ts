import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { LOOK_ALIKES, replaceLookAlikes } from '../../../../../nodes/MultiChannelNotification/actions/sms/lookAlikes';
import { countSms } from '../../../../../nodes/MultiChannelNotification/actions/sms/segments';

describe('replaceLookAlikes', () => {
	test('quotes, dashes, ellipsis and odd spaces from a word processor become GSM-7', () => {
		const pasted = '“Your order” isn’t late — it ships Mon–Fri…\u00a0thanks „ok“ ‘ok’ 10\u202f000 \u2212 5';
		const replaced = replaceLookAlikes(pasted);
		expect(replaced).toBe('"Your order" isn\'t late - it ships Mon-Fri... thanks "ok" \'ok\' 10 000 - 5');
		expect(countSms(pasted).encoding).toBe('UCS-2');
		expect(countSms(replaced)).toMatchObject({ encoding: 'GSM-7', forcedBy: [] });
	});

	test('invisible characters (zero-width space, soft hyphen, byte-order mark) are removed', () => {
		expect(replaceLookAlikes('\ufeffpay\u200bment re\u00adceived')).toBe('payment received');
	});

	test('accented letters, emoji and GSM-7 text are left alone', () => {
		const text = 'Café ça ñ ü 😀 {€} ~ [ok] 100% @home';
		expect(replaceLookAlikes(text)).toBe(text);
	});

	test('every replacement turns a non-GSM-7 character into GSM-7 text (or nothing)', () => {
		for (const { from, to } of LOOK_ALIKES) {
			expect(countSms(from).encoding).toBe('UCS-2');
			expect(countSms(to).encoding).toBe('GSM-7');
			expect(replaceLookAlikes(`a${from}b`)).toBe(`a${to}b`);
		}
	});
});

test('docs/sms-segments.md lists every replacement by its code point', () => {
	const docs = readFileSync(join(__dirname, '../../../../../docs/sms-segments.md'), 'utf8');
	const missing = LOOK_ALIKES.map(({ from }) => `U+${(from.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).filter((code) => !docs.includes(code));
	expect(missing).toEqual([]);
});
