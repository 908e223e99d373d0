/**
 * Hand-written request checks for the sandbox of the Multi-Channel Notification Service.
 *
 * This file is deliberately independent of the node's zod schemas: it is a second reading of
 * shared/spec/notification-service-api.md, so a rule the node gets wrong shows up as a 400 here
 * instead of being confirmed by the same code. Every check returns the first problem found as
 * `<field path>: <rule>` text, or null when the request is acceptable. The checks are stricter
 * than the spec requires (unknown keys are rejected at every level) because their job is to
 * catch client bugs.
 *
 * This file holds the endpoints and the message types; templateChecks.ts the template message,
 * fieldChecks.ts the checks of single fields they share.
 */
import type { JsonObject } from './fieldChecks';
import { checkHttpsUrl, checkNonEmptyString, checkPhone, checkShape, isE164, isJsonObject, join, kindOf } from './fieldChecks';
import { checkTemplate } from './templateChecks';

export { checkHttpsUrl, isE164 };

export const WA_MESSAGE_PATH = '/v1/wa/message';
export const SMS_PATH = '/v1/sms/notification';
export const COMBINED_PATH = '/v1/combined/notification/failover';
export const API_PATHS: readonly string[] = [WA_MESSAGE_PATH, SMS_PATH, COMBINED_PATH];

export const MEDIA_TYPES: readonly string[] = ['image', 'video', 'audio', 'document'];
const MESSAGE_TYPES: readonly string[] = ['template', ...MEDIA_TYPES];
/** Spec, SMS notification request: only country code +62 is allowed for now. */
const SMS_COUNTRY_PREFIX = '+62';

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
