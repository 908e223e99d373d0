/**
 * The categories of invalid input the reliability fuzz tries (test/reliability/invalid-inputs.test.ts):
 * for each, the send, the UI label its error must name, how many inputs, the valid base values,
 * the bad values (test/helpers/invalidInputs.ts), the parameters that put a bad value in the
 * field, and the spec rule the bad value breaks (test/fixtures/specRules.ts). A generated value
 * that does not break its rule is discarded, so every case is invalid independently of the node.
 */
import fc from 'fast-check';

import type { SendKind } from '../fixtures/sends';
import { OPERATION } from '../fixtures/sends';
import {
	breaksCaption,
	breaksComponents,
	breaksE164,
	breaksHttpsLink,
	breaksMediaType,
	breaksMobileLength,
	breaksQuickReplies,
	breaksRequiredText,
	breaksSmsNumber,
	breaksUrlButton,
} from '../fixtures/specRules';
import {
	badCaption,
	badComponentsJson,
	badHeaderLink,
	badLink,
	badMediaType,
	badPhoneAnyFormat,
	badPhoneStrict,
	badQuickReplies,
	badRequiredText,
	badUrlButton,
	implausibleMobile,
	implausibleMobileLocal,
	wrongCountry,
} from './invalidInputs';
import { PerItem } from './perItem';
import type { CombinedValues, MediaValues, SmsValues, TemplateValues } from './validInputs';
import {
	combinedTree,
	combinedValues,
	componentsOf,
	mediaTree,
	mediaValues,
	smsTree,
	smsValues,
	templateJsonTree,
	templateTree,
	templateValues,
} from './validInputs';

type Params = Record<string, unknown>;

/** Inputs per random base: each chunk of a category gets its own valid base values. */
const CHUNK = 500;
const STRICT = { phoneNumberFormat: 'strict' };
/** No options at all: whatever the node's default phone-number handling is. */
const DEFAULTS = {};

export interface InvalidCase {
	category: string;
	kind: SendKind;
	label: string;
	params: Params;
	bad: unknown;
}

export interface Category {
	name: string;
	kind: SendKind;
	label: string;
	count: number;
	generate(seed: number): { cases: InvalidCase[]; discarded: number };
}

/** A stable number for a category's name, so each category draws from its own seeds. */
export function hash(text: string): number {
	let value = 7;
	for (const char of text) value = (value * 31 + char.charCodeAt(0)) % 1_000_003;
	return value;
}

function category<B>(spec: {
	name: string;
	kind: SendKind;
	label: string;
	count: number;
	base: fc.Arbitrary<B>;
	bad: fc.Arbitrary<unknown>;
	build: (base: B, bad: unknown) => Params;
	/** The spec rule the category breaks, checked on the bad value: false = not invalid, discarded. */
	breaks: (bad: never) => boolean;
}): Category {
	return {
		name: spec.name,
		kind: spec.kind,
		label: spec.label,
		count: spec.count,
		generate(seed) {
			const cases: InvalidCase[] = [];
			let discarded = 0;
			for (let chunk = 0; cases.length < spec.count; chunk++) {
				const chunkSeed = seed + hash(spec.name) + chunk * 7919;
				const [base] = fc.sample(spec.base, { seed: chunkSeed, numRuns: 1 });
				const wanted = Math.min(CHUNK, spec.count - cases.length);
				let taken = 0;
				for (const bad of fc.sample(spec.bad, { seed: chunkSeed + 1, numRuns: wanted * 2 })) {
					if (taken === wanted) break;
					const params = spec.build(base, bad);
					if (!spec.breaks(bad as never)) {
						discarded++;
						continue;
					}
					cases.push({ category: spec.name, kind: spec.kind, label: spec.label, params, bad });
					taken++;
				}
				if (chunk > 4 * (spec.count / CHUNK) + 4) throw new Error(`${spec.name}: cannot generate enough invalid inputs`);
			}
			return { cases, discarded };
		},
	};
}

const put = <T extends object>(base: T, field: keyof T, bad: unknown): T => ({ ...base, [field]: new PerItem(bad, base[field]) });
const smsField = (field: keyof SmsValues, options: Params) => (base: SmsValues, bad: unknown) =>
	smsTree(put(base, field, bad), options);
const mediaField = (field: keyof MediaValues, options: Params) => (base: MediaValues, bad: unknown) =>
	mediaTree(put(base, field, bad), options);
