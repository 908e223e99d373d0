/**
 * Max SMS Segments and Replace Look-Alike Characters are offered where an SMS is sent (SMS →
 * Send and Send and Wait, the human-review tool's SMS, both Combined operations), and nowhere else.
 */
import type { INodeProperties } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';

const SMS_OPTIONS = ['maxSmsSegments', 'replaceLookAlikes'];

const optionsFields = new MultiChannelNotification().description.properties.filter((property) => property.name === 'options');
const operationsOf = (field: INodeProperties) => {
	const show = field.displayOptions?.show ?? {};
	return (show.resource ?? []).flatMap((resource) => (show.operation ?? []).map((operation) => `${String(resource)} → ${String(operation)}`));
};
const smsOptionsOf = (field: INodeProperties) =>
	(field.options as INodeProperties[]).map((option) => option.name).filter((name) => SMS_OPTIONS.includes(name));

test('offered exactly on the operations that send an SMS', () => {
	const offering = optionsFields.filter((field) => smsOptionsOf(field).length > 0).flatMap(operationsOf).sort();
	const without = optionsFields.filter((field) => smsOptionsOf(field).length === 0).flatMap(operationsOf).sort();

	expect(offering).toEqual(['combined → sendAndWait', 'combined → sendWithFailover', 'smsReview → sendAndWait', 'sms → send', 'sms → sendAndWait'].sort());
	expect(without).toEqual(['chatMessage → sendAndWait', 'chatMessage → sendMedia', 'chatMessage → sendTemplate']);
	for (const field of optionsFields.filter((field) => smsOptionsOf(field).length > 0)) expect(smsOptionsOf(field)).toEqual(SMS_OPTIONS);
});

test('Max SMS Segments: 0 (no limit) to 255; Replace Look-Alike Characters: on once added, as Dry Run', () => {
	const [smsSend] = optionsFields.filter((field) => operationsOf(field).includes('sms → send'));
	const options = smsSend.options as INodeProperties[];
	expect(options.find((option) => option.name === 'maxSmsSegments')).toMatchObject({ displayName: 'Max SMS Segments', type: 'number', default: 0, typeOptions: { minValue: 0, maxValue: 255 } });
	expect(options.find((option) => option.name === 'replaceLookAlikes')).toMatchObject({ displayName: 'Replace Look-Alike Characters', type: 'boolean', default: true });
});
