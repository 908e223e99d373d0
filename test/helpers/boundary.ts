import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/server';
import type { TlsMaterial } from '../../sandbox/tls';

import type { HostileAnswer, HostileRequest, HostileService } from './hostileService';
import { redirectAnswer, startHostileService, streamedAnswer } from './hostileService';
import type { RunNodeResult } from './engine';

/**
 * Shared pieces of the service-boundary tests (test/nodes/MultiChannelNotification/transport/
 * and test/credentials/): the send they make, the key-leak check, the "a lost message is never
 * reported as sent" check and a peak-RSS probe.
 */

/** A key with URL-, HTML- and JSON-special characters: each encoding of it differs from the raw key. */
export const SPECIAL_KEY = `Key/with+special&<chars>"'=1234567890`;

export const SMS_TEXT = 'Kode OTP 482913';

/** An SMS send; `options` are merged over strict numbers, no waiting out a 429 and a 10 s timeout. */
export function smsParameters(options: INodeParameters = {}, message = SMS_TEXT): INodeParameters {
	return {
		resource: 'sms',
		operation: 'send',
		phoneNumber: '+6281234567890',
		message,
		options: { phoneNumberFormat: 'strict', rateLimitMaxWait: 0, timeout: 10000, ...options },
	};
}

function htmlEscape(text: string, apostrophe: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, apostrophe);
}

/** The key as a service might echo it: raw, percent-encoded, JSON-escaped, HTML-escaped. */
export function keyEncodings(key: string): Record<string, string> {
	return {
		raw: key,
		encodeURIComponent: encodeURIComponent(key),
		'JSON-escaped': JSON.stringify(key).slice(1, -1),
		'HTML-escaped': htmlEscape(key, '&#39;'),
		'HTML-escaped (&#x27;)': htmlEscape(key, '&#x27;'),
	};
}

/** Every string inside `value` (object keys too), Error properties and stack included. */
function stringsIn(value: unknown, found: string[] = [], seen = new WeakSet<object>()): string[] {
	if (typeof value === 'string') {
		found.push(value);
	} else if (value !== null && typeof value === 'object') {
		if (seen.has(value)) return found;
		seen.add(value);
		const names = value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value);
		for (const name of names) {
			found.push(name);
			stringsIn((value as Record<string, unknown>)[name], found, seen);
		}
	}
	return found;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `key` shows up in `subjects`: each encoding of it, in each string found in them and in
 * their JSON serialisation. A key under 8 characters counts only where it stands alone (not next
 * to a letter or digit); for a key of 16 or more, any 12 consecutive characters of it count too.
 */
