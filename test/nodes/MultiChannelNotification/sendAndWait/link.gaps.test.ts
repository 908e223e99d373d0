/**
 * Where the answer link comes from on each kind of n8n: the signed resume URL, with the
 * question's own value, where n8n signs them; where it does not, a refusal before anything is
 * sent unless Options → Allow Unsigned Answer Links is on, and then n8n's plain resume URL
 * (`$execution.resumeUrl`) plus the node's id and the question's value; and a clear error where
 * n8n gives neither.
 */
import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { ExecuteContext } from 'n8n-core';

import { problemsOf } from '../../../../nodes/MultiChannelNotification/helpers/errors';
import { answerLink, withSmsLink, withTemplateLink } from '../../../../nodes/MultiChannelNotification/sendAndWait/link';
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';
import { withoutContextCall } from '../../../helpers/withoutContextCall';

/** An execute context with only what answerLink may use; Options as given. */
function contextWith(parts: { signed?: (parameters: IDataObject) => string; resumeUrl?: unknown; options?: IDataObject }) {
	const asked: string[] = [];
	const signedWith: IDataObject[] = [];
	const input = [{ json: {} }];
	const context = {
		...(parts.signed ? { getSignedResumeUrl: (parameters: IDataObject) => (signedWith.push(parameters), parts.signed!(parameters)) } : {}),
		evaluateExpression: (expression: string, itemIndex: number) => {
			asked.push(`${expression} @ ${itemIndex}`);
			return parts.resumeUrl;
		},
		getInputData: () => input,
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => (name === 'options' ? (parts.options ?? {}) : fallback),
		getNode: () => ({ id: 'a1b2c3', name: 'Multi-Channel Notification' }),
	} as unknown as IExecuteFunctions;
	return { context, asked, signedWith };
}

const UNSIGNED_RULE =
	'Allow Unsigned Answer Links is off, and this n8n cannot sign answer links: an unsigned link can be answered by anyone who knows or guesses the execution ID (they are sequential) and the node ID (every earlier message showed it). Update n8n, or turn the option on if you accept that';

describe('the answer link', () => {
	test('n8n signs links: its signed resume URL over the question’s own value, as given', () => {
		const { context, asked, signedWith } = contextWith({ signed: (parameters) => `https://n8n.example/webhook-waiting/81/a1b2c3?question=${String(parameters.question)}&signature=abc` });

		const link = answerLink(context);

		expect(signedWith).toEqual([{ question: expect.stringMatching(/^[A-Za-z0-9]{32}$/) }]);
		expect(link).toBe(`https://n8n.example/webhook-waiting/81/a1b2c3?question=${String(signedWith[0].question)}&signature=abc`);
		expect(asked).toEqual([]);
	});

	test('the same value for every link of one node run (the message, the stored question, the editor’s link)', () => {
		const { context, signedWith } = contextWith({ signed: () => 'signed' });

		answerLink(context);
		answerLink(context);

		expect(signedWith[0].question).toBe(signedWith[1].question);
	});

	test('a later run of the node (n8n hands it new input items) asks with a new value', () => {
		const first = contextWith({ signed: () => 'signed' });
		const later = contextWith({ signed: () => 'signed' });

		answerLink(first.context);
		answerLink(later.context);

		expect(first.signedWith[0].question).not.toBe(later.signedWith[0].question);
	});

	test('an n8n without signing: refused, naming the option and the risk, nothing sent', () => {
		const { context, asked } = contextWith({ resumeUrl: 'https://n8n.example/webhook-waiting/81' });

		const refusal = (() => {
			try {
				answerLink(context);
				return undefined;
			} catch (error) {
				return error;
			}
		})();

		expect(refusal).toBeInstanceOf(NodeOperationError);
		expect((refusal as NodeOperationError).description).toBe(`• ${UNSIGNED_RULE}\nNothing was sent for this item.`);
		expect(problemsOf(refusal)).toEqual([
			expect.objectContaining({ field: 'Allow Unsigned Answer Links', label: 'Options', path: ['options', 'allowUnsignedAnswerLinks'] }),
		]);
		expect(asked).toEqual([]);
	});

	test('an n8n without signing, Allow Unsigned Answer Links on: its resume URL, the node’s id, then the question’s value', () => {
		const { context, asked } = contextWith({ resumeUrl: 'https://n8n.example/webhook-waiting/81', options: { allowUnsignedAnswerLinks: true } });

		expect(answerLink(context)).toMatch(/^https:\/\/n8n\.example\/webhook-waiting\/81\/a1b2c3\?question=[A-Za-z0-9]{32}$/);
		expect(asked).toEqual(['{{ $execution.resumeUrl }} @ 0']);
	});

	test.each([
		['an empty resume URL', ''],
		['no resume URL', undefined],
		['something that is not a URL', 81],
	])('an n8n with neither (%s): an error saying Send and Wait cannot work there', (_name, resumeUrl) => {
		const { context } = contextWith({ resumeUrl, options: { allowUnsignedAnswerLinks: true } });

		expect(() => answerLink(context)).toThrow(new Error('This n8n gives no resume URL, so Send and Wait for Response cannot work here'));
	});
});

