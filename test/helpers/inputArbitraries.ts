import fc from 'fast-check';

import { isE164 } from '../../sandbox/validate';
import { MISSING, PerItem } from './perItem';
import type { SendKind } from '../fixtures/sends';
import { OPERATION } from '../fixtures/sends';

/**
 * fast-check generators for the four sends: valid parameter sets, and invalid values grouped
 * in categories, each naming the UI label the node's error must start with.
 */

type Params = Record<string, unknown>;

// ---------------------------------------------------------------- building blocks

const nonZeroDigit = fc.constantFrom(...'123456789'.split(''));
const digit = fc.constantFrom(...'0123456789'.split(''));
const digits = (minLength: number, maxLength: number) => fc.string({ unit: digit, minLength, maxLength });

/** E.164 as the spec defines it: +, country code not starting with 0, 7 to 15 digits in all. */
export const e164 = fc.tuple(nonZeroDigit, digits(6, 14)).map(([first, rest]) => `+${first}${rest}`);
export const smsE164 = digits(5, 13).map((rest) => `+62${rest}`);

/** Whitespace that String.prototype.trim removes, Unicode spaces included. */
const TRIMMED_SPACE = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u2028', '\u202f', '\u3000', '\ufeff'];
const blank = fc.string({ unit: fc.constantFrom(...TRIMMED_SPACE), minLength: 1, maxLength: 12 });
const padding = fc.constantFrom('', '', '', ' ', '  ', '\t', ' \u00a0');

/** Text with something visible in it: ASCII, any Unicode code point, or emoji-rich graphemes. */
export const nonBlankText = (maxLength = 160) =>
	fc
		.oneof(
			fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength }),
			fc.string({ unit: 'binary', minLength: 1, maxLength }),
			fc.string({ unit: 'grapheme', minLength: 1, maxLength }),
		)
		.filter((value) => value.trim() !== '');

/** A value an identifier field accepts: text with optional padding the node trims away. */
const paddedIdentifier = fc
	.tuple(padding, nonBlankText(40), padding)
	.map(([before, value, after]) => `${before}${value}${after}`);

export const httpsUrl = fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true });

// ---------------------------------------------------------------- valid parameter sets

export interface TemplateValues {
	from: unknown;
	to: unknown;
	templateName: unknown;
	languageCode: unknown;
	languagePolicy: unknown;
	bodyTexts: unknown[];
	header: unknown;
	quickReplies: Array<{ index: unknown; payload: unknown }>;
	urlButton: { index: unknown; text: unknown } | null;
}

const quickRepliesAndUrl = fc
	.shuffledSubarray(['0', '1', '2'], { minLength: 0, maxLength: 3 })
	.chain((indexes) =>
		fc.tuple(
			fc.tuple(
				...indexes.map((index) =>
					fc.record({
						// The node trims the index and takes a number as text.
						index: fc.constantFrom(index, ` ${index}`, Number(index)),
						payload: nonBlankText(40),
					}),
				),
			),
			fc.option(
				fc.record({
					index: fc.constantFrom(...'0123456789'.split('')).filter((index) => !indexes.includes(index)),
					text: nonBlankText(40),
				}),
				{ nil: null },
			),
		),
	);

export const templateValues: fc.Arbitrary<TemplateValues> = fc
	.record({
		from: e164,
		to: fc.tuple(padding, e164, padding).map(([before, value, after]) => `${before}${value}${after}`),
		templateName: paddedIdentifier,
		languageCode: fc.oneof(fc.constantFrom('id', 'en', 'en_US', 'pt_BR'), paddedIdentifier),
		languagePolicy: fc.oneof(fc.constant('deterministic'), paddedIdentifier),
		bodyTexts: fc.array(fc.oneof({ arbitrary: nonBlankText(120), weight: 4 }, { arbitrary: fc.integer(), weight: 1 }), {
			maxLength: 4,
		}),
		header: fc.option(httpsUrl, { nil: '' }),
		buttons: quickRepliesAndUrl,
	})
	.map(({ buttons: [quickReplies, urlButton], ...rest }) => ({ ...rest, quickReplies, urlButton }));

const STRICT = { phoneNumberFormat: 'strict' };

/** Send Template parameters, fields mode; any leaf may be a PerItem. */
export function templateTree(values: TemplateValues, options: Params = STRICT): Params {
	return {
		...OPERATION.template,
		from: values.from,
		to: values.to,
		templateName: values.templateName,
		languageCode: values.languageCode,
		componentsInputMode: 'fields',
		bodyParameters: { parameter: values.bodyTexts.map((text) => ({ text })) },
		headerImageUrl: values.header,
		quickReplyButtons: { button: values.quickReplies.map(({ index, payload }) => ({ index, payload })) },
		urlButton: values.urlButton ? { button: { index: values.urlButton.index, text: values.urlButton.text } } : {},
		// Language Policy is an option of template sends (the service fixes it to "deterministic").
		options: { ...options, languagePolicy: values.languagePolicy },
	};
}

/**
 * The components array the fields of `values` stand for, as JSON mode takes it. Optionally with
 * whole-number indexes, and with the keys the spec gives defaults for left out (a body
 * component's and its parameters' `type`, a quick reply button's `sub_type`).
 */
