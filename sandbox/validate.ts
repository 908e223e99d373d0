/**
 * Hand-written request checks for the sandbox of the Multi-Channel Notification Service.
 *
 * This file is deliberately independent of the node's zod schemas: it is a second reading of
 * shared/spec/notification-service-api.md, so a rule the node gets wrong shows up as a 400 here
 * instead of being confirmed by the same code. Every check returns the first problem found as
 * `<field path>: <rule>` text, or null when the request is acceptable. The checks are stricter
 * than the spec requires (unknown keys are rejected at every level) because their job is to
 * catch client bugs.
 */

export const WA_MESSAGE_PATH = '/v1/wa/message';
export const SMS_PATH = '/v1/sms/notification';
export const COMBINED_PATH = '/v1/combined/notification/failover';
export const API_PATHS: readonly string[] = [WA_MESSAGE_PATH, SMS_PATH, COMBINED_PATH];

export const MEDIA_TYPES: readonly string[] = ['image', 'video', 'audio', 'document'];
const MESSAGE_TYPES: readonly string[] = ['template', ...MEDIA_TYPES];

/** E.164: a plus sign, then 7 to 15 digits of which the first is not 0. */
const E164 = /^\+[1-9]\d{6,14}$/;
/** Spec, SMS notification request: only country code +62 is allowed for now. */
const SMS_COUNTRY_PREFIX = '+62';
/** Spec, limits: at most 3 quick reply buttons, index values 0 to 2. */
const QUICK_REPLY_INDEXES: readonly string[] = ['0', '1', '2'];
const MAX_QUICK_REPLIES = 3;
const DIGITS = /^\d+$/;
const WHITESPACE = /\s/;

type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string): string {
	return path === '' ? key : `${path}.${key}`;
}

/** Describes a value by its JSON kind, so messages say what was sent without echoing it whole. */
function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/**
 * Checks that `value` is an object whose keys are all in `required` or `optional`, and that every
 * required key is present. Unknown keys are reported before missing ones because a misspelt key
 * usually explains the missing one.
 */
function checkShape(
	value: unknown,
	path: string,
	required: readonly string[],
	optional: readonly string[] = [],
): string | null {
	const label = path === '' ? 'body' : path;
	if (!isJsonObject(value)) return `${label}: must be an object (got ${kindOf(value)})`;
	for (const key of Object.keys(value)) {
		if (!required.includes(key) && !optional.includes(key)) {
			const allowed = [...required, ...optional].join(', ');
			return `${join(path, key)}: unknown field (allowed here: ${allowed})`;
		}
	}
	for (const key of required) {
		if (!(key in value)) return `${join(path, key)}: is required`;
	}
	return null;
}

function checkNonEmptyString(value: unknown, path: string): string | null {
	if (typeof value !== 'string') return `${path}: must be a string (got ${kindOf(value)})`;
	if (value.length === 0) return `${path}: must not be empty`;
	return null;
}

function checkLiteral(value: unknown, path: string, expected: string): string | null {
	if (value !== expected) return `${path}: must be "${expected}"`;
	return null;
}

export function isE164(value: unknown): value is string {
	return typeof value === 'string' && E164.test(value);
}

function checkPhone(value: unknown, path: string): string | null {
	if (typeof value !== 'string') return `${path}: must be a string (got ${kindOf(value)})`;
	if (!E164.test(value)) {
		return `${path}: must be an E.164 phone number: "+" then 7 to 15 digits, the first not 0 (got "${value}")`;
	}
	return null;
}

/** Spec, rule "Media URLs use https"; the header image link is held to the same rule. */
export function checkHttpsUrl(value: unknown, path: string): string | null {
	if (typeof value !== 'string') return `${path}: must be a string (got ${kindOf(value)})`;
	if (value.length === 0) return `${path}: must not be empty`;
	// The URL parser silently trims and re-encodes whitespace; a link with spaces is a client bug.
	if (WHITESPACE.test(value) || !URL.canParse(value)) return `${path}: must be a valid URL`;
	const url = new URL(value);
	if (url.protocol !== 'https:') return `${path}: must use https (got ${url.protocol.slice(0, -1)})`;
	if (url.hostname === '') return `${path}: must have a host`;
	return null;
}

/** Checks an array holding exactly one parameter object, returning it when it does. */
function checkSingleParameter(value: unknown, path: string): { error: string } | { parameter: unknown } {
	if (!Array.isArray(value)) return { error: `${path}: must be an array (got ${kindOf(value)})` };
	if (value.length !== 1) {
		return { error: `${path}: must contain exactly one parameter (got ${value.length})` };
	}
	return { parameter: value[0] };
}