describe('through n8n’s engine, on an n8n without signing', () => {
	const sandbox = useSandbox();
	const SIGN = 'getSignedResumeUrl';
	const sms = (options: INodeParameters = {}): INodeParameters => ({
		resource: 'sms',
		operation: 'sendAndWait',
		phoneNumber: '+6281234567890',
		message: 'Approve the refund?',
		options,
	});

	/** Runs with n8n's context lacking the signing helper, as n8n before signed links. */
	const withoutSigning = <T>(work: () => Promise<T>) => withoutContextCall(SIGN, work);

	test('Allow Unsigned Answer Links off (the default): the error names the item, the option and why; nothing is sent and nothing waits', async () => {
		const { run, error } = await withoutSigning(async () => await runNode({ parameters: sms(), credentials: credentialsFor(sandbox()) }));

		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toMatch(/^Item 0: Allow Unsigned Answer Links is off, and this n8n cannot sign/);
		expect(error?.description).toBe(`• ${UNSIGNED_RULE}\nNothing was sent for this item.`);
		expect(sandbox().requests).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
	});

	test('Allow Unsigned Answer Links on: the SMS carries n8n’s plain resume URL for this execution and node, with the question’s value', async () => {
		const { run, error } = await withoutSigning(
			async () => await runNode({ parameters: sms({ allowUnsignedAnswerLinks: true }), credentials: credentialsFor(sandbox()) }),
		);

		expect(error).toBeUndefined();
		expect(run.status).toBe('waiting');
		const [, link] = (sandbox().requests[0].body as { message: string }).message.split('\n');
		expect(link).toMatch(/^http:\/\/127\.0\.0\.1\/webhook-waiting\/\d+\/target\?question=[A-Za-z0-9]{32}$/);
	});

	test('and without a resume URL: the error says so, nothing is sent and nothing waits', async () => {
		const resumeUrl = jest.spyOn(ExecuteContext.prototype, 'evaluateExpression').mockReturnValue('');
		try {
			const { run, error } = await withoutSigning(
				async () => await runNode({ parameters: sms({ allowUnsignedAnswerLinks: true }), credentials: credentialsFor(sandbox()) }),
			);

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

describe('where the link goes', () => {
	const LINK = 'https://n8n.example/webhook-waiting/81/a1b2c3?signature=abc';

	test.each([
		['a text', 'Approve?', `Approve?\n${LINK}`],
		['a text with spaces around it', '  Approve?  ', `  Approve?  \n${LINK}`],
		['a blank text (stays blank, so the schema names it)', '  ', '  '],
		['an empty text', '', ''],
		['no text', undefined, undefined],
		['a number (left for the schema)', 42, 42],
	])('SMS, %s', (_name, text, expected) => {
		expect(withSmsLink(text, LINK)).toEqual(expected);
	});

	test.each([
		['into an empty {{2}} of the inputs', { placeholderValues: ['Budi', ''] }, 2, { placeholderValues: ['Budi', LINK] }],
		['into {{2}} right after the inputs', { placeholderValues: ['Budi'] }, 2, { placeholderValues: ['Budi', LINK] }],
		['into a blank {{1}}', { placeholderValues: ['  ', 'x'] }, 1, { placeholderValues: [LINK, 'x'] }],
		['into Body Parameters when no input is used', { placeholderValues: [], bodyParameters: ['Budi'] }, 2, { placeholderValues: [], bodyParameters: ['Budi', LINK] }],
		['into Body Parameters when neither is given', {}, 1, { bodyParameters: [LINK] }],
		// Lists an expression built may hold null or nothing at a position.
		['into a {{2}} that is null', { placeholderValues: ['Budi', null] }, 2, { placeholderValues: ['Budi', LINK] }],
		['into a {{2}} left undefined', { bodyParameters: ['Budi', undefined] }, 2, { bodyParameters: ['Budi', LINK] }],
	])('template, %s', (_name, candidate, position, expected) => {
		const copy: Record<string, unknown> = structuredClone(candidate);

		expect(withTemplateLink(copy, position, LINK)).toEqual([]);
		expect(copy).toEqual(expected);
	});

	test.each([
		[
			'components given as JSON',
			{ componentsJson: [] },
			1,
			{ field: 'Link Goes Into', path: ['linkPlaceholder'], rule: 'needs the body given as fields: switch Components to fields, the link cannot go into JSON' },
		],
		['placeholder 0', {}, 0, { field: 'Link Goes Into', path: ['linkPlaceholder'], rule: 'must be a placeholder number, 1 or more', value: '0' }],
		['placeholder 1.5', {}, 1.5, { field: 'Link Goes Into', path: ['linkPlaceholder'], rule: 'must be a placeholder number, 1 or more', value: '1.5' }],
		['not a number', {}, NaN, { field: 'Link Goes Into', path: ['linkPlaceholder'], rule: 'must be a placeholder number, 1 or more', value: 'null' }],
		[
			'a placeholder that already has a value',
			{ placeholderValues: ['Budi', 'taken'] },
			2,
			{ field: 'Link Goes Into', path: ['linkPlaceholder'], rule: 'is {{2}}, which already has a value: leave it empty, the answer link goes there', value: 'taken' },
		],
		[
			'a gap before it',
			{ bodyParameters: ['Budi'] },
			3,
			{ field: 'Link Goes Into', path: ['linkPlaceholder'], rule: 'is {{3}}, but only 1 placeholder value(s) come before it: give {{1}} … {{2}} a value first' },
		],
	])('template, %s: refused, the candidate unchanged', (_name, candidate, position, problem) => {
		const copy: Record<string, unknown> = JSON.parse(JSON.stringify(candidate));

		expect(withTemplateLink(copy, position, LINK)).toEqual([problem]);
		expect(copy).toEqual(candidate);
	});
});
