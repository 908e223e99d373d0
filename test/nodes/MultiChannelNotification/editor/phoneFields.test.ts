/**
 * Every field that asks for a phone number tells the same story: a local Indonesian 0812… is
 * accepted and sent as +62812…, and the example it shows really is what the node sends.
 */
import type { INodeProperties } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { normalizePhoneNumber } from '../../../../nodes/MultiChannelNotification/helpers/phoneNumber';

const PHONE_FIELDS = ['from', 'to', 'phoneNumber'];
const SMS_FIELDS = ['phoneNumber'];

const phoneFields = new MultiChannelNotification().description.properties.filter((property) => PHONE_FIELDS.includes(property.name));
const where = (field: INodeProperties) => `${field.name} (${JSON.stringify(field.displayOptions?.show)})`;

test('the node has a phone field in every operation that sends (sanity check of the filter)', () => {
	// SMS: Send, Send and Wait; chat: Send Template, Send Media, Send and Wait (From, To);
	// combined: Send with Failover, Send and Wait (From, To, SMS Phone Number).
	expect(phoneFields).toHaveLength(2 + 2 * 3 + 3 * 2);
});

test.each(phoneFields.map((field) => [where(field), field]))('%s: shows both spellings and says the local one is converted', (_where, field) => {
	expect(field.placeholder).toBe('e.g. 0812 3456 7890 or +6281234567890');
	expect(field.hint).toMatch(/0812… .*\+62812…/);
	expect(field.hint).toContain('is sent as +62812…');
	expect(field.description).toContain('a local 0812… are fine too: they are sent as +62812…');
	if (SMS_FIELDS.includes(field.name)) {
		expect(field.hint).toMatch(/^Only an Indonesian number starting with \+62; a local 0812…/);
		expect(field.description).toContain('SMS can only go to an Indonesian number starting with +62 for now');
	}
});

test('the placeholder’s two examples are the same number once the node has read them', () => {
	expect(normalizePhoneNumber('0812 3456 7890', 'normalize')).toBe('+6281234567890');
	expect(normalizePhoneNumber('+6281234567890', 'normalize')).toBe('+6281234567890');
});
