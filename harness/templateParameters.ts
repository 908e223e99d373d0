import type { INodeParameters } from 'n8n-workflow';

/** A Send Template node's parameters with fixed numbers and template name, plus `fields`: shared by tests and the editor check. */
export const templateParameters = (fields: INodeParameters = {}): INodeParameters => ({
	resource: 'chatMessage',
	operation: 'sendTemplate',
	from: '+6281100000000',
	to: '+6281234567890',
	templateName: 'order_update',
	...fields,
});
