/**
 * Any other failure (an expression, an n8n without a resume URL) as the node reports it: the
 * title is cut to the 80 characters n8n's error panel shows, and whenever it was cut the whole
 * text is in the description, including when only the "Item N: " prefix made it too long.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { credentialError, forErrorPanel, otherError } from '../../../../nodes/MultiChannelNotification/helpers/errors';

const node: INode = { id: 'target', name: 'Multi-Channel Notification', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} };

/** A text of exactly `length` characters. */
const textOf = (length: number) => `${'x'.repeat(length - 1)}.`;

describe('an error that is not the node’s own', () => {
	test('fits with its item prefix: the title is all of it, no description', () => {
		const error = otherError(node, new Error(textOf(72)), 3);

		expect(error.message).toBe(`Item 3: ${textOf(72)}`);
		expect(error.message).toHaveLength(80);
		expect(error.description).toBeFalsy();
	});

	test('fits alone but not with its item prefix: the title is cut, the description has it whole', () => {
		const error = otherError(node, new Error(textOf(73)), 3);

		expect(error.message).toHaveLength(80);
		expect(error.message.endsWith('…')).toBe(true);
		expect(error.description).toBe(textOf(73));
	});

	test('no item: 80 characters fit, 81 are cut and kept in the description', () => {
		expect(otherError(node, new Error(textOf(80))).description).toBeFalsy();
		expect(otherError(node, new Error(textOf(81))).description).toBe(textOf(81));
	});

	test('an error’s own description follows the whole text', () => {
		const error = otherError(node, Object.assign(new Error(textOf(90)), { description: 'Check the expression.' }), 0);

		expect(error.description).toBe(`${textOf(90)}\nCheck the expression.`);
	});
});

describe('the item an error names', () => {
	test('an error for an item tells n8n which item failed; one for the run names none', () => {
		expect(otherError(node, new Error('Bad expression'), 3).context.itemIndex).toBe(3);
		expect(otherError(node, new Error('Bad expression')).context.itemIndex).toBeUndefined();
		expect(credentialError(node, 'API Key is empty', 4).context.itemIndex).toBe(4);
		expect(credentialError(node, 'API Key is empty').context.itemIndex).toBeUndefined();
	});
});

describe('a description laid out for n8n’s error panel', () => {
	test('a description of several lines gets a template with line breaks; one of a single line is left as it is', () => {
		const lines = forErrorPanel(new NodeOperationError(node, 'Item 0: 2 problems', { description: '• To is required\nNothing was sent.' }));
		const oneLine = forErrorPanel(new NodeOperationError(node, 'Item 0: To is required', { description: 'Nothing was sent.' }));

		expect(lines.context.descriptionTemplate).toBe('• To is required<br>Nothing was sent.');
		expect(oneLine.context.descriptionTemplate).toBeUndefined();
	});
});
