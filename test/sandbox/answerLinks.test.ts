/**
 * The sandbox playing the person who answers a Send-and-Wait message: against a tiny local
 * server that plays n8n's waiting webhook (GET: the page with the form; POST: records the form),
 * it must fetch the link as a link preview would, then post the planned answer to the same URL.
 */
import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH, startSandbox } from '../../sandbox/server';
import type { AnswerPlan } from '../../sandbox/server';
import { loadRunTls } from '../../sandbox/tls';
import { useSandbox } from '../helpers/sandbox';
import { controlRequest as control } from './client';
import type { Json } from './client';
import type { FakeN8n } from './fakeN8n';
import { RECORDED, SETTLE_DEADLINE_MS, deliver, settled, startFakeN8n, useFakeN8n } from './fakeN8n';


function sms(message: string, phoneNumber = '+6281234567890'): Json {
	return { phone_number: phoneNumber, message };
}

function template(...texts: string[]): Json {
	return {
		from: '+6281100000001',
		to: '+6281200000002',
		type: 'template',
		template: {
			name: 'approval_request',
			language: { policy: 'deterministic', code: 'en' },
			components: [{ type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) }],
		},
	};
}

const OPTIONS_PLAN: AnswerPlan = { answer: 'approve' };
const sandbox = useSandbox({ answerLinks: OPTIONS_PLAN });
let n8n: FakeN8n;
const fakeN8n = useFakeN8n(() => sandbox());
beforeEach(() => {
	n8n = fakeN8n();
});

