import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Outcomes } from '../../../../nodes/MultiChannelNotification/delivery/outcomes';

const node = { id: 'n', name: 'Notify', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
const context = { getNode: () => node } as unknown as IExecuteFunctions;
const failure = (itemIndex: number) => new NodeOperationError(node, `item ${itemIndex} failed`, { itemIndex });

describe('Outcomes', () => {
	test('items fail in any order (requests finish out of order): the run fails with the earliest item', () => {
		const outcomes = new Outcomes(context, 5, 'throw');
		outcomes.fail(3, failure(3));
		outcomes.fail(1, failure(1));
		outcomes.fail(4, failure(4));
		expect(() => outcomes.finish()).toThrow('item 1 failed');
	});
});
