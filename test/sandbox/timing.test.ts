/**
 * When the sandbox answers: held back until enough requests are open (the answer gate), after a
 * latency, or at once with a 429 beyond the rate limit.
 */
import { SMS_PATH, startSandbox } from '../../sandbox/server';
import { KEY, smsRequest, useSandboxClient } from './client';
import type { Answer } from './client';

const { sandbox, send, control, setClock, now } = useSandboxClient();

describe('requests in flight', () => {
	it('holdAnswers answers nothing until that many requests are open at once, then all of them', async () => {
		sandbox().holdAnswers({ inFlight: 3, received: 10 });
		const first = [send(SMS_PATH, smsRequest()), send(SMS_PATH, smsRequest())];
		while (sandbox().openRequests() < 2) await new Promise((resolve) => setImmediate(resolve));
		expect(sandbox().requests.every((request) => request.status === 0)).toBe(true);
		const answers = await Promise.all([...first, send(SMS_PATH, smsRequest())]);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
		expect(sandbox().stats().maxInFlight).toBe(3);
	});

	it('holdAnswers also opens once `received` requests arrived (the tail of a run)', async () => {
		sandbox().holdAnswers({ inFlight: 5, received: 2 });
		const answers = await Promise.all([send(SMS_PATH, smsRequest()), send(SMS_PATH, smsRequest())]);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
	});

	it('a request open across reset() is not counted against the next test; whenIdle waits for it', async () => {
		sandbox().injectFault({ kind: 'timeout' });
		const controller = new AbortController();
		const hung = send(SMS_PATH, smsRequest(), { signal: controller.signal }).catch(() => 'aborted');
		while (sandbox().openRequests() < 1) await new Promise((resolve) => setImmediate(resolve));
		sandbox().reset();
		await send(SMS_PATH, smsRequest());
		expect(sandbox().stats().maxInFlight).toBe(1);
		expect(sandbox().openRequests()).toBe(1);
		// Held with a deadline far past any close, the abort below settles it.
		const idle = sandbox().whenIdle(20_000);
		controller.abort();
		expect(await hung).toBe('aborted');
		expect(await idle).toBe(0);
	});
});

describe('latency', () => {
	it('delays API answers but not control endpoints', async () => {
		sandbox().setLatency(200);
		const startedAt = performance.now();
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
		// A timer never fires early, so this lower bound holds on any machine (less 1 ms: libuv's
		// timer clock counts whole milliseconds).
		expect(performance.now() - startedAt).toBeGreaterThanOrEqual(199);
		expect(sandbox().requests[0].latencyMs).toBe(200);
		// A control request held back like an API one would wait out this latency, far past the
		// test's own 30 s limit, so the test would fail instead of passing.
		sandbox().setLatency(600_000);
		expect((await control('stats')).status).toBe(200);
	});

	it('without latency answers at once', async () => {
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
		expect(sandbox().requests[0].latencyMs).toBe(0);
	});

	it('setLatency refuses a negative value', () => {
		expect(() => sandbox().setLatency(-1)).toThrow();
	});
});

describe('rate limit', () => {
	/** Holds the sandbox's clock at the start of a whole second, so a burst falls in one window however slowly it is sent. */
	function startOfWindow(): number {
		const window = (Math.floor(Date.now() / 1000) + 10) * 1000;
		setClock(window);
		return window;
	}

	async function burst(count: number): Promise<Answer[]> {
		const answers: Answer[] = [];
		for (let i = 0; i < count; i++) answers.push(await send(SMS_PATH, { ...smsRequest(), message: `burst ${i}` }));
		return answers;
	}

	it('admits perSecond requests a second, refuses the rest with 429 and Retry-After in seconds, delivers none of them', async () => {
		sandbox().setRateLimit({ perSecond: 3 });
		const window = startOfWindow();
		const answers = await burst(5);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
		expect(answers[3].headers.get('retry-after')).toBe('1');
		expect(answers[3].message).toBe('Too many requests: at most 3 per second');
		const stats = sandbox().stats();
		expect(stats).toMatchObject({ received: 5, delivered: 3, rateLimited: 2 });
		expect(stats.byStatus).toEqual({ '200': 3, '429': 2 });
		expect(sandbox().requests.map((request) => request.rateLimited ?? false)).toEqual([false, false, false, true, true]);
		// The next window admits again.
		setClock(window + 1005);
		expect((await send(SMS_PATH, smsRequest())).status).toBe(200);
	});

	it("Retry-After as an HTTP date names the next window's start; 'none' sends no Retry-After", async () => {
		sandbox().setRateLimit({ perSecond: 1, retryAfter: 'date' });
		let window = startOfWindow();
		let answers = await burst(2);
		expect(answers[1].status).toBe(429);
		expect(answers[1].headers.get('retry-after')).toBe(new Date(window + 1000).toUTCString());

		sandbox().setRateLimit({ perSecond: 1, retryAfter: 'none' });
		window = startOfWindow();
		answers = await burst(2);
		expect(answers[1].status).toBe(429);
		expect(answers[1].headers.get('retry-after')).toBeNull();
	});

	it('a change takes effect in the current window; undefined removes the limit; reset() restores the options', async () => {
		sandbox().setRateLimit({ perSecond: 2 });
		startOfWindow();
		expect((await burst(3)).map((answer) => answer.status)).toEqual([200, 200, 429]);
		sandbox().setRateLimit({ perSecond: 4 });
		expect((await burst(3)).map((answer) => answer.status)).toEqual([200, 200, 429]);
		sandbox().setRateLimit(undefined);
		expect((await burst(3)).map((answer) => answer.status)).toEqual([200, 200, 200]);

		const own = await startSandbox({ port: 0, apiKey: KEY, rateLimit: { perSecond: 1 }, now });
		try {
			own.setRateLimit(undefined);
			own.reset();
			const post = () =>
				fetch(`${own.url}${SMS_PATH}`, {
					method: 'POST',
					headers: { Authorization: KEY, 'Content-Type': 'application/json' },
					body: JSON.stringify(smsRequest()),
				});
			startOfWindow();
			expect([(await post()).status, (await post()).status]).toEqual([200, 429]);
		} finally {
			await own.stop();
		}
	});

	it('control endpoint: GET, POST and DELETE /__sandbox/rate-limit; a bad limit is refused', async () => {
		expect((await control('rate-limit')).body).toEqual({ rateLimit: null });
		expect((await control('rate-limit', 'POST', { perSecond: 5, retryAfter: 'date' })).status).toBe(200);
		expect((await control('rate-limit')).body).toEqual({ rateLimit: { perSecond: 5, retryAfter: 'date' } });
		for (const bad of [{ perSecond: 0 }, { perSecond: 1.5 }, { perSecond: 5, retryAfter: 'later' }, { perSecond: 5, burst: 2 }]) {
			expect((await control('rate-limit', 'POST', bad)).status).toBe(400);
		}
		expect((await control('rate-limit', 'DELETE')).body).toEqual({ rateLimit: null });
		expect(() => sandbox().setRateLimit({ perSecond: -1 })).toThrow(/perSecond/);
		await expect(startSandbox({ rateLimit: { perSecond: 0 } })).rejects.toThrow(/perSecond/);
	});
});