describe('sandbox answer links', () => {
	it('approve: a link-preview GET of the link, then a form POST of approved=true to the same URL, query included', async () => {
		const link = n8n.link('4711');
		expect(await deliver(sandbox(), SMS_PATH, sms(`Ship order 42? Answer here: ${link}`))).toBe(200);
		const answers = await settled(sandbox());
		expect(answers).toEqual([
			{
				requestSeq: 1,
				link,
				form: 'approved=true',
				preview: { status: 200, html: true },
				answer: { status: 200, body: RECORDED },
				done: true,
			},
		]);
		const path = new URL(link).pathname + new URL(link).search;
		expect(n8n.hits.map((hit) => [hit.method, hit.url])).toEqual([
			['GET', path],
			['POST', path],
		]);
		const [preview, answer] = n8n.hits;
		expect(preview.headers['user-agent']).toMatch(/link preview/);
		expect(answer.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(answer.body).toBe('approved=true');
	});

	it('a 409 (the execution still running) or a 5xx (not yet stored as waiting) is pressed again until the answer is recorded', async () => {
		n8n.refusals = [500, 409];
		await deliver(sandbox(), SMS_PATH, sms(`Answer: ${n8n.link('4720')}`));
		const [record] = await settled(sandbox());
		expect(record.answer).toEqual({ status: 200, body: RECORDED });
		expect(n8n.hits.filter((hit) => hit.method === 'POST').map((hit) => hit.body)).toEqual(['approved=true', 'approved=true', 'approved=true']);
	});

	it('decline: posts approved=false', async () => {
		sandbox().setAnswerPlan({ answer: 'decline' });
		await deliver(sandbox(), SMS_PATH, sms(`Answer: ${n8n.link('4712')}`));
		expect((await settled(sandbox()))[0].form).toBe('approved=false');
		expect(n8n.hits.map((hit) => [hit.method, hit.body])).toEqual([
			['GET', ''],
			['POST', 'approved=false'],
		]);
	});

	it('free text: posts text=… form-encoded, so non-ASCII, "&", "=" and spaces arrive intact', async () => {
		const text = 'Ja & nein = vielleicht — später ✓ 100%';
		sandbox().setAnswerPlan({ answer: { text } });
		await deliver(sandbox(), SMS_PATH, sms(`Answer: ${n8n.link('4713')}`));
		await settled(sandbox());
		const post = n8n.hits.find((hit) => hit.method === 'POST');
		expect([...new URLSearchParams(post?.body)]).toEqual([['text', text]]);
	});

	it('the answer is posted no sooner than delayMs after the delivery', async () => {
		const delayMs = 400;
		sandbox().setAnswerPlan({ answer: 'approve', delayMs });
		const sentAt = performance.now();
		await deliver(sandbox(), SMS_PATH, sms(`Answer: ${n8n.link('4714')}`));
		await settled(sandbox());
		const post = n8n.hits.find((hit) => hit.method === 'POST');
		// Lower bound only (a timer never fires early), less 1 ms: libuv's timer clock counts whole milliseconds.
		expect((post?.at ?? 0) - sentAt).toBeGreaterThanOrEqual(delayMs - 1);
		expect(n8n.hits.map((hit) => hit.method)).toEqual(['GET', 'POST']);
	});

	it('nothing is fetched without a waiting-webhook link, or when the message was not delivered', async () => {
		expect(await deliver(sandbox(), SMS_PATH, sms('Your code is 1234'))).toBe(200);
		expect(await deliver(sandbox(), SMS_PATH, sms(`See ${n8n.origin}/webhook/4715/orders`))).toBe(200);
		expect(await deliver(sandbox(), WA_MESSAGE_PATH, template('Budi', 'order 42'))).toBe(200);
		// Not an Indonesian number: refused with 400, so nobody got the link.
		expect(await deliver(sandbox(), SMS_PATH, sms(`Answer: ${n8n.link('4716')}`, '+15551234567'))).toBe(400);
		expect(await settled(sandbox())).toEqual([]);
		expect(n8n.hits).toEqual([]);
	});

	it('preview: false posts the answer without fetching the link first', async () => {
		sandbox().setAnswerPlan({ answer: 'approve', preview: false });
		await deliver(sandbox(), SMS_PATH, sms(`Answer: ${n8n.link('4717')}`));
		const [record] = await settled(sandbox());
		expect(record.preview).toBeUndefined();
		expect(record.answer?.status).toBe(200);
		expect(n8n.hits.map((hit) => hit.method)).toEqual(['POST']);
	});

	it('finds the link in a chat template body parameter and in either part of a combined request', async () => {
		const inTemplate = n8n.link('5001');
		const inCombinedChat = n8n.link('5002');
		const inCombinedSms = n8n.link('5003');
		expect(await deliver(sandbox(), WA_MESSAGE_PATH, template('Budi', inTemplate))).toBe(200);
		expect(await deliver(sandbox(), COMBINED_PATH, { chat: template(inCombinedChat), sms: sms('Check your chat app') })).toBe(200);
		expect(await deliver(sandbox(), COMBINED_PATH, { chat: template('Budi'), sms: sms(`Answer: ${inCombinedSms}`) })).toBe(200);
		const answers = await settled(sandbox());
		expect(answers.map((record) => [record.requestSeq, record.link, record.answer?.status])).toEqual([
			[1, inTemplate, 200],
			[2, inCombinedChat, 200],
			[3, inCombinedSms, 200],
		]);
		const posted = n8n.hits.filter((hit) => hit.method === 'POST').map((hit) => hit.url.split('/')[2]);
		expect(posted.sort()).toEqual(['5001', '5002', '5003']);
	});

	it('an https link is answered too, trusting the run\'s CA', async () => {
		const secure = await startFakeN8n(loadRunTls());
		try {
			await deliver(sandbox(), SMS_PATH, sms(`Answer: ${secure.link('4718')}`));
			const [record] = await settled(sandbox());
			expect(record).toMatchObject({ preview: { status: 200, html: true }, answer: { status: 200 } });
			expect(record.error).toBeUndefined();
			expect(secure.hits.map((hit) => hit.method)).toEqual(['GET', 'POST']);
		} finally {
			await secure.close();
		}
	});

	it('a link nobody serves: the error is recorded, never thrown, and the API answer is unaffected', async () => {
		const gone = await startFakeN8n();
		const link = gone.link('4719');
		await gone.close();
		expect(await deliver(sandbox(), SMS_PATH, sms(`Answer: ${link}`))).toBe(200);
		const [record] = await settled(sandbox());
		expect(record.error).toMatch(/^preview GET: fetch failed \(.*ECONNREFUSED/);
		expect(record.answer).toBeUndefined();
		expect(record.done).toBe(true);
	});

	it('control endpoints: POST validates the plan with a 400 naming the field, GET shows it, DELETE removes it', async () => {
		const bad: Array<[unknown, RegExp]> = [
			[undefined, /^answerPlan: must be an object$/],
			[{ answer: 'maybe' }, /^answerPlan\.answer: must be "approve", "decline" or/],
			[{ answer: { text: 42 } }, /^answerPlan\.answer\.text: must be a string$/],
			[{ answer: { text: 'ok', extra: 1 } }, /^answerPlan\.answer\.extra: unknown field/],
			[{ answer: 'approve', delayMs: 600_001 }, /^answerPlan\.delayMs: must be a number from 0 to 600000$/],
			[{ answer: 'approve', delayMs: -1 }, /^answerPlan\.delayMs:/],
			[{ answer: 'approve', preview: 'no' }, /^answerPlan\.preview: must be a boolean$/],
			[{ answer: 'approve', retries: 2 }, /^answerPlan\.retries: unknown field/],
		];
		for (const [plan, message] of bad) {
			const answer = await control(sandbox(), 'answer-links', 'POST', plan);
			expect([answer.status, answer.body.message]).toEqual([400, expect.stringMatching(message)]);
		}
		expect((await control(sandbox(), 'answer-links')).body).toEqual({ plan: OPTIONS_PLAN });
		const plan = { answer: { text: 'yes' }, delayMs: 0, preview: false };
		expect(await control(sandbox(), 'answer-links', 'POST', plan)).toEqual({ status: 200, body: { plan } });
		expect((await control(sandbox(), 'answer-links')).body).toEqual({ plan });

		await deliver(sandbox(), SMS_PATH, sms(`Answer: ${n8n.link('4720')}`));
		await settled(sandbox());
		const listed = await control(sandbox(), 'answers');
		expect(listed.body).toEqual({ answers: [expect.objectContaining({ requestSeq: 1, form: 'text=yes', done: true })], underWay: 0 });

		expect(await control(sandbox(), 'answer-links', 'DELETE')).toEqual({ status: 200, body: { plan: null } });
		await deliver(sandbox(), SMS_PATH, sms(`Answer: ${n8n.link('4721')}`));
		expect(await settled(sandbox())).toHaveLength(1);
		expect(() => sandbox().setAnswerPlan({ answer: 'later' } as unknown as AnswerPlan)).toThrow(/^setAnswerPlan: answerPlan\.answer:/);
		await expect(startSandbox({ port: 0, answerLinks: { answer: 'yes' } as unknown as AnswerPlan })).rejects.toThrow(/answerPlan\.answer/);
	});

	it('reset() restores the plan from the options, clears the records and aborts an answer under way', async () => {
		sandbox().setAnswerPlan({ answer: 'decline', delayMs: 600_000, preview: false });
		// The API answer is not held back by the delay: this resolves at once.
		expect(await deliver(sandbox(), SMS_PATH, sms(`Answer: ${n8n.link('4722')}`))).toBe(200);
		const [record] = sandbox().answers;
		expect(record.done).toBe(false);
		sandbox().reset();
		expect(await sandbox().answersSettled(SETTLE_DEADLINE_MS)).toBe(0);
		expect(record).toMatchObject({ done: true, error: expect.stringMatching(/: the sandbox was reset$/) });
		expect(sandbox().answers).toEqual([]);
		expect((await control(sandbox(), 'answer-links')).body).toEqual({ plan: OPTIONS_PLAN });
		expect(n8n.hits).toEqual([]);
	});

	it('stop() aborts an answer under way and waits for it', async () => {
		const own = await startSandbox({ port: 0, answerLinks: { answer: 'approve', delayMs: 600_000 } });
		try {
			expect(await deliver(own, SMS_PATH, sms(`Answer: ${n8n.link('4723')}`))).toBe(200);
		} finally {
			await own.stop();
		}
		const [record] = own.answers;
		expect(record).toMatchObject({ done: true, error: expect.stringMatching(/: the sandbox stopped$/) });
		expect(record.answer).toBeUndefined();
		expect(await own.answersSettled(0)).toBe(0);
		expect(n8n.hits.filter((hit) => hit.method === 'POST')).toEqual([]);
	});
});