const templateField = (field: keyof TemplateValues, options: Params) => (base: TemplateValues, bad: unknown) =>
	templateTree(put(base, field, bad), options);
const combinedField = (field: keyof CombinedValues, options: Params) => (base: CombinedValues, bad: unknown) =>
	combinedTree(put(base, field, bad), options);

const withBodyParameter = <T extends TemplateValues>(base: T, bad: unknown): T => ({
	...base,
	bodyTexts: [...base.bodyTexts, new PerItem(bad, 'Budi')],
});
const withQuickReplies = <T extends TemplateValues>(base: T, bad: unknown): T => ({
	...base,
	quickReplies: (bad as Array<{ index: unknown; payload: unknown }>).map(({ index, payload }) => ({
		index: new PerItem(index),
		payload: new PerItem(payload),
	})),
});
const withUrlButton = <T extends TemplateValues>(base: T, bad: unknown): T => {
	const { index, text } = bad as { index: unknown; text: unknown };
	return { ...base, urlButton: { index: new PerItem(index), text: new PerItem(text) } };
};

function combinedJsonTree(base: CombinedValues, componentsJson: unknown): Params {
	return {
		...templateJsonTree(base, componentsJson),
		...OPERATION.combined,
		phoneNumber: base.phoneNumber,
		message: base.message,
	};
}

const imageValues = mediaValues.map((values) => ({ ...values, mediaType: 'image' }));