function checkHeader(component: JsonObject, path: string): string | null {
	const shape = checkShape(component, path, ['type', 'parameters']);
	if (shape) return shape;
	const single = checkSingleParameter(component.parameters, `${path}.parameters`);
	if ('error' in single) return single.error;
	const pPath = `${path}.parameters[0]`;
	const pShape = checkShape(single.parameter, pPath, ['type', 'image']);
	if (pShape) return pShape;
	const parameter = single.parameter as JsonObject;
	const typeError = checkLiteral(parameter.type, `${pPath}.type`, 'image');
	if (typeError) return typeError;
	const imageShape = checkShape(parameter.image, `${pPath}.image`, ['link']);
	if (imageShape) return imageShape;
	return checkHttpsUrl((parameter.image as JsonObject).link, `${pPath}.image.link`);
}

function checkBody(component: JsonObject, path: string): string | null {
	const shape = checkShape(component, path, ['type', 'parameters']);
	if (shape) return shape;
	const parameters = component.parameters;
	const listPath = `${path}.parameters`;
	// An empty list is allowed: a template whose content has no placeholders needs no values.
	if (!Array.isArray(parameters)) return `${listPath}: must be an array (got ${kindOf(parameters)})`;
	for (let i = 0; i < parameters.length; i++) {
		const pPath = `${listPath}[${i}]`;
		const pShape = checkShape(parameters[i], pPath, ['type', 'text']);
		if (pShape) return pShape;
		const parameter = parameters[i] as JsonObject;
		const typeError = checkLiteral(parameter.type, `${pPath}.type`, 'text');
		if (typeError) return typeError;
		const textError = checkNonEmptyString(parameter.text, `${pPath}.text`);
		if (textError) return textError;
	}
	return null;
}

function checkButton(component: JsonObject, path: string): string | null {
	const shape = checkShape(component, path, ['type', 'sub_type', 'index', 'parameters']);
	if (shape) return shape;
	const subType = component.sub_type;
	if (subType !== 'quick_reply' && subType !== 'url') {
		return `${path}.sub_type: must be "quick_reply" or "url"`;
	}
	const index = component.index;
	// The spec calls the index a "string position"; a number here is the classic client slip.
	if (typeof index !== 'string') return `${path}.index: must be a string (got ${kindOf(index)})`;
	if (subType === 'quick_reply' && !QUICK_REPLY_INDEXES.includes(index)) {
		return `${path}.index: a quick reply button index must be "0", "1" or "2" (got "${index}")`;
	}
	if (subType === 'url' && !DIGITS.test(index)) {
		return `${path}.index: a url button index must be a string of digits (got "${index}")`;
	}
	const single = checkSingleParameter(component.parameters, `${path}.parameters`);
	if ('error' in single) return single.error;
	const pPath = `${path}.parameters[0]`;
	const valueKey = subType === 'quick_reply' ? 'payload' : 'text';
	const pShape = checkShape(single.parameter, pPath, ['type', valueKey]);
	if (pShape) return pShape;
	const parameter = single.parameter as JsonObject;
	const typeError = checkLiteral(parameter.type, `${pPath}.type`, valueKey);
	if (typeError) return typeError;
	return checkNonEmptyString(parameter[valueKey], `${pPath}.${valueKey}`);
}

function checkComponents(value: unknown, path: string): string | null {
	if (!Array.isArray(value)) return `${path}: must be an array of component objects (got ${kindOf(value)})`;
	let headers = 0;
	let bodies = 0;
	let quickReplies = 0;
	const buttonIndexes = new Map<string, number>();
	for (let i = 0; i < value.length; i++) {
		const cPath = `${path}[${i}]`;
		const component: unknown = value[i];
		if (!isJsonObject(component)) return `${cPath}: must be an object (got ${kindOf(component)})`;
		if (!('type' in component)) return `${cPath}.type: is required`;
		let error: string | null;
		switch (component.type) {
			case 'header':
				headers++;
				if (headers > 1) return `${cPath}: at most one header component is allowed`;
				error = checkHeader(component, cPath);
				break;
			case 'body':
				bodies++;
				if (bodies > 1) return `${cPath}: exactly one body component is allowed (this is a second one)`;
				error = checkBody(component, cPath);
				break;
			case 'button':
				error = checkButton(component, cPath);
				if (error) return error;
				if (component.sub_type === 'quick_reply') {
					quickReplies++;
					if (quickReplies > MAX_QUICK_REPLIES) {
						return `${cPath}: at most ${MAX_QUICK_REPLIES} quick reply buttons are allowed (this is number ${quickReplies})`;
					}
				}
				{
					// Two buttons at the same position cannot both fill the template.
					const index = component.index as string;
					const first = buttonIndexes.get(index);
					if (first !== undefined) {
						return `${cPath}.index: "${index}" is already used by ${path}[${first}]; button indexes must be distinct`;
					}
					buttonIndexes.set(index, i);
				}
				break;
			default:
				return `${cPath}.type: must be "header", "body" or "button"`;
		}
		if (error) return error;
	}
	// Spec, template message object, rule 1: the body component is required.
	if (bodies === 0) return `${path}: the body component is required`;
	return null;
}

