import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../delivery/operation';

/** A resource's Operation property, the first operation the default (n8n's lint wants a literal default first). */
export function operationProperty(resource: string, options: OperationOption[]): INodeProperties {
	const property: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: '',
	};
	return { ...property, default: options[0].value };
}
