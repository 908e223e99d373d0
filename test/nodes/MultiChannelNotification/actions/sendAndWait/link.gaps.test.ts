/**
 * Where the answer link comes from on each kind of n8n: the signed resume URL where n8n signs
 * them, n8n's plain resume URL (`$execution.resumeUrl`) plus the node's id where it does not,
 * and a clear error where n8n gives neither.
 */
import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';
import { ExecuteContext } from 'n8n-core';

import { answerLink } from '../../../../../nodes/MultiChannelNotification/actions/shared/sendAndWait/link';
import { runNode } from '../../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../../helpers/sandbox';

/** An execute context with only what answerLink may use. */
function contextWith(parts: { signed?: () => string; resumeUrl?: unknown }): { context: IExecuteFunctions; asked: string[] } {
	const asked: string[] = [];
	const context = {
		...(parts.signed ? { getSignedResumeUrl: parts.signed } : {}),
		evaluateExpression: (expression: string, itemIndex: number) => {
			asked.push(`${expression} @ ${itemIndex}`);
			return parts.resumeUrl;
		},
		getNode: () => ({ id: 'a1b2c3', name: 'Multi-Channel Notification' }),
	} as unknown as IExecuteFunctions;
	return { context, asked };
}

describe('the answer link', () => {
	test('n8n signs links: its signed resume URL, as given', () => {
		const { context, asked } = contextWith({
			signed: () => 'https://n8n.example/webhook-waiting/81/a1b2c3?signature=abc',
			resumeUrl: 'https://n8n.example/webhook-waiting/81',
		});

		expect(answerLink(context)).toBe('https://n8n.example/webhook-waiting/81/a1b2c3?signature=abc');
		expect(asked).toEqual([]);
	});

	test('an n8n without signing: its resume URL for the execution, then the node’s id', () => {
		const { context, asked } = contextWith({ resumeUrl: 'https://n8n.example/webhook-waiting/81' });

		expect(answerLink(context)).toBe('https://n8n.example/webhook-waiting/81/a1b2c3');
		expect(asked).toEqual(['{{ $execution.resumeUrl }} @ 0']);
	});

	test.each([
		['an empty resume URL', ''],
		['no resume URL', undefined],
		['something that is not a URL', 81],
	])('an n8n with neither (%s): an error saying Send and Wait cannot work there', (_name, resumeUrl) => {
		const { context } = contextWith({ resumeUrl });

		expect(() => answerLink(context)).toThrow(new Error('This n8n gives no resume URL, so Send and Wait for Response cannot work here'));
	});
});

describe('through n8n’s engine, on an n8n without signing', () => {
	const sandbox = useSandbox();
	const SIGN = 'getSignedResumeUrl';
	const sms: INodeParameters = { resource: 'sms', operation: 'sendAndWait', phoneNumber: '+6281234567890', message: 'Approve the refund?', options: {} };

	/** Runs with n8n's context lacking the signing helper, as n8n before signed links. */
	async function withoutSigning<T>(work: () => Promise<T>): Promise<T> {
		let owner: object = ExecuteContext.prototype;
		while (!Object.prototype.hasOwnProperty.call(owner, SIGN)) owner = Object.getPrototypeOf(owner) as object;
		const offered = Object.getOwnPropertyDescriptor(owner, SIGN);
		delete (owner as { [SIGN]?: unknown })[SIGN];
		try {
			return await work();
		} finally {
			if (offered) Object.defineProperty(owner, SIGN, offered);
		}
	}

	test('the SMS carries n8n’s plain resume URL for this execution and node', async () => {
		const { run, error } = await withoutSigning(async () => await runNode({ parameters: sms, credentials: credentialsFor(sandbox()) }));

		expect(error).toBeUndefined();
		expect(run.status).toBe('waiting');
		const [, link] = (sandbox().requests[0].body as { message: string }).message.split('\n');
		expect(link).toMatch(/^http:\/\/127\.0\.0\.1\/webhook-waiting\/\d+\/target$/);
	});

	test('and without a resume URL: the error says so, nothing is sent and nothing waits', async () => {
		const resumeUrl = jest.spyOn(ExecuteContext.prototype, 'evaluateExpression').mockReturnValue('');
		try {
			const { run, error } = await withoutSigning(async () => await runNode({ parameters: sms, credentials: credentialsFor(sandbox()) }));

			// The title is cut to n8n's panel width; the description keeps the whole sentence.
			expect(error?.message).toBe('Item 0: This n8n gives no resume URL, so Send and Wait for Response cannot work…');
			expect(error?.description).toBe('This n8n gives no resume URL, so Send and Wait for Response cannot work here');
			expect(sandbox().requests).toHaveLength(0);
			expect(run.waitTill).toBeUndefined();
		} finally {
			resumeUrl.mockRestore();
		}
	});
});
