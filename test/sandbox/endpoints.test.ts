/**
 * The sandbox's API endpoints around the spec's rules: the key, the content type, the body, the
 * method and the path are checked in that order; successful answers carry the spec's fields and
 * fresh ids; every request to an API path is recorded.
 */
import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH } from '../../sandbox/server';
import type { RecordedRequest } from '../../sandbox/server';
import { KEY, TO, combinedRequest, json, mediaMessage, smsRequest, templateMessage, useSandboxClient } from './client';

const { sandbox, send } = useSandboxClient();

describe('authorization, content type, body, method and path', () => {
	const jsonType = { 'Content-Type': 'application/json' };

	it.each([
		['the exact key', { Authorization: KEY, ...jsonType }, 200],
		['no Authorization header', { ...jsonType }, 401],
		['a wrong key', { Authorization: 'wrong-key', ...jsonType }, 401],
		['the key with a Bearer scheme', { Authorization: `Bearer ${KEY}`, ...jsonType }, 401],
		['the key with a trailing character', { Authorization: `${KEY}x`, ...jsonType }, 401],
	])('%s → %i', async (_name, headers, status) => {
		const answer = await send(SMS_PATH, smsRequest(), { headers });
		expect(answer.status).toBe(status);
		if (status === 401) {
			expect(answer.body).toEqual({ message: 'Unauthorized: invalid API key' });
			expect(sandbox().deliveries()).toHaveLength(0);
		} else {
			expect(sandbox().deliveries()).toHaveLength(1);
		}
	});

	it('never echoes the received Authorization value', async () => {
		const secret = 'sk-live-very-secret-value';
		const answer = await send(WA_MESSAGE_PATH, templateMessage(), { headers: { Authorization: secret, ...jsonType } });
		expect(answer.status).toBe(401);
		expect(answer.text).not.toContain(secret);
		expect(JSON.stringify([...answer.headers])).not.toContain(secret);
	});

	it('checks the key before the content type and the body', async () => {
		const answer = await send(SMS_PATH, undefined, { headers: { Authorization: 'nope', 'Content-Type': 'text/plain' }, raw: 'not json' });
		expect(answer.status).toBe(401);
	});

	it.each([
		['application/json', 'application/json', 200],
		['with a charset', 'application/json; charset=utf-8', 200],
		['in capitals', 'Application/JSON', 200],
		['text/plain', 'text/plain', 415],
		['form encoded', 'application/x-www-form-urlencoded', 415],
		['application/jsonx', 'application/jsonx', 415],
	])('Content-Type %s → %i', async (_name, contentType, status) => {
		const answer = await send(SMS_PATH, smsRequest(), { headers: { Authorization: KEY, 'Content-Type': contentType } });
		expect(answer.status).toBe(status);
		if (status === 415) expect(answer.message).toBe('Content-Type must be application/json');
	});

	it('rejects a request without Content-Type with 415', async () => {
		// A byte array body makes fetch send no Content-Type at all.
		const raw = new TextEncoder().encode(JSON.stringify(smsRequest()));
		const answer = await send(SMS_PATH, undefined, { headers: { Authorization: KEY }, raw });
		expect(answer.status).toBe(415);
	});

	it.each([
		['an object', JSON.stringify(smsRequest()), 200, /success/],
		['an empty body', '', 400, /^body: is empty/],
		['invalid JSON', '{"phone_number": "+6281234567890",', 400, /^body: is not valid JSON$/],
		['an array', JSON.stringify([smsRequest()]), 400, /^body: must be a JSON object$/],
		['null', 'null', 400, /^body: must be a JSON object$/],
		['a string', '"hello"', 400, /^body: must be a JSON object$/],
	])('body %s → %i', async (_name, raw, status, message) => {
		const answer = await send(SMS_PATH, undefined, { raw });
		expect(answer.status).toBe(status);
		expect(answer.message).toEqual(expect.stringMatching(message));
	});

	it.each([
		['GET', 405],
		['PUT', 405],
		['DELETE', 405],
		['POST', 200],
	])('%s on an API path → %i', async (method, status) => {
		const answer = await send(SMS_PATH, smsRequest(), { method });
		expect(answer.status).toBe(status);
		if (status === 405) expect(answer.message).toMatch(/use POST/);
		expect(sandbox().requests[0].method).toBe(method);
	});

	it.each(['/v1/wa/messages', '/v2/sms/notification', '/', '/v1/combined/notification'])('unknown path %s → 404', async (unknown) => {
		const answer = await send(unknown, smsRequest());
		expect(answer.status).toBe(404);
		expect(typeof answer.message).toBe('string');
		// Only the three API endpoints are recorded.
		expect(sandbox().requests).toHaveLength(0);
	});

	it('ignores a query string when matching the path', async () => {
		const answer = await send(`${SMS_PATH}?trace=1`, smsRequest());
		expect(answer.status).toBe(200);
		expect(sandbox().requests[0].path).toBe(SMS_PATH);
	});
});

