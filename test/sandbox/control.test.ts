/** The control endpoints under /__sandbox/, and starting and stopping a sandbox. */
import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH, startSandbox } from '../../sandbox/server';
import type { RecordedRequest, SandboxStats } from '../../sandbox/server';
import { TO, mediaMessage, smsRequest, templateMessage, useSandboxClient } from './client';

const { sandbox, send, control } = useSandboxClient();

describe('control endpoints', () => {
	it('GET /__sandbox/requests lists the recorded API requests', async () => {
		await send(SMS_PATH, smsRequest());
		const { status, body } = await control('requests');
		expect(status).toBe(200);
		const list = body.requests as RecordedRequest[];
		expect(list).toHaveLength(1);
		expect(list[0]).toMatchObject({ seq: 1, path: SMS_PATH, status: 200, delivered: true, body: smsRequest() });
	});

	it('GET /__sandbox/stats counts by path and finds duplicate deliveries', async () => {
		await send(SMS_PATH, smsRequest());
		await send(SMS_PATH, smsRequest());
		await send(SMS_PATH, { ...smsRequest(), message: 'other' });
		await send(WA_MESSAGE_PATH, templateMessage([]));
		const { body } = await control('stats');
		const stats = body as unknown as SandboxStats;
		expect(stats.received).toBe(4);
		expect(stats.delivered).toBe(3);
		expect(stats.duplicateBodies).toBe(1);
		expect(stats.byPath[SMS_PATH]).toEqual({ received: 3, delivered: 3 });
		expect(stats.byPath[WA_MESSAGE_PATH]).toEqual({ received: 1, delivered: 0 });
		expect(stats.byPath[COMBINED_PATH]).toEqual({ received: 0, delivered: 0 });
		expect(stats.byStatus).toEqual({ '200': 3, '400': 1 });
	});

	it('POST /__sandbox/reset clears the record', async () => {
		await send(SMS_PATH, smsRequest());
		expect((await control('reset', 'POST')).status).toBe(200);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('POST /__sandbox/conversations starts a chat; a bad number is a 400', async () => {
		expect((await control('conversations', 'POST', { phone_number: TO })).status).toBe(200);
		expect((await send(WA_MESSAGE_PATH, { ...mediaMessage('image'), to: TO })).status).toBe(200);
		const bad = await control('conversations', 'POST', { phone_number: '0812' });
		expect(bad.status).toBe(400);
		expect(bad.body.message).toMatch(/phone_number/);
	});

	it('POST /__sandbox/faults queues one fault or an array', async () => {
		expect((await control('faults', 'POST', { kind: 'status', status: 500 })).status).toBe(200);
		const array = await control('faults', 'POST', [{ kind: 'status', status: 502 }, { kind: 'errorMessage', message: 'nope' }]);
		expect(array.body).toEqual({ message: 'queued', queued: 2 });
		expect((await send(SMS_PATH, smsRequest())).status).toBe(500);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(502);
		expect((await send(SMS_PATH, smsRequest())).message).toBe('nope');
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it('POST /__sandbox/faults refuses a bad fault and queues nothing from its array', async () => {
		const bad = await control('faults', 'POST', [{ kind: 'status' }, { kind: 'meltdown' }]);
		expect(bad.status).toBe(400);
		expect(bad.body.message).toMatch(/^\[1\]\.fault\.kind/);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it('POST /__sandbox/latency sets the delay; a bad value is a 400', async () => {
		expect((await control('latency', 'POST', { ms: 150 })).status).toBe(200);
		const startedAt = performance.now();
		await send(SMS_PATH, smsRequest());
		// Lower bound only, as above.
		expect(performance.now() - startedAt).toBeGreaterThanOrEqual(149);
		expect((await control('latency', 'POST', { ms: -5 })).status).toBe(400);
		expect((await control('latency', 'POST', { ms: 'fast' })).status).toBe(400);
	});

	it('unknown control endpoint → 404, wrong method → 405, and no auth needed', async () => {
		expect((await control('nothing')).status).toBe(404);
		expect((await control('stats', 'POST', {})).status).toBe(405);
		expect((await control('reset')).status).toBe(405);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('lifecycle', () => {
	it('stop() returns promptly with a hung request and idle keep-alive sockets open', async () => {
		const own = await startSandbox({ port: 0 });
		// One finished request leaves a keep-alive socket idle in fetch's pool.
		const ok = await fetch(`${own.url}${SMS_PATH}`, {
			method: 'POST',
			headers: { Authorization: own.apiKey, 'Content-Type': 'application/json' },
			body: JSON.stringify(smsRequest()),
		});
		expect(ok.status).toBe(200);
		own.injectFault({ kind: 'timeout' });
		const hung = fetch(`${own.url}${SMS_PATH}`, {
			method: 'POST',
			headers: { Authorization: own.apiKey, 'Content-Type': 'application/json' },
			body: JSON.stringify(smsRequest()),
		});
		const settled = hung.then(
			() => 'answered',
			() => 'failed',
		);
		while (own.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
		// "Promptly": stop() resolves at all with the hung request open (else the test times out).
		await own.stop();
		expect(await settled).toBe('failed');
		expect(own.apiKey).toBe('sandbox-api-key');
		expect(own.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
	});

	it('refuses a bad started-chat number in the options', async () => {
		await expect(startSandbox({ port: 0, startedChats: ['12345'] })).rejects.toThrow(/E\.164/);
	});
});
