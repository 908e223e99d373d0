import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { checkBaseUrl, credentialProblem, IGNORE_SSL_ISSUES } from './connection';

/**
 * Where the credential's `authenticate` may put the key: only on a request for the Base URL's
 * origin (scheme, host and port, the Base URL read by the same schema as a send reads it). n8n
 * runs `authenticate` for any node the credential is used in, the HTTP Request node included, on
 * the request as that node built it: `url` (n8n's request helper) or `uri` (its older helper,
 * which the HTTP Request node uses), either one possibly relative to `baseURL`. Every address the
 * request names must be on the origin, resolved both as a URL resolves (`new URL(url, baseURL)`)
 * and as n8n's HTTP client joins them (baseURL + "/" + url unless url starts with a scheme or
 * "//"), so no reading of the request can take the key elsewhere. A request that names its own
 * proxy, or asks to skip the certificate check while the credential's Ignore SSL Issues
 * (Insecure) is off, could hand the key to someone posing as the origin: refused too.
 */

/** What the credential calls itself in a refusal. */
const CREDENTIAL = 'The Multi-Channel Notification API credential';

/** The part of a request `authenticate` is handed that says where it goes. */
export interface RequestDestination {
	url?: unknown;
	uri?: unknown;
	baseURL?: unknown;
	proxy?: unknown;
	/** n8n's request helper: skip the certificate check. */
	skipSslCertificateValidation?: unknown;
	/** n8n's older helper (the HTTP Request node's Ignore SSL Issues): false skips the check. */
	rejectUnauthorized?: unknown;
}

/** n8n's HTTP client (axios) treats these as absolute and ignores baseURL for them. */
const ABSOLUTE = /^([a-z][a-z\d+\-.]*:)?\/\//i;

const parsed = (text: string, base?: string): URL | undefined => (URL.canParse(text, base) ? new URL(text, base) : undefined);

/** Every reading of one address: undefined for one that cannot be read. */
function readings(address: string, baseURL: unknown): Array<URL | undefined> {
	if (typeof baseURL !== 'string' || baseURL === '' || ABSOLUTE.test(address)) return [parsed(address)];
	const joined = `${baseURL.replace(/\/+$/, '')}/${address.replace(/^\/+/, '')}`;
	return [parsed(address, baseURL), parsed(joined)];
}

/** Where a URL goes, as a refusal says it (never its path or query, which may hold private data). */
const destination = (url: URL): string => (url.origin === 'null' ? `a ${url.protocol} address` : url.origin);

/**
 * The Base URL as `checkBaseUrl` reads it, remembered for the last credential values: n8n calls
 * `authenticate` for every request, and reading the Base URL through its schema costs about a
 * tenth of a millisecond, each time the same.
 */
let lastChecked: { baseUrl: unknown; allowPlainHttp: boolean; checked: ReturnType<typeof checkBaseUrl> } | undefined;

function checkedBaseUrl(baseUrl: unknown, allowPlainHttp: boolean): ReturnType<typeof checkBaseUrl> {
	if (lastChecked === undefined || lastChecked.baseUrl !== baseUrl || lastChecked.allowPlainHttp !== allowPlainHttp) {
		lastChecked = { baseUrl, allowPlainHttp, checked: checkBaseUrl(baseUrl, { allowPlainHttp }) };
	}
	return lastChecked.checked;
}

/**
 * Why the key may not go on this request, as the sentence the user reads (saying nothing was
 * sent); undefined when it may.
 */
export function keyDestinationRefusal(credentials: ICredentialDataDecryptedObject, request: RequestDestination): string | undefined {
	const checked = checkedBaseUrl(credentials.baseUrl, credentials.allowPlainHttp === true);
	if ('problems' in checked) return `Credential problem: ${credentialProblem(checked.problems)}. Nothing was sent.`;
	const { origin } = checked.data;
	const only = `${CREDENTIAL} sends its API key only to its Base URL origin, ${origin}`;
	const addresses = [request.url, request.uri].filter((address) => address !== undefined && address !== null);
	if (addresses.length === 0) return `${only}; this request names no URL. Nothing was sent.`;
	for (const address of addresses) {
		for (const url of readings(String(address), request.baseURL)) {
			if (url === undefined) return `${only}; this request's URL cannot be read as a full URL. Nothing was sent.`;
			if (url.origin !== origin) return `${only}; this request is for ${destination(url)}. Nothing was sent.`;
		}
	}
	if (request.proxy !== undefined && request.proxy !== null && request.proxy !== '' && request.proxy !== false) {
		return `${only}, never through a proxy set on the request (n8n's own HTTP_PROXY and HTTPS_PROXY settings still apply): remove the request's proxy. Nothing was sent.`;
	}
	if ((request.skipSslCertificateValidation === true || request.rejectUnauthorized === false) && credentials.ignoreSslIssues !== true) {
		return `${CREDENTIAL} sends its API key only over a connection whose certificate is checked, unless its own ${IGNORE_SSL_ISSUES} is on (it is off): without the check anyone on the network path could pose as ${origin} and read the key. Turn off this request's own option to ignore SSL issues, or turn on ${IGNORE_SSL_ISSUES} in the credential. Nothing was sent.`;
	}
	return undefined;
}

