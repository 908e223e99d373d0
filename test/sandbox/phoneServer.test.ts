/**
 * The phone page as the sandbox serves it: plain http on 127.0.0.1 only, on a port of its own,
 * what was sent shown without the API key, a GET that never changes anything, and the switch for
 * automatic answers reachable only by a POST from the page itself.
 */
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';

import { SMS_PATH, startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { expectIdle } from '../helpers/sandbox';

const KEY = 'phone-test-key-77ab';
const PLAN = { answer: 'approve' as const, only: { recipient: '+6281100004242', nodeId: 'node-1' } };
let sandbox: Sandbox;

beforeAll(async () => {
	// The API on every interface: the phone page must still be on loopback alone.
	sandbox = await startSandbox({ port: 0, host: '0.0.0.0', apiKey: KEY, answerLinks: PLAN, phone: { port: 0 } });
});
beforeEach(() => sandbox.reset());
afterEach(async () => await expectIdle(sandbox));
afterAll(async () => await sandbox.stop());

interface Reply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** A raw request to the phone page, so a test can set Host and Origin as a browser or an attacker would. */
function phone(method: string, path: string, headers: Record<string, string> = {}, body = ''): Promise<Reply> {
	const url = new URL(sandbox.phoneUrl ?? 'http://phone-page-not-started');
	return new Promise((resolve, reject) => {
		const req = request({ host: url.hostname, port: url.port, method, path, headers: { host: url.host, ...headers } }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', reject);
		req.end(body);
	});
}

async function sendSms(message: string): Promise<void> {
	const response = await fetch(`https://127.0.0.1:${sandbox.port}${SMS_PATH}`, {
		method: 'POST',
		headers: { Authorization: KEY, 'Content-Type': 'application/json' },
		body: JSON.stringify({ phone_number: '+6281234567890', message }),
	});
	expect(response.status).toBe(200);
	await response.text();
}

/** The page's token, read from its switch as the browser would. */
async function token(): Promise<string> {
	const match = /name="token" value="([^"]+)"/.exec((await phone('GET', '/')).body);
	if (!match) throw new Error('no token on the page');
	return match[1];
}

function post(form: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
	return phone('POST', '/automatic-answers', { 'content-type': 'application/x-www-form-urlencoded', ...headers }, new URLSearchParams(form).toString());
}

describe('the phone page server', () => {
	it('listens on plain http on 127.0.0.1 only, on its own port, even when the API listens everywhere', async () => {
		expect(sandbox.phoneUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(Number(new URL(sandbox.phoneUrl ?? '').port)).not.toBe(sandbox.port);
		const outside = Object.values(networkInterfaces())
			.flat()
			.find((address) => address && address.family === 'IPv4' && !address.internal);
		if (outside) {
			const port = new URL(sandbox.phoneUrl ?? '').port;
			await expect(fetch(`http://${outside.address}:${port}/`)).rejects.toThrow();
		}
	});

	it('shows what was sent, never the API key, with its security headers', async () => {
		await sendSms('Your code is 1234');
		const reply = await phone('GET', '/');
		expect(reply.status).toBe(200);
		expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(reply.headers['content-security-policy']).toContain("default-src 'none'");
		expect(reply.headers['x-frame-options']).toBe('DENY');
		// A browser then sends the page's Origin with the switch's POST, which the server checks.
		expect(reply.headers['referrer-policy']).toBe('same-origin');
		expect(reply.body).toContain('Your code is 1234');
		expect(reply.body).not.toContain(KEY);
		const fragment = await phone('GET', '/messages');
		expect(fragment.body).toContain('Your code is 1234');
		expect(fragment.body).not.toContain('<html');
	});

	it('a GET changes nothing: not the requests, not the answers, not the switch, whatever its path', async () => {
		await sendSms('hello');
		const before = JSON.stringify([sandbox.requests, sandbox.answers, sandbox.automaticAnswers()]);
		for (const path of ['/', '/messages', '/automatic-answers?answers=off', '/automatic-answers']) await phone('GET', path);
		expect(JSON.stringify([sandbox.requests, sandbox.answers, sandbox.automaticAnswers()])).toBe(before);
		expect((await phone('GET', '/automatic-answers?answers=off')).status).toBe(405);
		expect(sandbox.automaticAnswers()).toBe(true);
	});

	it('the switch: a POST with the page\'s token turns automatic answers off and on, then sends the browser back to the page', async () => {
		const off = await post({ token: await token(), answers: 'off' });
		expect(off.status).toBe(303);
		expect(off.headers.location).toBe('/');
		expect(sandbox.automaticAnswers()).toBe(false);
		expect((await phone('GET', '/')).body).toContain('Automatic answers are off');
		await post({ token: await token(), answers: 'on' });
		expect(sandbox.automaticAnswers()).toBe(true);
	});

	it('a POST without the token, with another site\'s Origin, or to another Host (DNS rebinding) changes nothing', async () => {
		const good = await token();
		expect((await post({ answers: 'off' })).status).toBe(403);
		expect((await post({ token: 'guess', answers: 'off' })).status).toBe(403);
		expect((await post({ token: good, answers: 'off' }, { origin: 'https://evil.example' })).status).toBe(403);
		expect((await post({ token: good, answers: 'off' }, { origin: 'null' })).status).toBe(403);
		expect((await post({ token: good, answers: 'off' }, { host: 'evil.example' })).status).toBe(403);
		expect((await phone('GET', '/', { host: 'evil.example' })).status).toBe(403);
		expect((await post({ token: good, answers: 'maybe' })).status).toBe(400);
		expect(sandbox.automaticAnswers()).toBe(true);
	});

	it('the phone page is not started unless asked for', async () => {
		const plain = await startSandbox({ port: 0 });
		try {
			expect(plain.phoneUrl).toBeUndefined();
		} finally {
			await plain.stop();
		}
	});
});
