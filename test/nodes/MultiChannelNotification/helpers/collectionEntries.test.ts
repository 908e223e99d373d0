/**
 * What the node reads from a parameter before its schema judges it (helpers/parameters.ts): a
 * number, true/false or a big integer becomes text, and a fixedCollection gives its entries as a
 * list whether it holds a list, one entry or nothing at all.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { asText, readCollectionEntries } from '../../../../nodes/MultiChannelNotification/helpers/parameters';

/** An execution context whose one parameter holds `value`. */
const holding = (value: unknown) => ({ getNodeParameter: () => value }) as unknown as IExecuteFunctions;

describe('a value read as text', () => {
	test.each<[string, unknown, unknown]>([
		['a number', 5, '5'],
		['true or false', true, 'true'],
		['a big integer', BigInt(10), '10'],
		['text stays as it is', ' hi ', ' hi '],
		['anything else stays as it is', null, null],
	])('%s', (_name, value, expected) => {
		expect(asText(value)).toBe(expected);
	});
});

describe('the entries of a fixedCollection', () => {
	test.each<[string, unknown, unknown[]]>([
		['a list', { button: [{ text: 'a' }, { text: 'b' }] }, [{ text: 'a' }, { text: 'b' }]],
		['one entry', { button: { text: 'a' } }, [{ text: 'a' }]],
		['none', {}, []],
		['an entry emptied to null', { button: null }, []],
		['an entry that is not an object', { button: 'a' }, []],
		['no collection', null, []],
	])('%s', (_name, collection, entries) => {
		expect(readCollectionEntries(holding(collection), 'quickReplyButtons', 'button', 0)).toEqual(entries);
	});
});
