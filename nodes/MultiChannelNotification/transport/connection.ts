import type { ICredentialDataDecryptedObject, ICredentialsDecrypted, IExecuteFunctions } from 'n8n-workflow';

import type { Problem } from '../helpers/errors';
import { credentialError } from '../helpers/errors';
import type { Verdict } from '../helpers/validation';
import { judge } from '../helpers/validation';
import { apiKeySchema, baseUrlSchema, CREDENTIAL_LABELS, credentialSchema } from '../schemas/credential.schema';
import type { Scrubber } from './secrets';
import { makeScrubber } from './secrets';

export { ALLOW_PLAIN_HTTP, IGNORE_SSL_ISSUES } from '../schemas/credential.schema';

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

/** The credential's problems (credential.schema.ts) as the sentence its readers show: "the API key is empty". */
export function credentialProblem([first]: Problem[]): string {
	const field = first.field === CREDENTIAL_LABELS.apiKey.label ? 'API key' : first.field;
	return `the ${field} ${first.rule}`;
}

/** The credential's Base URL, checked (the schema says how): as used, and its origin. */
export function checkBaseUrl(raw: unknown, { allowPlainHttp = false }: { allowPlainHttp?: boolean } = {}): Verdict<{ baseUrl: string; origin: string }> {
	return judge(baseUrlSchema(allowPlainHttp), { baseUrl: raw }, CREDENTIAL_LABELS);
}

/** The API key, checked: as sent. A problem never quotes the key. */
export function checkApiKey(raw: unknown): Verdict<string> {
	return judge(apiKeySchema, { apiKey: raw }, CREDENTIAL_LABELS);
}

/** The whole decrypted credential, with its switches. */
export function checkCredential(data: ICredentialDataDecryptedObject): Verdict<{ baseUrl: string; origin: string; apiKey: string; ignoreSslIssues: boolean }> {
	return judge(credentialSchema(data.allowPlainHttp === true), data, CREDENTIAL_LABELS);
}

export async function getConnection(this: IExecuteFunctions): Promise<ServiceConnection> {
	const data: ICredentialDataDecryptedObject = await this.getCredentials(CREDENTIAL_TYPE);
	const checked = checkCredential(data);
	if ('problems' in checked) throw credentialError(this.getNode(), credentialProblem(checked.problems));
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	const { apiKey } = checked.data;
	return {
		...checked.data,
		scrub: makeScrubber(apiKey),
		credential: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: { ...data, apiKey },
		},
	};
}
