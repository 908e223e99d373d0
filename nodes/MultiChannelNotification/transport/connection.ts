import type { ICredentialDataDecryptedObject, ICredentialsDecrypted, IExecuteFunctions } from 'n8n-workflow';

import { credentialError } from '../helpers/errors';
import type { Scrubber } from './secrets';
import { makeScrubber } from './secrets';

export const CREDENTIAL_TYPE = 'multiChannelNotificationApi';

/** Everything a send needs from the credential, checked once per execution. */
export interface ServiceConnection {
	/** Base URL without trailing slashes and without a trailing /v1. */
	baseUrl: string;
	/** Origin of the Base URL: the only place the key is ever sent. */
	origin: string;
	/** The key as sent (outer whitespace trimmed). Used only to authenticate and to scrub. */
	apiKey: string;
	/** The credential's Ignore SSL Issues (Insecure): sends skip the certificate check. */
	ignoreSslIssues: boolean;
	scrub: Scrubber;
	/**
	 * The credential, decrypted once per execution and handed to n8n's request helper, which
	 * would otherwise load and decrypt it again for every request.
	 */
	credential: ICredentialsDecrypted;
}

/** The Base URL as it may be shown: any user:password part replaced, so it is never echoed. */
function shown(text: string): string {
	return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

type Checked<T> = { ok: T } | { problem: string };

/** The credential's two switches for self-hosted services, as the editor names them. */
export const ALLOW_PLAIN_HTTP = 'Allow Plain HTTP';
export const IGNORE_SSL_ISSUES = 'Ignore SSL Issues (Insecure)';

/**
 * The credential's Base URL, checked. Only https, unless the credential's Allow Plain HTTP is on:
 * over plain http any proxy or network hop would read the key. A user:password part would make
 * the HTTP client replace the key with Basic auth, a query or fragment would misroute every
 * endpoint, and a trailing /v1 (the endpoints' own prefix) is dropped rather than doubled.
 */
export function checkBaseUrl(
	raw: unknown,
	{ allowPlainHttp = false }: { allowPlainHttp?: boolean } = {},
): Checked<{ baseUrl: string; origin: string }> {
	const text = typeof raw === 'string' ? raw.trim() : '';
	if (text === '') return { problem: 'the Base URL is empty' };
	const safe = shown(text);
	if (/\s/.test(text)) return { problem: `the Base URL "${safe}" contains a space or line break` };
	if (safe !== text) {
		return {
			problem: `the Base URL "${safe}" must not contain a user name or password (user:password@): put the key in the API Key field`,
		};
	}
	if (/[?#]/.test(text)) {
		return { problem: `the Base URL "${text}" must not contain a query (?…) or fragment (#…)` };
	}
	// A host written without its scheme ("notify.example.com", "localhost:8443") is the usual slip.
	if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
		return { problem: `the Base URL "${text}" must start with https://, e.g. https://${text.replace(/^\/+/, '')}` };
	}
	if (!URL.canParse(text)) {
		return { problem: `the Base URL "${text}" is not a valid URL: write it as https://host[:port][/path], e.g. https://notify.example.com` };
	}
	const url = new URL(text);
	if (url.protocol === 'http:' && !allowPlainHttp) {
		return {
			problem: `the Base URL "${text}" must use https:// so the API key never crosses a network in clear. For a service on this host or a private network you trust, turn on ${ALLOW_PLAIN_HTTP} in the credential`,
		};
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return { problem: `the Base URL "${text}" must use https://${allowPlainHttp ? ' (or http://)' : ''}` };
	}
	const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '').replace(/\/+$/, '');
	return { ok: { baseUrl: `${url.origin}${path}`, origin: url.origin } };
}

/**
 * The API key, checked: an HTTP header cannot carry a line break, a control character or a
 * non-ASCII character, and a space inside a key is a copy-paste slip. Outer whitespace is
 * trimmed. The problem never quotes the key.
 */
export function checkApiKey(raw: unknown): Checked<string> {
	const key = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';
	if (key === '') return { problem: 'the API key is empty' };
	for (let index = 0; index < key.length; index++) {
		const code = key.charCodeAt(index);
		const position = `character ${index + 1} of ${key.length}`;
		if (code === 0x0a || code === 0x0d) return { problem: `the API key contains a line break (${position})` };
		if (code === 0x20 || code === 0x09) return { problem: `the API key contains a space or tab inside it (${position})` };
		if (code < 0x20 || code === 0x7f) return { problem: `the API key contains a control character (${position})` };
		if (code > 0x7e) {
			return { problem: `the API key contains a non-ASCII character (${position}); an HTTP header cannot carry it` };
		}
	}
	return { ok: key };
}

/**
 * Both checks on a decrypted credential, with its switches (off unless set: a credential saved
 * before they existed has neither); the first problem found, if any.
 */
export function checkCredential(
	data: ICredentialDataDecryptedObject,
): Checked<{ baseUrl: string; origin: string; apiKey: string; ignoreSslIssues: boolean }> {
	const url = checkBaseUrl(data.baseUrl, { allowPlainHttp: data.allowPlainHttp === true });
	if ('problem' in url) return url;
	const key = checkApiKey(data.apiKey);
	if ('problem' in key) return key;
	return { ok: { ...url.ok, apiKey: key.ok, ignoreSslIssues: data.ignoreSslIssues === true } };
}

export async function getConnection(this: IExecuteFunctions): Promise<ServiceConnection> {
	const data: ICredentialDataDecryptedObject = await this.getCredentials(CREDENTIAL_TYPE);
	const checked = checkCredential(data);
	if ('problem' in checked) throw credentialError(this.getNode(), checked.problem);
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	const { apiKey } = checked.ok;
	return {
		...checked.ok,
		scrub: makeScrubber(apiKey),
		credential: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: { ...data, apiKey },
		},
	};
}
