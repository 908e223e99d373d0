import type { INodeParameters } from 'n8n-workflow';

/** A Chat Message → Send and Wait for Response that asks for a refund approval, the link in {{2}}. */
export const templateQuestion = (fields: INodeParameters = {}): INodeParameters => ({
	resource: 'chatMessage',
	operation: 'sendAndWait',
	from: '+6281100000000',
	to: '+6281234567890',
	templateName: 'refund_approval',
	languageCode: 'id',
	templateContent: 'Hi {{1}}, approve the refund here: {{2}}',
	placeholder1: 'Budi',
	linkPlaceholder: 2,
	message: 'Approve the refund for order 42?',
	options: {},
	...fields,
});
