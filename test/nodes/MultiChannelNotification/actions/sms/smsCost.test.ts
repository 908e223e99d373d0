/**
 * What each SMS the node sends (or would send) costs, through n8n's engine: `sms` in the output
 * of a real send and of a dry run, counted on the text that goes out; Options → Max SMS Segments
 * refusing an SMS that needs more before any request; Options → Replace Look-Alike Characters.
 */
import type { INodeParameters, IRun } from 'n8n-workflow';

import { NODE_NAME, runNode } from '../../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../../helpers/sandbox';
import { expectRefused } from '../../../../fixtures/problems';
import { templateQuestion } from '../../../../helpers/sendAndWaitParameters';

const sandbox = useSandbox();

const sms = (fields: INodeParameters = {}, options: INodeParameters = {}): INodeParameters => ({
	resource: 'sms',
	operation: 'send',
	phoneNumber: '+6281234567890',
	message: 'Your code is 123456',
	options,
	...fields,
});

const failover = (fields: INodeParameters = {}, options: INodeParameters = {}): INodeParameters => ({
	resource: 'combined',
	operation: 'sendWithFailover',
	from: '+6281100000000',
	to: '+6281234567890',
	templateName: 'otp',
	bodyParameters: { parameter: [{ text: '734201' }] },
	message: 'Your code is 734201',
	options,
	...fields,
});

const smsAndWait = (fields: INodeParameters = {}, options: INodeParameters = {}): INodeParameters => ({
	resource: 'sms',
	operation: 'sendAndWait',
	phoneNumber: '+6281234567890',
	message: 'Approve the refund of Rp 150.000 for order 42?',
	options,
	...fields,
});

const combinedAndWait = (fields: INodeParameters = {}) =>
	templateQuestion({ resource: 'combined', phoneNumber: '+6281234567890', message: 'Approve the refund?', ...fields });

/** 161 GSM-7 characters: two segments. */
const TWO_SEGMENTS = `Dear customer, ${'x'.repeat(146)}`;
/** Curly quotes and an emoji: UCS-2, 72 units, two segments. */
const CURLY = `“Your order” isn’t late ${'y'.repeat(45)} 😀`;

const sentMessages = () => sandbox().requests.map((request) => request.body as { message?: string; sms?: { message: string } });

describe('the cost of each SMS in the output', () => {
	test('SMS → Send: a real send outputs encoding, segments, length and what forced UCS-2', async () => {
		const { output, error } = await runNode({
			parameters: sms({ message: '={{ $json.text }}' }),
			items: [{ text: 'Your code is 123456' }, { text: TWO_SEGMENTS }, { text: CURLY }],
			credentials: credentialsFor(sandbox()),
		});

		expect(error).toBeUndefined();
		expect(sandbox().requests).toHaveLength(3);
		expect(output?.map((item) => item.json.sms)).toEqual([
			{ encoding: 'GSM-7', segments: 1, length: 19, forcedBy: [] },
			{ encoding: 'GSM-7', segments: 2, length: 161, forcedBy: [] },
			{ encoding: 'UCS-2', segments: 2, length: 72, forcedBy: ['“', '”', '’', '😀'] },
		]);
	});

	test('SMS → Send, Dry Run: the preview carries the same count, nothing sent', async () => {
		const { output } = await runNode({ parameters: sms({ message: CURLY }, { dryRun: true }), credentials: credentialsFor(sandbox()) });

		expect(sandbox().requests).toHaveLength(0);
		expect(output?.[0].json).toMatchObject({ dryRun: true, sms: { encoding: 'UCS-2', segments: 2, length: 72 } });
	});

	test('Send with Failover: the SMS part is counted, in a real send and a dry run', async () => {
		const { output } = await runNode({ parameters: failover({ message: TWO_SEGMENTS }), credentials: credentialsFor(sandbox()) });
		const { output: dry } = await runNode({ parameters: failover({}, { dryRun: true }), credentials: credentialsFor(sandbox()) });

		expect(sandbox().requests).toHaveLength(1);
		expect(output?.[0].json).toMatchObject({ smsStatus: 'failover', sms: { encoding: 'GSM-7', segments: 2, length: 161, forcedBy: [] } });
		expect(dry?.[0].json.sms).toEqual({ encoding: 'GSM-7', segments: 1, length: 19, forcedBy: [] });
	});

	test('SMS → Send and Wait: the text with its answer link is what is counted', async () => {
		const { output } = await runNode({ parameters: smsAndWait({}, { dryRun: true }), credentials: credentialsFor(sandbox()) });

		const sent = (output?.[0].json.request as { body: { message: string } }).body.message;
		// The question, a line break, then the link: every character is in GSM-7's default alphabet.
		expect(sent).toMatch(/^Approve the refund of Rp 150\.000 for order 42\?\nhttp:\/\/[\w.:/?=&-]+$/);
		expect(sent.length).toBeGreaterThan(160);
		expect(output?.[0].json.sms).toEqual({ encoding: 'GSM-7', length: sent.length, segments: Math.ceil(sent.length / 153), forcedBy: [] });
	});

	test('Combined → Send and Wait: the SMS part with its answer link is counted', async () => {
		const { output } = await runNode({ parameters: combinedAndWait({ options: { dryRun: true } }), credentials: credentialsFor(sandbox()) });

		const sent = (output?.[0].json.request as { body: { sms: { message: string } } }).body.sms.message;
		expect(sent).toMatch(/^Approve the refund\?\nhttp/);
		expect(output?.[0].json.sms).toMatchObject({ encoding: 'GSM-7', length: sent.length });
	});

	test('operations without an SMS output no count', async () => {
		const { output } = await runNode({ parameters: templateQuestion({ options: { dryRun: true } }), credentials: credentialsFor(sandbox()) });

		expect(output?.[0].json.dryRun).toBe(true);
		expect(output?.[0].json).not.toHaveProperty('sms');
	});
});