export const CATEGORIES: Category[] = [
	// SMS → Send
	category({ name: 'sms: phone number not E.164 (strict)', kind: 'sms', label: 'Phone Number', count: 1200, base: smsValues, bad: badPhoneStrict, build: smsField('phoneNumber', STRICT), breaks: breaksE164 }),
	category({ name: 'sms: phone number not E.164 (default format)', kind: 'sms', label: 'Phone Number', count: 500, base: smsValues, bad: badPhoneAnyFormat, build: smsField('phoneNumber', DEFAULTS), breaks: breaksE164 }),
	category({ name: 'sms: phone number outside +62 (strict)', kind: 'sms', label: 'Phone Number', count: 800, base: smsValues, bad: wrongCountry, build: smsField('phoneNumber', STRICT), breaks: breaksSmsNumber }),
	category({ name: 'sms: phone number outside +62 (default format)', kind: 'sms', label: 'Phone Number', count: 200, base: smsValues, bad: wrongCountry, build: smsField('phoneNumber', DEFAULTS), breaks: breaksSmsNumber }),
	category({ name: 'sms: Indonesian mobile number too short or long (strict)', kind: 'sms', label: 'Phone Number', count: 200, base: smsValues, bad: implausibleMobile, build: smsField('phoneNumber', STRICT), breaks: breaksMobileLength }),
	category({ name: 'sms: Indonesian mobile number too short or long (default format)', kind: 'sms', label: 'Phone Number', count: 200, base: smsValues, bad: implausibleMobileLocal, build: smsField('phoneNumber', DEFAULTS), breaks: breaksMobileLength }),
	category({ name: 'sms: message empty or not text', kind: 'sms', label: 'Message', count: 600, base: smsValues, bad: badRequiredText, build: smsField('message', STRICT), breaks: breaksRequiredText }),
	// Chat Message → Send Media
	category({ name: 'media: To not E.164 (strict)', kind: 'media', label: 'To', count: 500, base: mediaValues, bad: badPhoneStrict, build: mediaField('to', STRICT), breaks: breaksE164 }),
	category({ name: 'media: From not E.164 (default format)', kind: 'media', label: 'From', count: 300, base: mediaValues, bad: badPhoneAnyFormat, build: mediaField('from', DEFAULTS), breaks: breaksE164 }),
	category({ name: 'media: Media URL not an https link', kind: 'media', label: 'Media URL', count: 1300, base: mediaValues, bad: badLink, build: mediaField('mediaUrl', STRICT), breaks: breaksHttpsLink }),
	category({ name: 'media: caption not text', kind: 'media', label: 'Caption', count: 150, base: imageValues, bad: badCaption, build: mediaField('caption', STRICT), breaks: breaksCaption }),
	category({ name: 'media: media type unknown', kind: 'media', label: 'Media Type', count: 150, base: mediaValues, bad: badMediaType, build: mediaField('mediaType', STRICT), breaks: breaksMediaType }),
	// Chat Message → Send Template
	category({ name: 'template: To not E.164 (strict)', kind: 'template', label: 'To', count: 400, base: templateValues, bad: badPhoneStrict, build: templateField('to', STRICT), breaks: breaksE164 }),
	category({ name: 'template: From not E.164 (default format)', kind: 'template', label: 'From', count: 200, base: templateValues, bad: badPhoneAnyFormat, build: templateField('from', DEFAULTS), breaks: breaksE164 }),
	category({ name: 'template: To an Indonesian mobile number too short or long (default format)', kind: 'template', label: 'To', count: 200, base: templateValues, bad: implausibleMobileLocal, build: templateField('to', DEFAULTS), breaks: breaksMobileLength }),
	category({ name: 'template: template name empty or not text', kind: 'template', label: 'Template Name', count: 300, base: templateValues, bad: badRequiredText, build: templateField('templateName', STRICT), breaks: breaksRequiredText }),
	category({ name: 'template: language code empty or not text', kind: 'template', label: 'Language Code', count: 150, base: templateValues, bad: badRequiredText, build: templateField('languageCode', STRICT), breaks: breaksRequiredText }),
	category({ name: 'template: language policy empty or not text', kind: 'template', label: 'Language Policy', count: 150, base: templateValues, bad: badRequiredText, build: templateField('languagePolicy', STRICT), breaks: breaksRequiredText }),
	category({ name: 'template: body parameter empty or not text', kind: 'template', label: 'Body Parameters', count: 400, base: templateValues, bad: badRequiredText, build: (base, bad) => templateTree(withBodyParameter(base, bad)), breaks: breaksRequiredText }),
	category({ name: 'template: header image not an https link', kind: 'template', label: 'Header Image URL', count: 500, base: templateValues, bad: badHeaderLink, build: templateField('header', STRICT), breaks: breaksHttpsLink }),
	category({ name: 'template: quick reply buttons too many, repeated, out of range or empty', kind: 'template', label: 'Quick Reply Buttons', count: 900, base: templateValues, bad: badQuickReplies, build: (base, bad) => templateTree(withQuickReplies(base, bad)), breaks: breaksQuickReplies }),
	category({ name: 'template: URL button index or parameter invalid', kind: 'template', label: 'URL Button', count: 400, base: templateValues, bad: badUrlButton, build: (base, bad) => templateTree(withUrlButton(base, bad)), breaks: breaksUrlButton }),
	category({ name: 'template: Components (JSON) wrong', kind: 'template', label: 'Components (JSON)', count: 1500, base: templateValues, bad: badComponentsJson, build: (base, bad) => templateJsonTree(base, new PerItem(bad, JSON.stringify(componentsOf(base)))), breaks: breaksComponents }),
	// Combined Notification → Send with Failover
	category({ name: 'combined: To not E.164 (strict)', kind: 'combined', label: 'To', count: 200, base: combinedValues, bad: badPhoneStrict, build: combinedField('to', STRICT), breaks: breaksE164 }),
	category({ name: 'combined: quick reply buttons invalid', kind: 'combined', label: 'Quick Reply Buttons', count: 300, base: combinedValues, bad: badQuickReplies, build: (base, bad) => combinedTree(withQuickReplies(base, bad)), breaks: breaksQuickReplies }),
	category({ name: 'combined: Components (JSON) wrong', kind: 'combined', label: 'Components (JSON)', count: 200, base: combinedValues, bad: badComponentsJson, build: (base, bad) => combinedJsonTree(base, new PerItem(bad, JSON.stringify(componentsOf(base)))), breaks: breaksComponents }),
	category({ name: 'combined: SMS phone number not E.164 (strict)', kind: 'combined', label: 'SMS Phone Number', count: 300, base: combinedValues, bad: badPhoneStrict, build: combinedField('phoneNumber', STRICT), breaks: breaksE164 }),
	category({ name: 'combined: SMS phone number outside +62 (strict)', kind: 'combined', label: 'SMS Phone Number', count: 300, base: combinedValues, bad: wrongCountry, build: combinedField('phoneNumber', STRICT), breaks: breaksSmsNumber }),
	category({ name: 'combined: SMS message empty or not text', kind: 'combined', label: 'SMS Message', count: 200, base: combinedValues, bad: badRequiredText, build: combinedField('message', STRICT), breaks: breaksRequiredText }),
];
