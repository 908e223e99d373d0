/**
 * The test runner refuses parameter and option names the node's description does not have, so a
 * renamed option fails the test that uses it instead of being silently ignored.
 */
import { runNode } from '../helpers/engine';
import { unknownParameters } from '../helpers/nodeParameters';

const sms = { resource: 'sms', operation: 'send', phoneNumber: '+6281234567890', message: 'hi' };

test('a send with known parameters and options passes', () => {
	expect(unknownParameters({ ...sms, options: { phoneNumberFormat: 'strict', timeout: 10000, rateLimitMaxWait: 0 } })).toEqual([]);
});

test('an option the node no longer has is named, with the options it does have', () => {
	const [problem, ...rest] = unknownParameters({ ...sms, options: { rateLimitRetries: 0 } });
	expect(rest).toEqual([]);
	expect(problem).toMatch(/^options\.rateLimitRetries \(known here: .*phoneNumberFormat.*\)$/);
});

test('a parameter of another operation is refused', () => {
	expect(unknownParameters({ ...sms, templateName: 'otp' })).toEqual(['templateName (not a parameter of sms → send)']);
});

test('a field inside a fixed collection is checked too', () => {
	const template = {
		resource: 'chatMessage',
		operation: 'sendTemplate',
		bodyParameters: { parameter: [{ text: 'a' }, { txt: 'b' }] },
	};
	expect(unknownParameters(template)).toEqual([expect.stringMatching(/^bodyParameters\.parameter\.txt \(known here: text\)$/)]);
});

test('runNode fails loudly on an unknown option before anything runs', async () => {
	await expect(
		runNode({ parameters: { ...sms, options: { rateLimitRetries: 0 } }, credentials: { apiKey: 'k', baseUrl: 'https://127.0.0.1:9' } }),
	).rejects.toThrow(/Unknown node parameter: options\.rateLimitRetries/);
});
