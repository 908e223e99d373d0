import fc from 'fast-check';

import { isE164 } from '../../sandbox/validate';
import { MISSING } from './perItem';
import type { Params } from './validInputs';
import { blank, componentsOf, digits, e164, httpsUrl, nonBlankText, nonZeroDigit, templateValues } from './validInputs';

/**
 * fast-check generators of invalid values, grouped in categories, each named by the field the
 * node's error must name: what the node must refuse before anything is sent.
 */

function insertAt(value: string, insert: string, position: number): string {
	return `${value.slice(0, position)}${insert}${value.slice(position)}`;
}

/** Somewhere strictly inside the string, so trimming cannot remove it. */
const interiorInsert = (base: fc.Arbitrary<string>, inserts: fc.Arbitrary<string>) =>
	fc
		.tuple(base, inserts, fc.nat())
		.map(([value, insert, at]) => insertAt(value, insert, 1 + (at % Math.max(1, value.length - 1))));

const nonStrings: fc.Arbitrary<unknown> = fc.oneof(
	fc.constant(null),
	fc.constant(MISSING),
	fc.constant({}),
	fc.constant([]),
	fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }),
	fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 3 }),
);

const FOREIGN_CHARS = ['٣', '۳', '３', '३', '০', '໓', 'a', 'O', 'l', 'x', '#', '*', 'é', '😀', '\u200b', '\u0000'];

/** Phone numbers that stay invalid even after the "normalize" option strips separators and adds +62. */
export const badPhoneAnyFormat: fc.Arbitrary<unknown> = fc.oneof(
	fc.tuple(nonZeroDigit, digits(0, 5)).map(([first, rest]) => `+${first}${rest}`),
	fc.tuple(nonZeroDigit, digits(15, 60)).map(([first, rest]) => `+${first}${rest}`),
	digits(6, 14).map((rest) => `+0${rest}`),
	interiorInsert(e164, fc.constantFrom(...FOREIGN_CHARS)),
	e164.map((value) => `+${value}`),
	e164.map((value) => `tel:${value}`),
	e164.map((value) => `${value} ext. 12`),
	fc.constant(''),
	blank,
	fc.integer({ min: 100, max: 99999 }).map((length) => `+62${'8'.repeat(length)}`),
	fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((value) => /[^\d\s+\-.()]/.test(value)),
	nonStrings,
	fc.boolean(),
);

/** Phone numbers that are not E.164 as typed (the "strict" option sends them as is). */
export const badPhoneStrict: fc.Arbitrary<unknown> = fc
	.oneof(
		badPhoneAnyFormat,
		digits(1, 20),
		e164.map((value) => value.slice(1)),
		e164.map((value) => `00${value.slice(1)}`),
		interiorInsert(e164, fc.constantFrom(' ', '-', '.', '(', ')', '/', '\u00a0', '\u2009', '\t', '_', ',')),
		fc.integer({ min: 1000000, max: Number.MAX_SAFE_INTEGER }),
		fc.string({ unit: 'binary', maxLength: 40 }),
	)
	.filter((value) => !(typeof value === 'string' && isE164(value.trim())));

/** Valid E.164 numbers outside Indonesia: wrong country for SMS. */
export const wrongCountry: fc.Arbitrary<string> = e164.filter((value) => !value.startsWith('+62'));

/**
 * Indonesian mobile numbers of a length nobody has (4 to 7 digits after +62 8, or 12), well formed
 * otherwise: as typed in full (E.164), and in the local form 08… with separators, as people type
 * them ("0812-3456"), which Phone Number Format turns into +62.
 */
export const implausibleMobile: fc.Arbitrary<string> = fc.oneof(digits(4, 7), digits(12, 12)).map((rest) => `+628${rest}`);
export const implausibleMobileLocal: fc.Arbitrary<string> = fc
	.tuple(fc.oneof(digits(4, 7), digits(12, 12)), fc.constantFrom('', '-', ' '))
	.map(([rest, separator]) => `08${rest.slice(0, 2)}${separator}${rest.slice(2)}`);

/** Values a required text field refuses: empty, blank, missing, not text. */
export const badRequiredText: fc.Arbitrary<unknown> = fc.oneof(fc.constant(''), blank, nonStrings);

const hosts = fc.oneof(fc.domain(), fc.constantFrom('example.com', 'cdn.example.co.id', '127.0.0.1', '[::1]'));
const paths = fc.webPath();