describe('the run summary adds the SMS segments', () => {
	const hintsOf = (run: { run: IRun }): unknown => run.run.data.resultData.runData[NODE_NAME]?.[0]?.hints;

	test('sent: the segments of every SMS that went out', async () => {
		const result = await runNode({
			parameters: sms({ message: '={{ $json.text }}' }),
			items: [{ text: 'short' }, { text: TWO_SEGMENTS }, { text: CURLY }],
			credentials: credentialsFor(sandbox()),
		});

		expect(hintsOf(result)).toEqual([{ message: 'Sent 3 · SMS segments 5', type: 'info', location: 'outputPane' }]);
	});

	test('dry run: the segments that would go out', async () => {
		const result = await runNode({ parameters: sms({ message: TWO_SEGMENTS }, { dryRun: true }), credentials: credentialsFor(sandbox()) });

		expect(hintsOf(result)).toEqual([{ message: 'Sent 0 · dry run 1 · SMS segments 2 (dry run)', type: 'info', location: 'outputPane' }]);
	});
});

describe('Options → Max SMS Segments', () => {
	test('an SMS needing more is refused before any request, naming the count, the limit, the encoding and the characters', async () => {
		const { output, error } = await runNode({
			parameters: sms({ message: CURLY }, { maxSmsSegments: 1 }),
			credentials: credentialsFor(sandbox()),
		});

		expect(output).toBeUndefined();
		expectRefused(error, 'Item 0: Message needs 2 SMS segments, more than Max SMS Segments allows (1): it…', [
			'Message needs 2 SMS segments, more than Max SMS Segments allows (1): it is UCS-2 (70 characters in one SMS, 67 per segment; this one is 72) because of "“", "”", "’", "😀"',
		]);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('when only look-alikes make it UCS-2, the error says what Replace Look-Alike Characters would make of it', async () => {
		const { error } = await runNode({
			parameters: sms({ message: `“Your order” isn’t late ${'y'.repeat(60)}` }, { maxSmsSegments: 1 }),
			credentials: credentialsFor(sandbox()),
		});

		expect(error?.description).toContain(
			'• Message needs 2 SMS segments, more than Max SMS Segments allows (1): it is UCS-2 (70 characters in one SMS, 67 per segment; this one is 84) because of "“", "”", "’"; with Options → Replace Look-Alike Characters on it would need 1\n',
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('over the limit with a refused option: one error lists both, nothing sent', async () => {
		const { error } = await runNode({ parameters: sms({ message: TWO_SEGMENTS }, { maxSmsSegments: 1, concurrency: 500 }), credentials: credentialsFor(sandbox()) });

		expectRefused(error, 'Item 0: 2 problems (Concurrency, Message)', [
			'Concurrency must be a whole number of requests from 1 to 100 — got 500',
			'Message needs 2 SMS segments, more than Max SMS Segments allows (1): it is GSM-7 (160 characters in one SMS, 153 per segment; this one is 161)',
		]);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('GSM-7 text over the limit: the length and the encoding’s sizes', async () => {
		const { error } = await runNode({ parameters: sms({ message: TWO_SEGMENTS }, { maxSmsSegments: 1 }), credentials: credentialsFor(sandbox()) });

		expect(error?.description).toContain(
			'• Message needs 2 SMS segments, more than Max SMS Segments allows (1): it is GSM-7 (160 characters in one SMS, 153 per segment; this one is 161)',
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('at the limit, or 0 (no limit), it is sent', async () => {
		await runNode({ parameters: sms({ message: TWO_SEGMENTS }, { maxSmsSegments: 2 }), credentials: credentialsFor(sandbox()) });
		await runNode({ parameters: sms({ message: TWO_SEGMENTS }, { maxSmsSegments: 0 }), credentials: credentialsFor(sandbox()) });

		expect(sandbox().requests).toHaveLength(2);
	});

	test('continue on fail: the refused item is an error item, the others are sent', async () => {
		const { output } = await runNode({
			parameters: sms({ message: '={{ $json.text }}' }, { maxSmsSegments: 1 }),
			items: [{ text: 'short' }, { text: TWO_SEGMENTS }, { text: 'also short' }],
			credentials: credentialsFor(sandbox()),
			continueOnFail: true,
		});

		expect(sentMessages().map((body) => body.message)).toEqual(['short', 'also short']);
		expect(output?.[1]).toEqual({
			json: expect.objectContaining({ error: 'Item 1: Message needs 2 SMS segments, more than Max SMS Segments allows (1): it…' }),
			pairedItem: { item: 1 },
		});
	});

	test('Send with Failover: the SMS part is checked, named as the editor names it; nothing sent', async () => {
		const { error } = await runNode({ parameters: failover({ message: CURLY }, { maxSmsSegments: 1 }), credentials: credentialsFor(sandbox()) });

		expect(error?.description).toContain('• SMS Message needs 2 SMS segments, more than Max SMS Segments allows (1): it is UCS-2');
		expect(sandbox().requests).toHaveLength(0);
	});

	test('Send and Wait: the answer link counts too; refused, nothing sent and nothing waits', async () => {
		const { run, error } = await runNode({ parameters: smsAndWait({}, { maxSmsSegments: 1 }), credentials: credentialsFor(sandbox()) });

		expect(error?.description).toContain('• Message needs 2 SMS segments, more than Max SMS Segments allows (1): it is GSM-7');
		expect(sandbox().requests).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
	});

	test('a limit that is not a whole number from 0 to 255 is refused with the other problems', async () => {
		const { error } = await runNode({ parameters: sms({}, { maxSmsSegments: '={{ -1 }}' }), credentials: credentialsFor(sandbox()) });

		expect(error?.description).toContain('• Max SMS Segments must be a whole number of segments from 0 (no limit) to 255 — got -1');
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Options → Replace Look-Alike Characters', () => {
	test('curly quotes, dashes and ellipsis become GSM-7 before the SMS is counted and sent', async () => {
		const { output } = await runNode({
			parameters: sms({ message: '“Your order” isn’t late — it ships Mon–Fri…' }, { replaceLookAlikes: true }),
			credentials: credentialsFor(sandbox()),
		});

		expect(sentMessages()[0].message).toBe('"Your order" isn\'t late - it ships Mon-Fri...');
		expect(output?.[0].json.sms).toEqual({ encoding: 'GSM-7', segments: 1, length: 45, forcedBy: [] });
	});

	test('off (the default): the text is sent as written', async () => {
		await runNode({ parameters: sms({ message: 'isn’t' }), credentials: credentialsFor(sandbox()) });

		expect(sentMessages()[0].message).toBe('isn’t');
	});

	test('what it cannot replace still forces UCS-2, and Max SMS Segments judges the replaced text', async () => {
		const message = `${'z'.repeat(150)} — ok`;
		const { error } = await runNode({ parameters: sms({ message: `${message} 😀` }, { replaceLookAlikes: true, maxSmsSegments: 2 }), credentials: credentialsFor(sandbox()) });
		await runNode({ parameters: sms({ message }, { replaceLookAlikes: true, maxSmsSegments: 1 }), credentials: credentialsFor(sandbox()) });

		expect(error?.description).toContain('needs 3 SMS segments, more than Max SMS Segments allows (2): it is UCS-2 (70 characters in one SMS, 67 per segment; this one is 158) because of "😀"');
		expect(sentMessages().map((body) => body.message)).toEqual([`${'z'.repeat(150)} - ok`]);
	});

	test('Send with Failover: the SMS part is replaced, the chat part is left alone', async () => {
		await runNode({
			parameters: failover({ bodyParameters: { parameter: [{ text: '“734201”' }] }, message: 'Code “734201”' }, { replaceLookAlikes: true }),
			credentials: credentialsFor(sandbox()),
		});

		const [body] = sandbox().requests.map((request) => request.body as { chat: { template: { components: Array<{ parameters: Array<{ text: string }> }> } }; sms: { message: string } });
		expect(body.sms.message).toBe('Code "734201"');
		expect(body.chat.template.components[0].parameters[0].text).toBe('“734201”');
	});
});