describe('successful answers', () => {
	it('chat message: {message: success, data: {id}} with a wamid', async () => {
		const answer = await send(WA_MESSAGE_PATH, templateMessage());
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({ message: 'success', data: { id: expect.stringMatching(/^wamid\.[0-9a-f]{24}$/) } });
		expect(sandbox().requests[0].id).toBe(json(json(answer.body).data).id);
	});

	it('sms: id, incrementing numeric request_id and the full content', async () => {
		const first = json(json((await send(SMS_PATH, smsRequest())).body).data);
		const second = json(json((await send(SMS_PATH, { ...smsRequest(), message: 'second' })).body).data);
		expect(first).toEqual({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			request_id: expect.any(Number),
			full_content: 'Your code is 1234',
		});
		expect(second.full_content).toBe('second');
		expect(second.request_id).toBe((first.request_id as number) + 1);
		expect(second.id).not.toBe(first.id);
	});

	it('combined: request_id and the per-channel status', async () => {
		const answer = await send(COMBINED_PATH, combinedRequest());
		expect(answer.body).toEqual({
			message: 'success',
			data: {
				request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
				result: { sms: { status: 'failover' }, chat: { status: 'requested' } },
			},
		});
		expect(sandbox().deliveries()[0].id).toBe(json(json(answer.body).data).request_id);
	});

	it('gives every delivery a distinct id, also under concurrency', async () => {
		const sends = Array.from({ length: 60 }, (_, i) => {
			if (i % 3 === 0) return send(WA_MESSAGE_PATH, templateMessage());
			if (i % 3 === 1) return send(SMS_PATH, smsRequest());
			return send(COMBINED_PATH, combinedRequest());
		});
		const answers = await Promise.all(sends);
		expect(answers.filter((a) => a.status !== 200)).toEqual([]);
		const ids = sandbox().deliveries().map((d) => d.id);
		expect(ids).toHaveLength(60);
		expect(new Set(ids).size).toBe(60);
	});
});

describe('recording', () => {
	it('records method, path, headers, raw and parsed body, status and response', async () => {
		const payload = smsRequest();
		const answer = await send(SMS_PATH, payload, { headers: { Authorization: KEY, 'Content-Type': 'application/json', 'X-Trace': 'abc' } });
		const [record] = sandbox().requests;
		expect(record).toMatchObject<Partial<RecordedRequest>>({
			seq: 1,
			method: 'POST',
			path: SMS_PATH,
			rawBody: JSON.stringify(payload),
			body: payload,
			status: 200,
			response: answer.body,
			delivered: true,
		});
		expect(record.headers.authorization).toBe(KEY);
		expect(record.headers['x-trace']).toBe('abc');
		expect(record.fault).toBeUndefined();
	});

	it('records rejected requests too, in arrival order, with delivered false', async () => {
		await send(SMS_PATH, { phone_number: '+1555', message: 'x' });
		await send(WA_MESSAGE_PATH, templateMessage());
		expect(sandbox().requests.map((r) => [r.seq, r.path, r.status, r.delivered])).toEqual([
			[1, SMS_PATH, 400, false],
			[2, WA_MESSAGE_PATH, 200, true],
		]);
		expect(sandbox().deliveries().map((r) => r.seq)).toEqual([2]);
	});

	it('keeps the raw text of a body that is not JSON, with body undefined', async () => {
		await send(SMS_PATH, undefined, { raw: 'phone_number=+62' });
		expect(sandbox().requests[0].rawBody).toBe('phone_number=+62');
		expect(sandbox().requests[0].body).toBeUndefined();
	});

	it('reset() clears requests, faults, started chats and latency', async () => {
		sandbox().startChat(TO);
		sandbox().setLatency(500);
		sandbox().injectFault({ kind: 'status', status: 500 });
		await send(SMS_PATH, smsRequest());
		expect(sandbox().requests).toHaveLength(1);
		sandbox().reset();
		expect(sandbox().requests).toHaveLength(0);
		// No fault and no latency any more, and TO is no longer a started chat (STARTED still is).
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
		expect(sandbox().requests[0].latencyMs).toBe(0);
		expect((await send(WA_MESSAGE_PATH, { ...mediaMessage('image'), to: TO })).status).toBe(403);
		expect((await send(WA_MESSAGE_PATH, mediaMessage('image'))).status).toBe(200);
		expect(sandbox().requests[0].seq).toBe(1);
	});

	it('startChat() lets media through to that number and refuses a non-E.164 number', async () => {
		expect((await send(WA_MESSAGE_PATH, { ...mediaMessage('audio'), to: TO })).status).toBe(403);
		sandbox().startChat(TO);
		expect((await send(WA_MESSAGE_PATH, { ...mediaMessage('audio'), to: TO })).status).toBe(200);
		expect(() => sandbox().startChat('0812345678')).toThrow(/E\.164/);
	});
});