/** Links that are not valid https URLs. */
export const badLink: fc.Arbitrary<unknown> = fc.oneof(
	fc
		.tuple(
			fc.constantFrom('http', 'HTTP', 'ftp', 'file', 'ws', 'wss', 'httpss', 'htps', 'sftp', 'gopher'),
			hosts,
			paths,
		)
		.map(([scheme, host, path]) => `${scheme}://${host}${path}`),
	fc.constantFrom(
		'javascript:alert(1)',
		'data:image/png;base64,iVBORw0KGgo=',
		'mailto:someone@example.com',
		'https://',
		'https:///file.png',
		'https://[::1',
		'https://exa%mple.com/x.png',
		'https://example.com:99999/x.png',
		'https://example.com:abc/x.png',
		'https://:443/x.png',
		'https://?q=1',
		'https://#top',
		'about:blank',
	),
	fc.tuple(hosts, paths).map(([host, path]) => `${host}${path}`),
	fc.tuple(hosts, paths).map(([host, path]) => `//${host}${path}`),
	fc.tuple(hosts, paths).map(([host, path]) => `https:/${host}${path}`),
	fc.tuple(hosts, paths).map(([host, path]) => `https:${host}${path}`),
	interiorInsert(httpsUrl, fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2003', '\u3000')),
	fc.integer({ min: 100, max: 60000 }).map((length) => `http://${'a'.repeat(length)}.com/`),
	fc.integer({ min: 100, max: 20000 }).map((length) => `https://example.com/${'a b'.repeat(length)}`),
	fc.constant(''),
	blank,
	nonStrings,
	fc.integer(),
	fc.string({ unit: 'binary', maxLength: 60 }).filter((value) => !/^\s*https:\/\//i.test(value)),
);

/** The header link is optional: blank, null or missing means "no header", so only other bad links. */
export const badHeaderLink: fc.Arbitrary<unknown> = badLink.filter(
	(value) => value !== MISSING && value !== null && !(typeof value === 'string' && value.trim() === ''),
);

/** Quick reply buttons: too many, a repeated or out-of-range index, or an empty payload. */
export const badQuickReplies: fc.Arbitrary<Array<{ index: unknown; payload: unknown }>> = fc.oneof(
	// Too many: 4 to 6 buttons (there are only 3 positions).
	fc.array(fc.record({ index: fc.constantFrom('0', '1', '2', '3', '4'), payload: nonBlankText(20) }), {
		minLength: 4,
		maxLength: 6,
	}),
	// A repeated index.
	fc
		.tuple(fc.constantFrom('0', '1', '2'), nonBlankText(20), nonBlankText(20))
		.map(([index, first, second]) => [
			{ index, payload: first },
			{ index, payload: second },
		]),
	// An index outside 0–2 (padding around a valid one would be trimmed, so none of that).
	fc
		.tuple(
			fc.oneof(
				fc.constantFrom('3', '9', '-1', '10', '01', '00', '0.5', '1.0', '1e0', 'a', 'one', '١', '２', '0x1', '+1', '∞'),
				fc.integer({ min: 3, max: 1000 }),
				fc.integer({ min: -1000, max: -1 }),
				fc.constant(1.5),
				fc.constant(null),
				fc.constant(true),
				fc.constant({}),
			),
			nonBlankText(20),
		)
		.map(([index, payload]) => [{ index, payload }]),
	// An empty or non-text payload.
	fc.tuple(fc.constantFrom('0', '1', '2'), badRequiredText).map(([index, payload]) => [{ index, payload }]),
);

/** URL button: a non-numeric index or an empty URL parameter. */
export const badUrlButton: fc.Arbitrary<{ index: unknown; text: unknown }> = fc.oneof(
	fc.record({
		index: fc.oneof(
			fc.constantFrom('a', '-1', '1.0', '1e1', '٣', '３', 'x1', '+1', '0x1'),
			fc.constant(null),
			fc.constant({}),
			fc.constant(-2),
			fc.constant(2.5),
		),
		text: nonBlankText(20),
	}),
	fc.record({ index: fc.constantFrom('0', '5', '7'), text: badRequiredText }),
);

export const badMediaType: fc.Arbitrary<unknown> = fc.oneof(
	fc.constant(MISSING),
	fc.constantFrom('sticker', 'template', 'IMAGE', 'Image', ' image', 'video ', 'location', 'text', ''),
	fc.constant(null),
	fc.constant(5),
	fc.constant(['image']),
	fc.constant({ type: 'image' }),
);

/** A caption must be text; any text (even blank) is accepted, so only non-text values. */
// null is not here: an optional field that evaluates to null counts as not given.
export const badCaption: fc.Arbitrary<unknown> = fc.oneof(
	fc.constant({}),
	fc.constant([]),
	fc.array(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 3 }),
	fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { minKeys: 1, maxKeys: 2 }),
);

