/**
 * The answer link's signature check. n8n 1.123.x and 2.8–2.13 check the signature of a waiting
 * execution's link only when the node asks for it (`setSignatureValidationRequired`); without
 * the call n8n leaves the signature unchecked, and only the node's own check of the question's
 * random value in the link (replacedQuestion.test.ts) stands in the way. The n8n-core these
 * tests run on (2.8) offers the call, so each send-and-wait operation must make it; an n8n that
 * does not offer it still gets its message sent and its execution waiting.
 */
import type { INodeParameters } from 'n8n-workflow';
import { ExecuteContext } from 'n8n-core';

import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';
import { templateQuestion } from '../../../helpers/sendAndWaitParameters';
import { withoutContextCall } from '../../../helpers/withoutContextCall';

const sandbox = useSandbox();

/** The context n8n gives a node's execute(); the call is inherited from a base class. */
const CALL = 'setSignatureValidationRequired';

const TEMPLATE = templateQuestion();

const OPERATIONS: Array<[string, INodeParameters]> = [
	['SMS', { resource: 'sms', operation: 'sendAndWait', phoneNumber: '+6281234567890', message: 'Approve the refund?', options: {} }],
	['Chat Message', { ...TEMPLATE, resource: 'chatMessage' }],
	['Send with Failover', { ...TEMPLATE, resource: 'combined', phoneNumber: '+6281234567890' }],
];

describe('the answer link’s signature check, on an n8n that offers it', () => {
	test('n8n-core here offers the call (else the tests below prove nothing)', () => {
		expect(typeof ExecuteContext.prototype[CALL]).toBe('function');
	});

	test.each(OPERATIONS)('%s → Send and Wait: the waiting execution requires the signature', async (_name, parameters) => {
		const asked = jest.spyOn(ExecuteContext.prototype, CALL);
		try {
			const { run, error } = await runNode({ parameters, credentials: credentialsFor(sandbox()) });

			expect(error).toBeUndefined();
			expect(run.status).toBe('waiting');
			expect(asked).toHaveBeenCalledTimes(1);
			expect(run.data.validateSignature).toBe(true);
		} finally {
			asked.mockRestore();
		}
	});

	test.each([
		['an invalid item', { phoneNumber: '+14155550100' }],
		['a Dry Run', { options: { dryRun: true } }],
	])('%s: nothing waits, so nothing is asked', async (_name, change) => {
		const asked = jest.spyOn(ExecuteContext.prototype, CALL);
		try {
			const { run } = await runNode({ parameters: { ...OPERATIONS[0][1], ...change }, credentials: credentialsFor(sandbox()) });

			expect(run.waitTill).toBeUndefined();
			expect(asked).not.toHaveBeenCalled();
			expect(run.data.validateSignature).toBeUndefined();
		} finally {
			asked.mockRestore();
		}
	});
});

/** Runs `act` on an n8n whose node context lacks `call`, checking first that it does. */
const without = <T>(call: string, act: () => Promise<T>) =>
	withoutContextCall(call, async () => {
		expect(call in ExecuteContext.prototype).toBe(false);
		return await act();
	});

describe('on an n8n without the call (1.x before 1.123, or a context that lacks it)', () => {
	test('the message still goes out and the execution waits', async () => {
		const { run, error } = await without(CALL, () => runNode({ parameters: OPERATIONS[0][1], credentials: credentialsFor(sandbox()) }));

		expect(error).toBeUndefined();
		expect(sandbox().deliveries()).toHaveLength(1);
		expect(run.status).toBe('waiting');
		expect(run.data.validateSignature).toBeUndefined();
	});
});

describe('on an n8n whose node context cannot keep task metadata (where the newest editor finds the link)', () => {
	test('the message still goes out and the execution waits, with the signature required', async () => {
		const { run, error } = await without('setMetadata', () => runNode({ parameters: OPERATIONS[0][1], credentials: credentialsFor(sandbox()) }));

		expect(error).toBeUndefined();
		expect(sandbox().deliveries()).toHaveLength(1);
		expect(run.status).toBe('waiting');
		expect(run.data.validateSignature).toBe(true);
	});
});
