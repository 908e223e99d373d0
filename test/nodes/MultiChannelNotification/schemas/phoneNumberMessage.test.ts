/**
 * A malformed phone number, as a no-code user first reads it: n8n's toast shows the error's title
 * (80 characters at most), so the point and an example come first, the standard's name after,
 * in the description.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();
const POINT = 'must be in full international form like +6281234567890';

const strict = { options: { phoneNumberFormat: 'strict' } };
const CASES: Array<[string, INodeParameters]> = [
	['Phone Number', { resource: 'sms', operation: 'send', phoneNumber: '0812 3456', message: 'Hi', ...strict }],
	['To', { resource: 'chatMessage', operation: 'sendMedia', from: '+628110000000', to: '12', mediaType: 'image', mediaUrl: 'https://example.com/a.png', ...strict }],
	['From', { resource: 'chatMessage', operation: 'sendMedia', from: 'abc', to: '+6281234567890', mediaType: 'image', mediaUrl: 'https://example.com/a.png', ...strict }],
	[
		'SMS Phone Number',
		{ resource: 'combined', operation: 'sendWithFailover', from: '+628110000000', to: '+6281234567890', templateName: 'otp', phoneNumber: '0812', message: 'Hi', ...strict },
	],
];

test.each(CASES)('%s: the point and an example fit in the title; E.164 is named in the description; nothing is sent', async (label, parameters) => {
	const { error } = await runNode({ parameters, credentials: credentialsFor(sandbox()) });

	expect(error?.message.startsWith(`Item 0: ${label} ${POINT}`)).toBe(true);
	expect(error?.message.length).toBeLessThanOrEqual(80);
	expect(error?.description).toContain(`• ${label} ${POINT} (a leading +, the country code and the number: 7 to 15 digits, the E.164 format)`);
	expect(error?.description).toContain('Nothing was sent for this item.');
	expect(sandbox().requests).toHaveLength(0);
});
