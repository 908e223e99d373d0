/**
 * Automatic answers kept to the question they are meant for: a plan with `only` answers a link
 * only in a message to that recipient and from that n8n node, and automatic answers can be turned
 * off and on again without changing the plan (what the phone page's switch does).
 */
import { COMBINED_PATH, SMS_PATH, checkAnswerPlan } from '../../sandbox/server';
import { useSandbox } from '../helpers/sandbox';
import type { FakeN8n } from './fakeN8n';
import { deliver, settled, useFakeN8n } from './fakeN8n';

const MANAGER = '+6281100004242';
const SOMEONE_ELSE = '+6281234567890';
/** The node id in FakeN8n's links. */
const NODE_ID = 'node-7f3a';

const sandbox = useSandbox({ answerLinks: { answer: 'approve', preview: false, only: { recipient: MANAGER, nodeId: NODE_ID } } });
let n8n: FakeN8n;
const fakeN8n = useFakeN8n(() => sandbox());
beforeEach(() => {
	n8n = fakeN8n();
});

describe('automatic answers kept to one question', () => {
	it('answers only a link to the plan\'s recipient from the plan\'s node: another number or another node\'s link is left to the user', async () => {
		const otherNode = `${n8n.origin}/webhook-waiting/4802/node-of-my-own-workflow?signature=x`;
		expect(await deliver(sandbox(), SMS_PATH, { phone_number: SOMEONE_ELSE, message: `Refund? ${n8n.link('4801')}` })).toBe(200);
		expect(await deliver(sandbox(), SMS_PATH, { phone_number: MANAGER, message: `Refund? ${otherNode}` })).toBe(200);
		expect(await deliver(sandbox(), SMS_PATH, { phone_number: MANAGER, message: `Refund? ${n8n.link('4803')}` })).toBe(200);
		const answers = await settled(sandbox());
		expect(answers.map((record) => [record.requestSeq, record.link])).toEqual([[3, n8n.link('4803')]]);
		expect(n8n.hits.map((hit) => hit.url.split('/')[2])).toEqual(['4803']);
	});

	it('in a combined send, the recipient of the part that carries the link counts', async () => {
		const chat = { from: '+6281100000001', to: MANAGER, type: 'template', template: { name: 'ask', language: { policy: 'deterministic', code: 'id' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Budi' }] }] } };
		expect(await deliver(sandbox(), COMBINED_PATH, { chat, sms: { phone_number: SOMEONE_ELSE, message: `Answer: ${n8n.link('4811')}` } })).toBe(200);
		expect(await deliver(sandbox(), COMBINED_PATH, { chat, sms: { phone_number: MANAGER, message: `Answer: ${n8n.link('4812')}` } })).toBe(200);
		expect((await settled(sandbox())).map((record) => record.requestSeq)).toEqual([2]);
	});

	it('turned off, nothing is answered; turned on again, the same plan answers', async () => {
		sandbox().setAutomaticAnswers(false);
		expect(sandbox().automaticAnswers()).toBe(false);
		await deliver(sandbox(), SMS_PATH, { phone_number: MANAGER, message: `Refund? ${n8n.link('4821')}` });
		expect(await settled(sandbox())).toEqual([]);
		sandbox().setAutomaticAnswers(true);
		await deliver(sandbox(), SMS_PATH, { phone_number: MANAGER, message: `Refund? ${n8n.link('4822')}` });
		expect((await settled(sandbox())).map((record) => [record.requestSeq, record.answer?.status])).toEqual([[2, 200]]);
		expect(n8n.hits.map((hit) => hit.url.split('/')[2])).toEqual(['4822']);
	});

	it('reset() turns automatic answers back on, as every other setting goes back to the options', async () => {
		sandbox().setAutomaticAnswers(false);
		sandbox().reset();
		expect(sandbox().automaticAnswers()).toBe(true);
	});

	it('a malformed `only` is refused, naming the field', () => {
		expect(checkAnswerPlan({ answer: 'approve', only: 'me' })).toBe('answerPlan.only: must be an object');
		expect(checkAnswerPlan({ answer: 'approve', only: { recipient: '0812' } })).toBe('answerPlan.only.recipient: must be an E.164 phone number');
		expect(checkAnswerPlan({ answer: 'approve', only: { nodeId: '' } })).toBe('answerPlan.only.nodeId: must be a non-empty string');
		expect(checkAnswerPlan({ answer: 'approve', only: { workflow: 'x' } })).toMatch(/^answerPlan\.only\.workflow: unknown field \(allowed here: recipient, nodeId\)$/);
		expect(checkAnswerPlan({ answer: 'approve', only: { recipient: MANAGER, nodeId: NODE_ID } })).toBeNull();
	});
});