export function keyLeaks(key: string, ...subjects: unknown[]): string[] {
	const texts = [...stringsIn(subjects), ...subjects.map((subject) => JSON.stringify(subject) ?? '')];
	const leaks: string[] = [];
	const encodings = new Map<string, string>();
	for (const [form, encoded] of Object.entries(keyEncodings(key))) {
		if (!encodings.has(encoded)) encodings.set(encoded, form);
	}
	for (const [encoded, form] of encodings) {
		const pattern =
			key.length < 8
				? new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(encoded)}(?![A-Za-z0-9])`)
				: new RegExp(escapeRegExp(encoded));
		for (const text of texts) {
			const match = pattern.exec(text);
			if (match) {
				leaks.push(`${form}: …${text.slice(Math.max(0, match.index - 30), match.index + encoded.length + 30)}…`);
				break;
			}
		}
	}
	if (key.length >= 16) {
		for (let start = 0; start + 12 <= key.length; start++) {
			const piece = key.slice(start, start + 12);
			const text = texts.find((candidate) => candidate.includes(piece));
			if (text !== undefined) {
				const at = text.indexOf(piece);
				leaks.push(`12 characters of it: …${text.slice(Math.max(0, at - 30), at + 42)}…`);
				break;
			}
		}
	}
	return leaks;
}

/** Output, error (message, description, every property) and the whole run hold no form of the key. */
export function expectNoKey(result: Partial<RunNodeResult>, key: string): void {
	const { output, error, run } = result;
	expect(keyLeaks(key, output, error, error?.message, error?.description, run)).toEqual([]);
}

/** One text (e.g. a credential-test message) holds no form of the key. */
export function expectTextHasNoKey(text: unknown, key: string): void {
	expect(keyLeaks(key, text)).toEqual([]);
}

/**
 * A message that was not confirmed is never reported as sent: without Continue On Fail the run
 * failed with no output; with it, every output item is an error item, none says "success".
 */
export function expectNotReportedSent(result: RunNodeResult, continueOnFail: boolean, items = 1): void {
	if (!continueOnFail) {
		expect(result.output).toBeUndefined();
		expect(result.error).toBeDefined();
		return;
	}
	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(items);
	result.output?.forEach((item, index) => {
		expect(item.json.error).toEqual(expect.any(String));
		expect(item.json.message).not.toBe('success');
		expect(item.pairedItem).toEqual({ item: index });
	});
}

/** The error text of a run: the thrown error's, or the first error item's under Continue On Fail. */
export function errorText(result: RunNodeResult): { message: string; description: string } {
	if (result.error) return { message: result.error.message, description: String(result.error.description ?? '') };
	const json = result.output?.[0]?.json ?? {};
	return { message: String(json.error ?? ''), description: String(json.description ?? '') };
}

const MB = 1024 * 1024;

/** Runs `work` while sampling this process's RSS every 5 ms; growth in MB over the RSS before. */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakGrowthMb: number; afterGrowthMb: number }> {
	const before = process.memoryUsage.rss();
	let peak = before;
	const sample = () => {
		peak = Math.max(peak, process.memoryUsage.rss());
	};
	const timer = setInterval(sample, 5);
	try {
		const result = await work();
		sample();
		const after = process.memoryUsage.rss();
		return {
			result,
			peakGrowthMb: Math.round(((peak - before) / MB) * 10) / 10,
			afterGrowthMb: Math.round(((after - before) / MB) * 10) / 10,
		};
	} finally {
		clearInterval(timer);
	}
}

export const SUCCESS_BODY = '{"message":"success","data":{"id":"x"}}';

const success = (): HostileAnswer => ({
	status: 200,
	headers: { 'content-type': 'application/json' },
	body: SUCCESS_BODY,
});

/** A hostile service for one test file: started once, its counts and answer reset before each test. */
export interface UsedService {
	readonly url: string;
	readonly port: number;
	readonly requests: HostileRequest[];
	connections(): number;
	/** Every byte clients sent inside TLS. */
	received(): string;
	/** How the service answers; back to a plain success before each test. */
	answer: (request: HostileRequest) => HostileAnswer;
}

/**
 * `insecure: true` serves plain http: for a server that must see no connection at all (a
 * redirect's downgrade target, a refused http Base URL), or one the node sends to only with the
 * credential's Allow Plain HTTP on. `tls` serves https with another certificate (one nobody trusts).
 */
export function useHostileService({ insecure = false, tls }: { insecure?: boolean; tls?: TlsMaterial } = {}): UsedService {
	let service: HostileService | undefined;
	const running = (): HostileService => {
		if (!service) throw new Error('hostile service not started');
		return service;
	};
	const used: UsedService = {
		get url() {
			return running().url;
		},
		get port() {
			return running().port;
		},
		get requests() {
			return running().requests;
		},
		connections: () => running().connections(),
		received: () => running().received(),
		answer: success,
	};
	beforeAll(async () => {
		service = await startHostileService({ insecure, tls, answer: (request) => used.answer(request) });
	});
	beforeEach(() => {
		running().reset();
		used.answer = success;
	});
	afterAll(async () => {
		await service?.stop();
	});
	return used;
}

/**
 * The boundary rules that hold whatever the credential's switches allow: a redirect is not
 * followed (its target sees no connection, the key goes nowhere else), an answer past 1 MiB is
 * abandoned, and a service that never answers fails within the Timeout. `send` makes one SMS
 * send to a Base URL with the switch under test on and the key SPECIAL_KEY.
 */
export function boundaryHolds(
	service: UsedService,
	target: UsedService,
	send: (baseUrl: string, timeout?: number) => Promise<RunNodeResult>,
): void {
	test('a redirect is not followed: the target sees no connection, the key goes nowhere else', async () => {
		service.answer = () => redirectAnswer(307, `${target.url}/v1/sms/notification?token=abc`);
		const result = await send(service.url);

		expect({
			error: result.error?.name,
			httpCode: result.error?.httpCode,
			requests: service.requests.length,
			targetConnections: target.connections(),
		}).toEqual({ error: 'NodeApiError', httpCode: '307', requests: 1, targetConnections: 0 });
		expect(errorText(result).description).toContain(`${target.url}/v1/sms/notification`);
		expect(errorText(result).description).not.toContain('token=abc');
		expectNotReportedSent(result, false);
		expectNoKey(result, SPECIAL_KEY);
	});

	test('an answer past 1 MiB is abandoned: an error, never a success', async () => {
		service.answer = () => streamedAnswer('{"message":"success","data":{"id":"big","marker":"BIG-ANSWER-MARKER"}', 8 * 1024 * 1024, '}');
		const result = await send(service.url);

		expect(result.error?.name).toBe('NodeApiError');
		expect(errorText(result).message).toContain('1 MiB');
		expect(JSON.stringify([result.output, errorText(result)])).not.toContain('BIG-ANSWER-MARKER');
		expect(service.requests).toHaveLength(1);
	});

	test('a service that never answers fails as a timeout (the Timeout option bounds the exchange)', async () => {
		service.answer = () => 'hang';
		const result = await send(service.url, 500);

		expect(result.error?.name).toBe('NodeApiError');
		expect(errorText(result).message).toBe('The service did not answer within 500 ms');
		expectNotReportedSent(result, false);
	});
}

/** One SMS send went through: its output item, and the exact request the service delivered, with the key. */
export function expectDeliveredSms(result: RunNodeResult, service: Sandbox): void {
	expect(result.error).toBeUndefined();
	expect(result.output).toEqual([{ json: expect.objectContaining({ message: 'success' }), pairedItem: { item: 0 } }]);
	expect(service.requests).toHaveLength(1);
	const [request] = service.requests;
	expect(request).toMatchObject({ method: 'POST', path: '/v1/sms/notification', status: 200, delivered: true });
	expect(request.body).toEqual({ phone_number: '+6281234567890', message: SMS_TEXT });
	expect(request.headers.authorization).toBe(service.apiKey);
}
