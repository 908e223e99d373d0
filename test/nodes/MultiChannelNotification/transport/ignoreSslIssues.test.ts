/**
 * The credential's Ignore SSL Issues (Insecure) switch, on services whose certificate comes from
 * a second throwaway CA that this run does not trust (as a self-hosted service with an internal
 * CA is to an n8n that was not told about it).
 * - Off: the send fails before any request reaches the service, with an error that says the
 *   certificate is not trusted, that nothing was sent, and names both fixes (NODE_EXTRA_CA_CERTS,
 *   the switch).
 * - On: n8n's request helper skips the certificate check (its own `skipSslCertificateValidation`)
 *   and the send is delivered with the exact body and the key.
 * - On, the rest of the boundary holds: a redirect is not followed and its target sees no
 *   connection, an answer past 1 MiB is abandoned, a service that never answers fails within the
 *   Timeout, and the key appears in nothing the node shows.
 * - On, with a certificate the run does trust: sends work as ever.
 */
import {
	boundaryHolds,
	errorText,
	expectDeliveredSms,
	expectNoKey,
	expectNotReportedSent,
	SPECIAL_KEY,
	smsParameters,
	useHostileService,
} from '../../../helpers/boundary';
import type { RunNodeResult } from '../../../helpers/engine';
import { runNode } from '../../../helpers/engine';
import { untrustedTls, useSandbox } from '../../../helpers/sandbox';

const tls = untrustedTls();
const untrusted = useSandbox({ tls });
const trusted = useSandbox();
const hostile = useHostileService({ tls });
const target = useHostileService({ tls });

async function send(
	baseUrl: string,
	apiKey: string,
	{ ignoreSslIssues, timeout = 10000 }: { ignoreSslIssues?: boolean; timeout?: number },
): Promise<RunNodeResult> {
	return await runNode({
		parameters: smsParameters({ timeout }),
		credentials: { apiKey, baseUrl, ...(ignoreSslIssues === undefined ? {} : { ignoreSslIssues }) },
	});
}

describe('Ignore SSL Issues off', () => {
	test.each([
		['not set (a credential saved before the switch existed)', undefined],
		['off', false],
	])('%s: an untrusted certificate fails the send, nothing reaches the service, both fixes named', async (_name, ignoreSslIssues) => {
		const result = await send(untrusted().url, untrusted().apiKey, { ignoreSslIssues });

		expect({ error: result.error?.name, requests: untrusted().requests.length }).toEqual({ error: 'NodeApiError', requests: 0 });
		const { message, description } = errorText(result);
		expect(message).toBe('Could not reach the service: its certificate is not trusted');
		expect(description).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY/);
		expect(description).toContain('NODE_EXTRA_CA_CERTS');
		expect(description).toContain('turn on Ignore SSL Issues (Insecure) in the credential');
		expect(description).toContain('Nothing was sent for this item.');
		expectNotReportedSent(result, false);
		expectNoKey(result, untrusted().apiKey);
	});
});

describe('Ignore SSL Issues on', () => {
	test('the untrusted certificate is accepted: the exact request is delivered with the key', async () => {
		const result = await send(untrusted().url, untrusted().apiKey, { ignoreSslIssues: true });

		expectDeliveredSms(result, untrusted());
	});

	test('a trusted certificate still works', async () => {
		const result = await send(trusted().url, trusted().apiKey, { ignoreSslIssues: true });

		expect(result.error).toBeUndefined();
		expect(trusted().deliveries()).toHaveLength(1);
	});

	test('an http:// Base URL still needs Allow Plain HTTP', async () => {
		const result = await send(untrusted().url.replace(/^https:/, 'http:'), untrusted().apiKey, { ignoreSslIssues: true });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(errorText(result).description).toContain('Allow Plain HTTP');
	});

	boundaryHolds(hostile, target, async (baseUrl, timeout) => await send(baseUrl, SPECIAL_KEY, { ignoreSslIssues: true, timeout }));
});
