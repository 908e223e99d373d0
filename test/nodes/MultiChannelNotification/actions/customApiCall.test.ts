/**
 * "Custom API Call": n8n adds it to the node's Resource and Operation lists (value
 * `__CUSTOM_API_CALL__`) because the credential has an `authenticate` function. This node has no
 * such call of its own: choosing it says to use the HTTP Request node with the credential, where
 * the key still goes only to the Base URL origin. Nothing is sent.
 */
import { runNode } from '../../../helpers/engine';
import { useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

const EXPECTED =
	'Custom API Call is not an operation of this node: use the HTTP Request node with Authentication "Predefined Credential Type" and this Multi-Channel Notification API credential (it sends the API key only to the Base URL origin)';

describe('Custom API Call', () => {
	test.each([
		['as the Resource', { resource: '__CUSTOM_API_CALL__' }],
		['as the Operation of SMS', { resource: 'sms', operation: '__CUSTOM_API_CALL__' }],
		['as the Operation of Chat Message', { resource: 'chatMessage', operation: '__CUSTOM_API_CALL__' }],
	])('%s: says to use the HTTP Request node, nothing sent', async (_name, parameters) => {
		const { error, output } = await runNode({ parameters, credentials: { apiKey: sandbox().apiKey, baseUrl: sandbox().url } });

		expect(output).toBeUndefined();
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(EXPECTED);
		expect(error?.description).toContain('Nothing was sent');
		expect(sandbox().requests).toHaveLength(0);
	});
});
