/** Faults queued in the sandbox: what each kind answers, whom it applies to, and in what order. */
import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH } from '../../sandbox/server';
import type { Fault } from '../../sandbox/server';
import { combinedRequest, smsRequest, templateMessage, useSandboxClient } from './client';

const { sandbox, send, control } = useSandboxClient();

describe('faults', () => {
	it.each<[string, Fault, number, unknown]>([
		['status 500 with a message', { kind: 'status', status: 500, message: 'internal' }, 500, { message: 'internal' }],
		['status 502 with the default text', { kind: 'status', status: 502 }, 502, { message: 'Bad Gateway' }],
		['errorMessage: a 200 that is not success', { kind: 'errorMessage' }, 200, { message: 'quota exceeded', data: {} }],
		['errorMessage with its own text and status', { kind: 'errorMessage', status: 202, message: 'rejected' }, 202, { message: 'rejected', data: {} }],
	])('%s', async (_name, fault, status, body) => {
		sandbox().injectFault(fault);
		const answer = await send(SMS_PATH, smsRequest());
		expect(answer.status).toBe(status);
		expect(answer.body).toEqual(body);
		expect(sandbox().requests[0]).toMatchObject({ fault: fault.kind, status, delivered: false });
		expect(sandbox().requests[0].id).toBeUndefined();
		// The fault is used up: the next request is answered normally.
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it('429 with Retry-After', async () => {
		sandbox().injectFault({ kind: 'status', status: 429, message: 'slow down', retryAfter: '2' });
		const answer = await send(WA_MESSAGE_PATH, templateMessage());
		expect(answer.status).toBe(429);
		expect(answer.headers.get('retry-after')).toBe('2');
		expect(answer.message).toBe('slow down');
	});

	it('nonJson: an HTML page', async () => {
		sandbox().injectFault({ kind: 'nonJson', status: 502 });
		const answer = await send(COMBINED_PATH, combinedRequest());
		expect(answer.status).toBe(502);
		expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
		expect(answer.text).toBe('<html>Bad gateway</html>');
		expect(sandbox().requests[0].response).toBe('<html>Bad gateway</html>');
	});

	it('reset: the socket is destroyed without an answer', async () => {
		sandbox().injectFault({ kind: 'reset' });
		await expect(send(SMS_PATH, smsRequest())).rejects.toThrow();
		expect(sandbox().requests[0]).toMatchObject({ fault: 'reset', status: 0, delivered: false, response: undefined });
	});

	it('timeout: no answer until the client gives up', async () => {
		sandbox().injectFault({ kind: 'timeout' });
		const client = new AbortController();
		const sent = send(SMS_PATH, smsRequest(), { signal: client.signal });
		// The client gives up only once the sandbox holds the whole request, however slowly the
		// machine got it there, and 300 ms more without an answer.
		while (sandbox().requests[0]?.rawBody !== JSON.stringify(smsRequest())) await new Promise((resolve) => setTimeout(resolve, 5));
		await new Promise((resolve) => setTimeout(resolve, 300));
		client.abort();
		await expect(sent).rejects.toThrow(/aborted/i);
		expect(sandbox().requests[0]).toMatchObject({ fault: 'timeout', status: 0, delivered: false });
		expect(sandbox().requests[0].body).toEqual(smsRequest());
	});

	it('afterDelivery: delivered with an id, but the fault is answered', async () => {
		sandbox().injectFault({ kind: 'status', status: 500, afterDelivery: true });
		const answer = await send(SMS_PATH, smsRequest());
		expect(answer.status).toBe(500);
		const [record] = sandbox().requests;
		expect(record).toMatchObject({ fault: 'status', status: 500, delivered: true });
		expect(record.id).toEqual(expect.any(String));
		expect(sandbox().deliveries()).toHaveLength(1);
	});

	it('afterDelivery on an invalid request delivers nothing', async () => {
		sandbox().injectFault({ kind: 'reset', afterDelivery: true });
		await expect(send(SMS_PATH, { phone_number: '+1555', message: '' })).rejects.toThrow();
		expect(sandbox().deliveries()).toHaveLength(0);
	});

	it('applies before the Authorization check', async () => {
		sandbox().injectFault({ kind: 'status', status: 503 });
		const answer = await send(SMS_PATH, smsRequest(), { headers: { Authorization: 'wrong', 'Content-Type': 'application/json' } });
		expect(answer.status).toBe(503);
	});

	it('matches only its path and keeps waiting for it', async () => {
		sandbox().injectFault({ kind: 'status', status: 500, path: SMS_PATH });
		expect((await send(WA_MESSAGE_PATH, templateMessage())).status).toBe(200);
		expect((await send(COMBINED_PATH, combinedRequest())).status).toBe(200);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(500);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it('does not apply to control endpoints or unknown paths', async () => {
		sandbox().injectFault({ kind: 'status', status: 500 });
		expect((await control('stats')).status).toBe(200);
		expect((await send('/v1/unknown', {})).status).toBe(404);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(500);
	});

	it('times: applies to that many requests, then FIFO to the next fault', async () => {
		sandbox().injectFault({ kind: 'status', status: 500, times: 2 });
		sandbox().injectFault({ kind: 'status', status: 502 });
		const statuses: number[] = [];
		for (let i = 0; i < 4; i++) statuses.push((await send(SMS_PATH, smsRequest())).status);
		expect(statuses).toEqual([500, 500, 502, 200]);
	});

	it('clearFaults() drops every queued fault', async () => {
		sandbox().injectFault({ kind: 'status', status: 500, times: 5 });
		sandbox().clearFaults();
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it.each<[string, unknown]>([
		['an unknown kind', { kind: 'explode' }],
		['a path that is not an API path', { kind: 'reset', path: '/__sandbox/stats' }],
		['times 0', { kind: 'reset', times: 0 }],
		['a status out of range', { kind: 'status', status: 99 }],
		['an unknown key', { kind: 'status', delay: 5 }],
	])('injectFault refuses %s', (_name, fault) => {
		expect(() => sandbox().injectFault(fault as Fault)).toThrow(/^fault\./);
	});
});
