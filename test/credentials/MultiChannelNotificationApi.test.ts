import type { ICredentialTestFunctions, ICredentialsDecrypted } from 'n8n-workflow';
import { CredentialTestContext } from 'n8n-core';

import { MultiChannelNotificationApi } from '../../credentials/MultiChannelNotificationApi.credentials';
import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { ALLOW_PLAIN_HTTP, IGNORE_SSL_ISSUES } from '../../nodes/MultiChannelNotification/transport/connection';
import { runNode } from '../helpers/engine';
import { useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();
const credential = new MultiChannelNotificationApi();
const node = new MultiChannelNotification();

/** Runs the node's credential test the way n8n's CredentialsTester does: with n8n-core's context. */
async function testCredential(data: { apiKey: string; baseUrl: string }) {
	const [reference] = node.description.credentials ?? [];
	const test = node.methods.credentialTest[reference.testedBy as 'multiChannelNotificationApiTest'];
	const decrypted: ICredentialsDecrypted = { id: '1', name: 'Sandbox', type: credential.name, data };
	return await test.call(new CredentialTestContext() as unknown as ICredentialTestFunctions, decrypted);
}

describe('Multi-Channel Notification API credential', () => {
	test('declares the key as a password field and a required Base URL', () => {
		expect(credential.name).toBe('multiChannelNotificationApi');
		expect(credential.displayName).toBe('Multi-Channel Notification API');
		const [apiKey, baseUrl] = credential.properties;
		expect(apiKey).toMatchObject({ name: 'apiKey', type: 'string', typeOptions: { password: true }, required: true });
		expect(baseUrl).toMatchObject({ name: 'baseUrl', type: 'string', required: true });
	});

	test('declares the two switches for self-hosted services, off by default, each saying what it risks', () => {
		const field = (name: string) => credential.properties.find((property) => property.name === name);
		// The node's messages name them as the editor shows them.
		expect([field('allowPlainHttp')?.displayName, field('ignoreSslIssues')?.displayName]).toEqual([ALLOW_PLAIN_HTTP, IGNORE_SSL_ISSUES]);
		expect(field('allowPlainHttp')).toMatchObject({ displayName: 'Allow Plain HTTP', type: 'boolean', default: false });
		expect(field('allowPlainHttp')?.description).toContain(
			'Only for a service on the same host or a private network you trust: the API key crosses the network in clear',
		);
		expect(field('ignoreSslIssues')).toMatchObject({ displayName: 'Ignore SSL Issues (Insecure)', type: 'boolean', default: false });
		expect(field('ignoreSslIssues')?.description).toContain('read or alter the traffic and see the API key');
		expect(field('ignoreSslIssues')?.description).toContain('NODE_EXTRA_CA_CERTS');
		// Only n8n's own request helper honours the switch: no declarative test may replace the node's.
		expect(credential).not.toHaveProperty('test');
	});

	test('the node declares it with its credential test', () => {
		expect(node.description.credentials).toEqual([
			{ name: 'multiChannelNotificationApi', required: true, testedBy: 'multiChannelNotificationApiTest' },
		]);
	});

	test('the right key passes: the service answered the empty request with a validation error', async () => {
		const result = await testCredential({ apiKey: sandbox().apiKey, baseUrl: sandbox().url });

		expect(result).toEqual({ status: 'OK', message: 'Connection successful: the service accepted the API key' });
		expect(sandbox().requests).toHaveLength(1);
		expect(sandbox().requests[0]).toMatchObject({
			path: '/v1/sms/notification',
			rawBody: '{}',
			status: 400,
			delivered: false,
		});
		expect(sandbox().requests[0].headers.authorization).toBe(sandbox().apiKey);
	});

	test('a wrong key fails with the service text, and the key is not echoed', async () => {
		const result = await testCredential({ apiKey: 'not-the-key-71c2', baseUrl: `${sandbox().url}/` });

		expect(result.status).toBe('Error');
		expect(result.message).toBe('The service rejected the API key (HTTP 401): Unauthorized: invalid API key');
		expect(result.message).not.toContain('not-the-key-71c2');
		expect(sandbox().deliveries()).toHaveLength(0);
	});

	test.each([
		['plain http to another host', 'http://notify.example.com', 'must use https://'],
		['without its scheme', 'notify.example.com', 'must start with https://, e.g. https://notify.example.com'],
		['a host and port without its scheme', 'localhost:8443', 'must start with https://, e.g. https://localhost:8443'],
		['a broken URL', 'https://[::1', 'is not a valid URL: write it as https://host[:port][/path]'],
		['with a space', 'https://notify example.com', 'contains a space'],
		['empty', '', 'the Base URL is empty'],
	])('Base URL %s fails before any request', async (_name, baseUrl, problem) => {
		const result = await testCredential({ apiKey: sandbox().apiKey, baseUrl });

		expect(result.status).toBe('Error');
		expect(result.message).toContain(problem);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('a Base URL with no service behind it fails clearly', async () => {
		const result = await testCredential({ apiKey: 'k', baseUrl: 'https://127.0.0.1:1' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Could not reach the service at https:\/\/127\.0\.0\.1:1/);
	});

	test('a trailing slash on the Base URL is tolerated by the node', async () => {
		const { error } = await runNode({
			parameters: { resource: 'sms', operation: 'send', phoneNumber: '+6281234567890', message: 'Hi' },
			credentials: { apiKey: sandbox().apiKey, baseUrl: `${sandbox().url}//` },
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests[0].path).toBe('/v1/sms/notification');
	});

	test('the node refuses a plain-http Base URL on another host before sending', async () => {
		const { error } = await runNode({
			parameters: { resource: 'sms', operation: 'send', phoneNumber: '+6281234567890', message: 'Hi' },
			credentials: { apiKey: 'k', baseUrl: 'http://notify.example.com' },
		});

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain('must use https://');
	});
});
