/**
 * The router (actions/router.ts): an operation the node does not have (a workflow saved by another
 * version, or edited by hand) stops the run with an error that names it, before anything is sent.
 */
import { runNode } from '../../../helpers/engine';
import { useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

describe('Router', () => {
	test('an operation the resource does not have is named in the error, with its resource; nothing sent', async () => {
		const parameters = { resource: 'sms', operation: 'sendFax' };
		const { error, output } = await runNode({ parameters, credentials: { apiKey: sandbox().apiKey, baseUrl: sandbox().url } });

		expect(output).toBeUndefined();
		expect(error?.message).toBe('The operation "sendFax" of "sms" is not supported');
		expect(sandbox().requests).toHaveLength(0);
	});
});