function checkTemplate(value: unknown, path: string): string | null {
	const shape = checkShape(value, path, ['name', 'language', 'components']);
	if (shape) return shape;
	const template = value as JsonObject;
	const nameError = checkNonEmptyString(template.name, `${path}.name`);
	if (nameError) return nameError;
	const languagePath = `${path}.language`;
	const languageShape = checkShape(template.language, languagePath, ['policy', 'code']);
	if (languageShape) return languageShape;
	const language = template.language as JsonObject;
	const policyError = checkNonEmptyString(language.policy, `${languagePath}.policy`);
	if (policyError) return policyError;
	const codeError = checkNonEmptyString(language.code, `${languagePath}.code`);
	if (codeError) return codeError;
	return checkComponents(template.components, `${path}.components`);
}

function checkMedia(message: JsonObject, type: string, prefix: string): string | null {
	const mediaPath = join(prefix, type);
	if ('recipient_type' in message) {
		const recipientError = checkNonEmptyString(message.recipient_type, join(prefix, 'recipient_type'));
		if (recipientError) return recipientError;
	}
	// Only an image carries a caption (spec, media message objects).
	const optional = type === 'image' ? ['caption'] : [];
	const shape = checkShape(message[type], mediaPath, ['link'], optional);
	if (shape) return shape;
	const media = message[type] as JsonObject;
	const linkError = checkHttpsUrl(media.link, `${mediaPath}.link`);
	if (linkError) return linkError;
	if ('caption' in media && typeof media.caption !== 'string') {
		return `${mediaPath}.caption: must be a string (got ${kindOf(media.caption)})`;
	}
	return null;
}

/**
 * Checks a `/v1/wa/message` body. `prefix` names where the message sits (e.g. `chat` inside a
 * combined notification); `templateOnly` is set there because the combined request carries a
 * template message only.
 */
export function validateChatMessage(body: unknown, prefix = '', templateOnly = false): string | null {
	const label = prefix === '' ? 'body' : prefix;
	if (!isJsonObject(body)) return `${label}: must be an object (got ${kindOf(body)})`;
	const typePath = join(prefix, 'type');
	// The type decides which other keys are allowed, so it is checked first.
	if (!('type' in body)) return `${typePath}: is required`;
	const type = body.type;
	if (templateOnly) {
		if (type !== 'template') return `${typePath}: must be "template" (a combined notification carries a template message)`;
	} else if (typeof type !== 'string' || !MESSAGE_TYPES.includes(type)) {
		return `${typePath}: must be one of ${MESSAGE_TYPES.map((t) => `"${t}"`).join(', ')}`;
	}
	const messageType = type as string;
	// A payload key for another type is the likeliest mix-up; name it plainly.
	for (const other of MESSAGE_TYPES) {
		if (other !== messageType && other in body) {
			return `${join(prefix, other)}: not allowed when type is "${messageType}"`;
		}
	}
	if (messageType === 'template' && 'recipient_type' in body) {
		return `${join(prefix, 'recipient_type')}: only allowed in media messages`;
	}
	const optional = messageType === 'template' ? [] : ['recipient_type'];
	const shape = checkShape(body, prefix, ['from', 'to', 'type', messageType], optional);
	if (shape) return shape;
	const fromError = checkPhone(body.from, join(prefix, 'from'));
	if (fromError) return fromError;
	const toError = checkPhone(body.to, join(prefix, 'to'));
	if (toError) return toError;
	if (messageType === 'template') return checkTemplate(body.template, join(prefix, 'template'));
	return checkMedia(body, messageType, prefix);
}

/** Checks a `/v1/sms/notification` body (or the `sms` part of a combined one). */
export function validateSms(body: unknown, prefix = ''): string | null {
	const shape = checkShape(body, prefix, ['phone_number', 'message']);
	if (shape) return shape;
	const sms = body as JsonObject;
	const phonePath = join(prefix, 'phone_number');
	const phoneError = checkPhone(sms.phone_number, phonePath);
	if (phoneError) return phoneError;
	if (!(sms.phone_number as string).startsWith(SMS_COUNTRY_PREFIX)) {
		return `${phonePath}: only Indonesian numbers (country code ${SMS_COUNTRY_PREFIX}) are allowed`;
	}
	return checkNonEmptyString(sms.message, join(prefix, 'message'));
}

/** Checks a `/v1/combined/notification/failover` body: both parts must be valid on their own. */
export function validateCombined(body: unknown): string | null {
	const shape = checkShape(body, '', ['chat', 'sms']);
	if (shape) return shape;
	const combined = body as JsonObject;
	return validateChatMessage(combined.chat, 'chat', true) ?? validateSms(combined.sms, 'sms');
}

/** Dispatches to the check for an API path; null for a valid body. */
export function validateRequest(path: string, body: unknown): string | null {
	switch (path) {
		case WA_MESSAGE_PATH:
			return validateChatMessage(body);
		case SMS_PATH:
			return validateSms(body);
		case COMBINED_PATH:
			return validateCombined(body);
		default:
			return `${path}: unknown endpoint`;
	}
}