export function componentsOf(values: TemplateValues, integerIndexes = false, omitDefaults = false): unknown[] {
	const unwrap = (value: unknown) => (value instanceof PerItem ? value.value : value);
	const indexOf = (value: unknown) => {
		const text = String(unwrap(value)).trim();
		return integerIndexes ? Number(text) : text;
	};
	return [
		...(unwrap(values.header) ? [{ type: 'header', parameters: [{ type: 'image', image: { link: unwrap(values.header) } }] }] : []),
		{
			...(omitDefaults ? {} : { type: 'body' }),
			parameters: values.bodyTexts.map((text) => ({ ...(omitDefaults ? {} : { type: 'text' }), text: String(unwrap(text)) })),
		},
		...values.quickReplies.map(({ index, payload }) => ({
			type: 'button',
			...(omitDefaults ? {} : { sub_type: 'quick_reply' }),
			index: indexOf(index),
			parameters: [{ type: 'payload', payload: unwrap(payload) }],
		})),
		...(values.urlButton
			? [
					{
						type: 'button',
						sub_type: 'url',
						index: indexOf(values.urlButton.index),
						parameters: [{ type: 'text', text: unwrap(values.urlButton.text) }],
					},
				]
			: []),
	];
}

export function templateJsonTree(values: TemplateValues, componentsJson: unknown, options: Params = STRICT): Params {
	const {
		bodyParameters: _body,
		headerImageUrl: _header,
		quickReplyButtons: _quickReplies,
		urlButton: _url,
		...rest
	} = templateTree(values, options);
	return { ...rest, componentsInputMode: 'json', componentsJson };
}

export interface SmsValues {
	phoneNumber: unknown;
	message: unknown;
}

export const smsValues: fc.Arbitrary<SmsValues> = fc.record({
	phoneNumber: fc.tuple(padding, smsE164, padding).map(([before, value, after]) => `${before}${value}${after}`),
	message: fc.oneof(
		{ arbitrary: nonBlankText(320), weight: 8 },
		{ arbitrary: fc.integer(), weight: 1 },
		// Long messages: the spec sets no length limit.
		{ arbitrary: fc.integer({ min: 2000, max: 40000 }).map((length) => 'Pesan panjang 😀 '.repeat(length / 16)), weight: 1 },
	),
});

export function smsTree(values: SmsValues, options: Params = STRICT): Params {
	return { ...OPERATION.sms, phoneNumber: values.phoneNumber, message: values.message, options };
}

export interface CombinedValues extends TemplateValues {
	smsPhoneNumber: unknown;
	smsMessage: unknown;
}

export const combinedValues: fc.Arbitrary<CombinedValues> = fc
	.tuple(templateValues, smsValues)
	.map(([template, sms]) => ({ ...template, smsPhoneNumber: sms.phoneNumber, smsMessage: sms.message }));

export function combinedTree(values: CombinedValues, options: Params = STRICT): Params {
	return {
		...templateTree(values, options),
		...OPERATION.combined,
		smsPhoneNumber: values.smsPhoneNumber,
		smsMessage: values.smsMessage,
	};
}

export interface MediaValues {
	from: unknown;
	to: unknown;
	mediaType: unknown;
	mediaUrl: unknown;
	caption: unknown;
}

export const mediaValues: fc.Arbitrary<MediaValues> = fc.record({
	from: e164,
	to: e164,
	mediaType: fc.constantFrom('image', 'video', 'audio', 'document'),
	mediaUrl: fc.tuple(padding, httpsUrl).map(([before, url]) => `${before}${url}`),
	caption: fc.oneof(fc.constant(''), nonBlankText(200), blank),
});

export function mediaTree(values: MediaValues, options: Params = STRICT): Params {
	return {
		...OPERATION.media,
		from: values.from,
		to: values.to,
		mediaType: values.mediaType,
		mediaUrl: values.mediaUrl,
		...(values.mediaType === 'image' ? { caption: values.caption } : {}),
		options,
	};
}

/** A valid parameter set of each send, every leaf varying per item. */
export function validTreeArbitrary(kind: SendKind): fc.Arbitrary<Params> {
	const perItem = <T extends object>(values: T): T =>
		Object.fromEntries(
			Object.entries(values).map(([key, value]) => [
				key,
				// null means "no such part" (e.g. no URL button) and stays as it is.
				value === null
					? null
					: Array.isArray(value)
						? value.map((entry: unknown) => (entry !== null && typeof entry === 'object' ? perItem(entry) : new PerItem(entry)))
						: typeof value === 'object'
							? perItem(value)
							: new PerItem(value),
			]),
		) as T;
	switch (kind) {
		case 'sms':
			return smsValues.map((values) => smsTree(perItem(values)));
		case 'media':
			// The media type decides which fields the node shows, so it stays a literal per batch.
			return mediaValues.map((values) => mediaTree({ ...perItem(values), mediaType: values.mediaType }));
		case 'template':
			return fc
				.tuple(templateValues, fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean())
				.map(([values, json, asText, integerIndexes, omitDefaults]) => {
					if (!json) return templateTree(perItem(values));
					const components = componentsOf(values, integerIndexes, omitDefaults);
					return templateJsonTree(perItem(values), new PerItem(asText ? JSON.stringify(components) : components));
				});
		case 'combined':
			return combinedValues.map((values) => combinedTree(perItem(values)));
	}
}

// ---------------------------------------------------------------- invalid values

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
