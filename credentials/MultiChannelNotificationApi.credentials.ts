import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import type { RequestDestination } from '../nodes/MultiChannelNotification/transport/keyDestination';
import { keyDestinationRefusal } from '../nodes/MultiChannelNotification/transport/keyDestination';

/**
 * A request with the key never follows a redirect: n8n would otherwise copy the key to wherever
 * the service redirects (to another origin too, unless the node tells it not to). `followRedirect`
 * and `followAllRedirects` are what n8n's older request helper (the HTTP Request node's) reads.
 */
const NO_REDIRECTS = { disableFollowRedirect: true, followRedirect: false, followAllRedirects: false };

/**
 * Spec, Authentication: the header value is the key itself, with no scheme prefix. Outer
 * whitespace (a copy-paste slip) is trimmed; a key that still cannot go into a header is
 * refused by the node before anything is sent. n8n offers the credential to any node (the HTTP
 * Request node too, with "Custom API Call"), so the key goes only on a request for the Base
 * URL's origin, over a checked certificate unless the credential's Ignore SSL Issues is on
 * (transport/keyDestination.ts); any other request is refused before it is sent.
 * A function rather than a `={{$credentials…}}` expression: an expression cannot refuse a
 * request, and n8n calls a function directly instead of running its expression engine on
 * every request.
 */
async function authorize(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const refusal = keyDestinationRefusal(credentials, requestOptions as RequestDestination);
	if (refusal !== undefined) throw new UserError(refusal);
	const key = typeof credentials.apiKey === 'string' ? credentials.apiKey.trim() : String(credentials.apiKey ?? '');
	return { ...requestOptions, ...NO_REDIRECTS, headers: { ...(requestOptions.headers ?? {}), Authorization: key } };
}

export class MultiChannelNotificationApi implements ICredentialType {
	name = 'multiChannelNotificationApi';

	displayName = 'Multi-Channel Notification API';

	icon: Icon = {
		light: 'file:multiChannelNotificationApi.svg',
		dark: 'file:multiChannelNotificationApi.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-multichannel-notification#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The key from the service operator, sent as the Authorization header (spaces before or after it are dropped). It may not contain spaces, line breaks or non-ASCII characters.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://notification.example.com',
			description:
				'Address of the service, e.g. https://notification.example.com (a trailing /v1 or slash is fine). Must be https:// (the key never crosses a network in clear) unless Allow Plain HTTP is on; no user:password@, query or fragment. The key is sent only to the origin of this address (scheme, host and port), in whichever node uses the credential.',
		},
		{
			displayName: 'Allow Plain HTTP',
			name: 'allowPlainHttp',
			type: 'boolean',
			default: false,
			description:
				'Whether to accept an http:// Base URL, e.g. http://notification:8080 in the same Docker network. Only for a service on the same host or a private network you trust: the API key crosses the network in clear, so anyone on the path can read it.',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				"Whether to connect even when the service's certificate cannot be verified (self-signed, internal CA, expired, other host name). Anyone on the network path can then pose as the service, read or alter the traffic and see the API key. Better: make n8n trust your CA with NODE_EXTRA_CA_CERTS. The credential test cannot skip the check: with an untrusted certificate it reports the key as not checked.",
		},
	];

	authenticate = authorize;
}
