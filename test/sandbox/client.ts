/**
 * What the sandbox's own tests share: the requests they send (valid ones, to change per test), a
 * client that sends them over real HTTP, and the sandbox each test file runs against, with a clock
 * a test can hold still.
 */
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { useSandbox } from '../helpers/sandbox';

export type Json = Record<string, unknown>;

export const FROM = '+6281100000001';
export const TO = '+6281200000002';
/** Has started the chat from the sandbox's options, so reset() keeps it. */
export const STARTED = '+6281300000003';
export const KEY = 'test-key-123';

export const BODY = { type: 'body', parameters: [{ type: 'text', text: 'Budi' }] };
export const HEADER = {
	type: 'header',
	parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/header.png' } }],
};

export function templateMessage(components: unknown[] = [BODY]): Json {
	return {
		from: FROM,
		to: TO,
		type: 'template',
		template: { name: 'order_update', language: { policy: 'deterministic', code: 'id' }, components },
	};
}

export function mediaMessage(type: string, media: Json = { link: `https://cdn.example.com/file.${type}` }): Json {
	return { from: FROM, to: STARTED, type, [type]: media };
}

export function smsRequest(): Json {
	return { phone_number: '+6281234567890', message: 'Your code is 1234' };
}

export function combinedRequest(): Json {
	return { chat: templateMessage(), sms: smsRequest() };
}

export function json(value: unknown): Json {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected an object');
	return value as Json;
}

export interface Answer {
	status: number;
	headers: Headers;
	text: string;
	body: unknown;
	message: unknown;
}

export interface SendInit {
	headers?: Record<string, string>;
	raw?: string | Uint8Array;
	method?: string;
	signal?: AbortSignal;
}

async function sendTo(target: Sandbox, apiPath: string, payload: unknown, init: SendInit = {}): Promise<Answer> {
	const headers = init.headers ?? { Authorization: KEY, 'Content-Type': 'application/json' };
	const method = init.method ?? 'POST';
	const response = await fetch(`${target.url}${apiPath}`, {
		method,
		headers,
		body: method === 'GET' || method === 'HEAD' ? undefined : (init.raw ?? JSON.stringify(payload)),
		signal: init.signal,
	});
	const text = await response.text();
	let body: unknown;
	try {
		body = JSON.parse(text) as unknown;
	} catch (error) {
		// Some answers (the nonJson fault) are meant not to be JSON; the tests look at `text` then.
		if (!(error instanceof SyntaxError)) throw error;
		body = undefined;
	}
	const message = typeof body === 'object' && body !== null ? (body as Json).message : undefined;
	return { status: response.status, headers: response.headers, text, body, message };
}

/** A request to the control endpoint `name` (after /__sandbox/), JSON in and out. */
export async function controlRequest(target: Sandbox, name: string, method = 'GET', payload?: unknown): Promise<{ status: number; body: Json }> {
	const response = await fetch(`${target.url}/__sandbox/${name}`, {
		method,
		body: payload === undefined ? undefined : JSON.stringify(payload),
	});
	return { status: response.status, body: json(await response.json()) };
}

export interface SandboxClient {
	sandbox: () => Sandbox;
	/** Sends `payload` as JSON to an API path, with the right key unless `init.headers` says otherwise. */
	send: (apiPath: string, payload: unknown, init?: SendInit) => Promise<Answer>;
	control: (name: string, method?: string, payload?: unknown) => Promise<{ status: number; body: Json }>;
	/** Holds the sandbox's clock at `ms` (rate-limit windows); undefined goes back to the real clock, as before each test. */
	setClock: (ms: number | undefined) => void;
	/** The sandbox's clock, to pass as `now` to a sandbox a test starts itself. */
	now: () => number;
}

/** One sandbox for the test file (key KEY, STARTED a started chat), reset and checked idle around each test. */
export function useSandboxClient(options: SandboxOptions = {}): SandboxClient {
	let clockMs: number | undefined;
	const now = () => clockMs ?? Date.now();
	const sandbox = useSandbox({ apiKey: KEY, startedChats: [STARTED], now, ...options });
	beforeEach(() => {
		clockMs = undefined;
	});
	return {
		sandbox,
		send: (apiPath, payload, init) => sendTo(sandbox(), apiPath, payload, init),
		control: (name, method, payload) => controlRequest(sandbox(), name, method, payload),
		setClock: (ms) => {
			clockMs = ms;
		},
		now,
	};
}
