import fc from 'fast-check';

import { PerItem } from './perItem';
import type { SendKind } from '../fixtures/sends';
import { OPERATION } from '../fixtures/sends';

/**
 * fast-check generators of valid input for the four sends: the building blocks (phone numbers,
 * texts, links) and whole valid parameter sets. The invalid values are in invalidInputs.ts.
 */

export type Params = Record<string, unknown>;

// ---------------------------------------------------------------- building blocks

export const nonZeroDigit = fc.constantFrom(...'123456789'.split(''));
const digit = fc.constantFrom(...'0123456789'.split(''));
export const digits = (minLength: number, maxLength: number) => fc.string({ unit: digit, minLength, maxLength });

/** An Indonesian mobile number (+62 8…) of a length the numbering plan has none of: refused by the node. */
const implausibleIndonesianMobile = (value: string) => /^\+628/.test(value) && (value.length - 3 < 9 || value.length - 3 > 12);

/**
 * E.164 as the spec defines it: +, country code not starting with 0, 7 to 15 digits in all;
 * without the +62 8… numbers of a length no Indonesian mobile number has.
 */
export const e164 = fc
	.tuple(nonZeroDigit, digits(6, 14))
	.map(([first, rest]) => `+${first}${rest}`)
	.filter((value) => !implausibleIndonesianMobile(value));
/** +62: a mobile number (8 then 8 to 11 digits) or any other +62 number E.164 allows. */
export const smsE164 = fc.oneof(
	digits(8, 11).map((rest) => `+628${rest}`),
	fc.tuple(fc.constantFrom(...'012345679'.split('')), digits(4, 12)).map(([first, rest]) => `+62${first}${rest}`),
);

/** Whitespace that String.prototype.trim removes, Unicode spaces included. */
const TRIMMED_SPACE = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u2028', '\u202f', '\u3000', '\ufeff'];
export const blank = fc.string({ unit: fc.constantFrom(...TRIMMED_SPACE), minLength: 1, maxLength: 12 });
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
	phoneNumber: unknown;
	message: unknown;
}

export const combinedValues: fc.Arbitrary<CombinedValues> = fc
	.tuple(templateValues, smsValues)
	.map(([template, sms]) => ({ ...template, phoneNumber: sms.phoneNumber, message: sms.message }));

export function combinedTree(values: CombinedValues, options: Params = STRICT): Params {
	return {
		...templateTree(values, options),
		...OPERATION.combined,
		phoneNumber: values.phoneNumber,
		message: values.message,
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
