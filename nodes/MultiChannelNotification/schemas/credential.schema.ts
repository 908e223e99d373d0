import { z } from 'zod/v4';

import type { FieldLabels } from './common';
import { ruleShowing } from './shown';

/**
 * The credential (Multi-Channel Notification API) as a send and the credential test use it. The
 * Base URL is https only, unless Allow Plain HTTP is on: over plain http any proxy or network hop
 * would read the key. A user:password part would make the HTTP client replace the key with Basic
 * auth, a query or fragment would misroute every endpoint, and a trailing /v1 (the endpoints' own
 * prefix) is dropped rather than doubled. An HTTP header cannot carry a line break, a control
 * character or a non-ASCII character of the key, and a space inside a key is a copy-paste slip.
 * Each field's first broken rule is its problem; no rule shows the value: the key is a secret,
 * and a rule quotes the Base URL itself, without its user:password part.
 */

/** The credential's two switches for self-hosted services, as the editor names them. */
export const ALLOW_PLAIN_HTTP = 'Allow Plain HTTP';
export const IGNORE_SSL_ISSUES = 'Ignore SSL Issues (Insecure)';

export const CREDENTIAL_LABELS = { baseUrl: { label: 'Base URL' }, apiKey: { label: 'API Key' } } satisfies FieldLabels;

const never = () => null;
const STOP = { stop: true };
const rule = (holds: (text: string) => boolean, text: string | ((value: string) => string)) => ruleShowing(holds, text, never, STOP);

/** The Base URL as it may be shown: any user:password part replaced, so it is never echoed. */
const shown = (text: string) => text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
const protocolOf = (text: string) => new URL(text).protocol;

function baseUrl(allowPlainHttp: boolean) {
	return z
		.unknown()
		.transform((raw) => (typeof raw === 'string' ? raw.trim() : ''))
		.superRefine(rule((text) => text !== '', 'is empty'))
		.superRefine(rule((text) => !/\s/.test(text), (text) => `"${shown(text)}" contains a space or line break`))
		.superRefine(
			rule(
				(text) => shown(text) === text,
				(text) => `"${shown(text)}" must not contain a user name or password (user:password@): put the key in the API Key field`,
			),
		)
		.superRefine(rule((text) => !/[?#]/.test(text), (text) => `"${text}" must not contain a query (?…) or fragment (#…)`))
		// A host written without its scheme ("notify.example.com", "localhost:8443") is the usual slip.
		.superRefine(
			rule((text) => /^[a-z][a-z0-9+.-]*:\/\//i.test(text), (text) => `"${text}" must start with https://, e.g. https://${text.replace(/^\/+/, '')}`),
		)
		.superRefine(
			rule(
				(text) => URL.canParse(text),
				(text) => `"${text}" is not a valid URL: write it as https://host[:port][/path], e.g. https://notify.example.com`,
			),
		)
		.superRefine(
			rule(
				(text) => allowPlainHttp || protocolOf(text) !== 'http:',
				(text) =>
					`"${text}" must use https:// so the API key never crosses a network in clear. For a service on this host or a private network you trust, turn on ${ALLOW_PLAIN_HTTP} in the credential`,
			),
		)
		.superRefine(
			rule(
				(text) => ['https:', 'http:'].includes(protocolOf(text)),
				(text) => `"${text}" must use https://${allowPlainHttp ? ' (or http://)' : ''}`,
			),
		)
		.transform((text) => {
			const url = new URL(text);
			const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '').replace(/\/+$/, '');
			return { baseUrl: `${url.origin}${path}`, origin: url.origin };
		});
}

/** The first character a header cannot carry, said with where it is; undefined when there is none. */
function badCharacter(key: string): string | undefined {
	for (let index = 0; index < key.length; index++) {
		const code = key.charCodeAt(index);
		const position = `character ${index + 1} of ${key.length}`;
		if (code === 0x0a || code === 0x0d) return `a line break (${position})`;
		if (code === 0x20 || code === 0x09) return `a space or tab inside it (${position})`;
		if (code < 0x20 || code === 0x7f) return `a control character (${position})`;
		if (code > 0x7e) return `a non-ASCII character (${position}); an HTTP header cannot carry it`;
	}
	return undefined;
}

/** The key as sent: outer whitespace trimmed, a number as its digits. */
const apiKey = z
	.unknown()
	.transform((raw) => (typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : ''))
	.superRefine(rule((key) => key !== '', 'is empty'))
	.superRefine(rule((key) => badCharacter(key) === undefined, (key) => `contains ${badCharacter(key)}`));

const BASE_URLS = { https: baseUrl(false), plainHttpToo: baseUrl(true) };
const baseUrlFor = (allowPlainHttp: boolean) => (allowPlainHttp ? BASE_URLS.plainHttpToo : BASE_URLS.https);

/** The Base URL alone, with or without Allow Plain HTTP: its value is the Base URL as used and its origin. */
export const baseUrlSchema = (allowPlainHttp: boolean) => z.object({ baseUrl: baseUrlFor(allowPlainHttp) }).transform((fields) => fields.baseUrl);

export const apiKeySchema = z.object({ apiKey }).transform((fields) => fields.apiKey);

/** The whole credential; its switches are off unless exactly on (one saved before they existed has neither). */
const credential = (allowPlainHttp: boolean) =>
	z
		.object({ baseUrl: baseUrlFor(allowPlainHttp), apiKey, ignoreSslIssues: z.unknown().transform((value) => value === true) })
		.transform((fields) => ({ ...fields.baseUrl, apiKey: fields.apiKey, ignoreSslIssues: fields.ignoreSslIssues }));
const CREDENTIALS = { https: credential(false), plainHttpToo: credential(true) };
export const credentialSchema = (allowPlainHttp: boolean) => (allowPlainHttp ? CREDENTIALS.plainHttpToo : CREDENTIALS.https);
