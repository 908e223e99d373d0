import type { IExecuteFunctions, INode, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Outcomes } from '../../../../nodes/MultiChannelNotification/delivery/outcomes';
import { inputError } from '../../../../nodes/MultiChannelNotification/helpers/errors';
import { thrown } from '../../../helpers/thrown';

const node = { id: 'n', name: 'Notify', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
const context = { getNode: () => node } as unknown as IExecuteFunctions;
const failure = (itemIndex: number, text = 'failed') => new NodeOperationError(node, `item ${itemIndex} ${text}`, { itemIndex });

/** A context that keeps the execution hints (the run summary) the node adds. */
function withHints(): { context: IExecuteFunctions; hints: NodeExecutionHint[] } {
	const hints: NodeExecutionHint[] = [];
	const addExecutionHints = (...added: NodeExecutionHint[]) => hints.push(...added);
	return { context: { getNode: () => node, addExecutionHints } as unknown as IExecuteFunctions, hints };
}


describe('Outcomes', () => {
	test('items fail in any order (requests finish out of order): the run fails with the earliest item', () => {
		const outcomes = new Outcomes(context, 5, 'throw');
		outcomes.fail(3, failure(3));
		outcomes.fail(1, failure(1));
		outcomes.fail(4, failure(4));
		expect(() => outcomes.finish()).toThrow('item 1 failed');
	});

	test('an item that fails again later (its clean-up failing too) is reported by its first error', () => {
		const outcomes = new Outcomes(context, 2, 'throw');
		outcomes.fail(1, failure(1));
		outcomes.fail(1, failure(1, 'failed again'));
		expect(thrown(() => outcomes.finish()).message).toBe('item 1 failed');
	});

	test('a failed run names the items already sent, the description starting with them when the error had none', () => {
		const outcomes = new Outcomes(context, 4, 'throw');
		outcomes.done(0, { id: 'm0' }, 'sent');
		outcomes.done(1, { id: 'm1' }, 'sent');
		outcomes.done(3, { id: 'm3' }, 'sent');
		outcomes.fail(2, failure(2));
		expect(thrown(() => outcomes.finish()).description).toBe(
			'Items already sent in this run: 0–1, 3. Do not send them again when you re-run (or set Options → Send Once Per Key).',
		);
	});

	test('with Continue On Fail, an item refused for several problems lists each; one problem, or another error, lists none', () => {
		const outcomes = new Outcomes(context, 3, 'item');
		const to = { field: 'To', path: ['to'], rule: 'is required' };
		const message = { field: 'Message', path: ['message'], rule: 'must not be empty', value: '""' };
		outcomes.fail(0, inputError(node, 0, [to, message]));
		outcomes.fail(1, inputError(node, 1, [to]));
		outcomes.fail(2, failure(2));
		const [output] = outcomes.finish();
		expect(output.map((item) => item.json.problems)).toEqual([['To is required', 'Message must not be empty'], undefined, undefined]);
		expect(output.map((item) => 'problems' in item.json)).toEqual([true, false, false]);
	});

	test('the run summary tells how often rate limits held the run back, and the longest wait', () => {
		const { context: hinted, hints } = withHints();
		const outcomes = new Outcomes(hinted, 2, 'throw');
		outcomes.done(0, { id: 'm0' }, 'sent');
		outcomes.done(1, { id: 'm1' }, 'sent');
		outcomes.noteRateLimits(3, 2_600);
		outcomes.finish();
		expect(hints.map((hint) => hint.message)).toEqual(['Sent 2 · rate limited 3× (longest wait 3 s)']);
	});

	test('input items the operation did not handle (Send and Wait sends the first) are left out; the summary counts every input item', () => {
		const { context: hinted, hints } = withHints();
		const outcomes = new Outcomes(hinted, 3, 'item');
		outcomes.done(0, { id: 'm0' }, 'sent');
		const [output] = outcomes.finish();
		expect(output).toHaveLength(1);
		expect(output[0]).toEqual({ json: { id: 'm0' }, pairedItem: { item: 0 } });
		expect(hints.map((hint) => hint.message)).toEqual(['Sent 1 (item 0)']);
	});
});