/** One defect applied to a valid components array. */
const componentDefects: Array<(components: unknown[]) => unknown[]> = [
	(components) => components.filter((component) => (component as Params).type !== 'body'),
	(components) => [...components, { type: 'body', parameters: [] }],
	(components) => [...components, { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/a.png' } }] }, { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/b.png' } }] }],
	(components) => [...components, { type: 'footer', parameters: [] }],
	(components) => [...components, { type: 'BODY', parameters: [] }],
	(components) => [...components, {}],
	(components) => [...components, null],
	(components) => [...components, 1],
	(components) => [...components, 'body'],
	(components) => [...components, []],
	(components) => [...components, { type: 'button', sub_type: 'phone_number', index: '2', parameters: [{ type: 'text', text: 'x' }] }],
	(components) => [...components, { type: 'button', index: '2', parameters: [{ type: 'payload', payload: 'x' }] }],
	(components) =>
		[...components, ...['0', '1', '2', '0'].map((index) => ({ type: 'button', sub_type: 'quick_reply', index, parameters: [{ type: 'payload', payload: `p${index}` }] }))],
	(components) => [...components, { type: 'button', sub_type: 'quick_reply', index: '3', parameters: [{ type: 'payload', payload: 'x' }] }],
	(components) => [...components, { type: 'button', sub_type: 'quick_reply', index: 1.5, parameters: [{ type: 'payload', payload: 'x' }] }],
	(components) => [...components, { type: 'button', sub_type: 'quick_reply', index: true, parameters: [{ type: 'payload', payload: 'x' }] }],
	(components) => [...components, { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: '' }] }],
	(components) => [...components, { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [] }],
	(components) => [...components, { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'a' }, { type: 'payload', payload: 'b' }] }],
	(components) => [...components, { type: 'button', sub_type: 'url', index: 'a', parameters: [{ type: 'text', text: 'x' }] }],
	(components) => [...components, { type: 'button', sub_type: 'url', index: '8', parameters: [{ type: 'text', text: 5 }] }],
	(components) =>
		components.map((component) =>
			(component as Params).type === 'body' ? { ...(component as Params), parameters: [{ type: 'text', text: '' }] } : component,
		),
	(components) =>
		components.map((component) =>
			(component as Params).type === 'body' ? { ...(component as Params), parameters: [{ type: 'image', text: 'x' }] } : component,
		),
	(components) =>
		components.map((component) =>
			(component as Params).type === 'body' ? { ...(component as Params), parameters: [{ text: 'x' }] } : component,
		),
	(components) =>
		components.map((component) =>
			(component as Params).type === 'body' ? { ...(component as Params), parameters: 'Budi' } : component,
		),
	(components) =>
		components.map((component) => ((component as Params).type === 'body' ? { ...(component as Params), extra: 1 } : component)),
	(components) => [
		{ type: 'header', parameters: [{ type: 'image', image: { link: 'http://example.com/a.png' } }] },
		...components.filter((component) => (component as Params).type !== 'header'),
	],
	(components) => [
		{ type: 'header', parameters: [{ type: 'video', video: { link: 'https://example.com/a.mp4' } }] },
		...components.filter((component) => (component as Params).type !== 'header'),
	],
];

/** What JSON mode refuses: not JSON, not an array, or an array with a defect. */
export const badComponentsJson: fc.Arbitrary<unknown> = fc.oneof(
	// Not JSON at all.
	fc.string({ maxLength: 60 }).filter((value) => {
		if (value.trim() === '') return false;
		try {
			JSON.parse(value);
			return false;
		} catch {
			return true;
		}
	}),
	templateValues.chain((values) =>
		fc.nat().map((cut) => {
			const json = JSON.stringify(componentsOf(values));
			return json.slice(0, cut % json.length);
		}),
	),
	fc.constantFrom(
		"[{'type':'body','parameters':[]}]",
		'[{"type":"body","parameters":[],}]',
		'[{"type":"body","parameters":[]}] trailing',
		'NaN',
		'[1,]',
		'// comment\n[]',
		'undefined',
	),
	// JSON, but not an array — typed as text or produced by an expression.
	fc.jsonValue({ maxDepth: 3 }).filter((value) => !Array.isArray(value)).map((value) => JSON.stringify(value)),
	fc.jsonValue({ maxDepth: 3 }).filter((value) => !Array.isArray(value) && typeof value !== 'string'),
	// Arrays with one defect, as text or as a value.
	fc
		.tuple(templateValues, fc.constantFrom(...componentDefects), fc.boolean())
		.map(([values, defect, asText]) => {
			const components = defect(componentsOf(values));
			return asText ? JSON.stringify(components) : components;
		}),
	// Arbitrary arrays.
	fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 }),
);
