/**
 * Local sandbox of the Multi-Channel Notification Service (shared/spec/notification-service-api.md).
 *
 * It answers the three send endpoints the way the spec describes, checks every request strictly
 * (see validate.ts), records what it received, and lets a test or a demo inject infrastructure
 * faults and latency. Other processes drive it through the unauthenticated `/__sandbox/*` control
 * endpoints. It can also play the person who answers a Send-and-Wait message's link (see
 * answerLinks.ts). It speaks https, like every real Base URL, with the run's throwaway
 * certificate (sandbox/tls.ts; see scripts/with-tls.ts), or plain http when asked (`plainHttp`).
 * Only Node built-ins (and `openssl`) are used so it can run anywhere the package's tests run.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer as createHttpServer, STATUS_CODES } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

import {
	API_PATHS,
	MEDIA_TYPES,
	SMS_PATH,
	WA_MESSAGE_PATH,
	isE164,
	isJsonObject,
	validateRequest,
} from './validate';
import type { AnswerPlan, AnswerRecord } from './answerLinks';
import { answerForm, checkAnswerPlan, findAnswerLink, playAnswer } from './answerLinks';
import type { Limiter, RateLimit } from './rateLimit';
import { checkRateLimit, createLimiter, retryAfterHeader } from './rateLimit';
import type { TlsMaterial } from './tls';
import { loadRunTls } from './tls';

export { API_PATHS, COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH } from './validate';
export type { AnswerPlan, AnswerRecord, PlannedAnswer } from './answerLinks';
export { MAX_ANSWER_DELAY_MS, checkAnswerPlan, findAnswerLink } from './answerLinks';
export type { LimiterShape, RateLimit, RetryAfterStyle } from './rateLimit';
export { LIMITER_SHAPES, RETRY_AFTER_STYLES, checkRateLimit } from './rateLimit';

export const DEFAULT_API_KEY = 'sandbox-api-key';
export const CONTROL_PREFIX = '/__sandbox/';

export interface SandboxOptions {
	/** 0 picks a free port. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Default 'sandbox-api-key'. */
	apiKey?: string;
	/** Delay before answering an API request; control endpoints are never delayed. */
	latencyMs?: number;
	/** Phone numbers that have started a chat, so media messages to them are accepted. */
	startedChats?: string[];
	/** No per-request log line; default true. */
	quiet?: boolean;
	/** Admit at most this many API requests per second (in a limiter shape, see rateLimit.ts) and answer HTTP 429 beyond it; default none. */
	rateLimit?: RateLimit;
	/** Key and certificate to serve https with; default the run's (SANDBOX_TLS_DIR, see sandbox/tls.ts). */
	tls?: TlsMaterial;
	/** Serve plain http instead (a service reached with the credential's Allow Plain HTTP); default false. */
	plainHttp?: boolean;
	/** The clock arrival times and the rate limit read, in ms since the epoch; default Date.now. Tests inject one they move by hand. */
	now?: () => number;
	/** Answer the waiting-webhook link of every delivered message this way (see answerLinks.ts); default none. */
	answerLinks?: AnswerPlan;
}

/** Hold API answers until this many requests are open at once, or this many arrived since the last reset (the tail of a run). */
export interface AnswerGate {
	inFlight: number;
	received: number;
}

export interface RecordedRequest {
	seq: number;
	/** Arrival time, ms since the epoch. */
	receivedAt: number;
	method: string;
	path: string;
	headers: Record<string, string>;
	rawBody: string;
	/** Parsed JSON, or undefined when the body is not JSON. */
	body: unknown;
	/** What was answered; 0 if nothing was (timeout, reset, client gone). */
	status: number;
	response: unknown;
	delivered: boolean;
	/** Message, SMS or combined request id when delivered. */
	id?: string;
	fault?: string;
	/** Refused with 429 by the rate limit (SandboxOptions.rateLimit). */
	rateLimited?: boolean;
	/** The latency the answer was held back by (setLatency), when it was answered. */
	latencyMs?: number;
}

export type FaultKind = 'status' | 'timeout' | 'reset' | 'nonJson' | 'errorMessage';

export interface Fault {
	/** Only requests to this API path; default any API path. */
	path?: string;
	/** How many requests it applies to; default 1. */
	times?: number;
	kind: FaultKind;
	/** For 'status' (default 500), 'nonJson' and 'errorMessage' (default 200). */
	status?: number;
	/** `message` of the JSON body for 'status' and 'errorMessage'. */
	message?: string;
	/** Retry-After header value (seconds or HTTP date). */
	retryAfter?: string;
	/**
	 * Retry-After as the HTTP date this many ms after the refused request arrived (the date's
	 * one-second resolution rounds it down): a wait measured from the request itself, however long
	 * the client took to send it.
	 */
	retryAfterDateInMs?: number;
	/** The message is accepted and delivered, but the fault is what is answered. */
	afterDelivery?: boolean;
}

export interface PathStats {
	received: number;
	delivered: number;
}

export interface SandboxStats {
	received: number;
	delivered: number;
	byPath: Record<string, PathStats>;
	byStatus: Record<string, number>;
	/** Delivered requests whose rawBody equals an earlier delivered one (double sends). */
	duplicateBodies: number;
	pendingFaults: number;
	/** Most API requests open at the same moment since the last reset: shows a client's concurrency. Requests that arrived before the reset are not counted. */
	maxInFlight: number;
	/** Requests the rate limit refused with 429. */
	rateLimited: number;
}

export interface Sandbox {
	/** e.g. https://127.0.0.1:43123 (http:// with `plainHttp`), no trailing slash. */
	url: string;
	port: number;
	apiKey: string;
	/** Every request to the three API endpoints, in arrival order. */
	requests: RecordedRequest[];
	deliveries(): RecordedRequest[];
	stats(): SandboxStats;
	startChat(phoneNumber: string): void;
	setLatency(ms: number): void;
	/** Sets, changes (takes effect in the current window) or, with undefined, removes the rate limit. */
	setRateLimit(limit: RateLimit | undefined): void;
	/** Queued; applied in FIFO order to the next matching API requests. Throws on a malformed fault. */
	injectFault(fault: Fault): void;
	clearFaults(): void;
	/**
	 * Answers nothing until the gate's condition holds, then answers every held request at once.
	 * Shows a client's concurrency exactly, however slowly the machine runs.
	 */
	holdAnswers(gate: AnswerGate): void;
	/**
	 * Calls `action` the moment the `count`-th API request since the last reset is let through
	 * (past any fault and the rate limit), before any later request arrives: a test changes the
	 * service at a point in the run's progress rather than at a time a busy machine may reach
	 * early or late.
	 */
	onAdmitted(count: number, action: () => void): void;
	/** API requests open now, from before the last reset too. */
	openRequests(): number;
	/** Waits until no API request is open, at most `deadlineMs`; resolves with how many are still open. */
	whenIdle(deadlineMs: number): Promise<number>;
	/** What was done with answer links since the last reset, in the order the answers started. */
	answers: AnswerRecord[];
	/** Sets or, with undefined, removes how delivered answer links are answered; throws on a malformed plan. */
	setAnswerPlan(plan: AnswerPlan | undefined): void;
	/** Waits until no answer to a link is under way, at most `deadlineMs`; resolves with how many still are. */
	answersSettled(deadlineMs: number): Promise<number>;
	/**
	 * Clears requests, faults, the counters, any answer gate and the answer records, and aborts
	 * answers under way; started chats, latency, the rate limit and the answer plan go back to the options.
	 */
	reset(): void;
	/** Closes the server, destroys every open socket, hung ones included, and aborts answers under way. */
	stop(): Promise<void>;
}

const UNAUTHORIZED_MESSAGE = 'Unauthorized: invalid API key';
const JSON_CONTENT_TYPE = /^application\/json\s*(;.*)?$/i;
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const NON_JSON_BODY = '<html>Bad gateway</html>';
const DEFAULT_FAULT_MESSAGE = 'quota exceeded';
/** Larger than any real notification; stops a runaway client from filling memory. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Above the usual 60 s client keep-alive, so the client, not the server, closes idle sockets. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const FAULT_KINDS: readonly string[] = ['status', 'timeout', 'reset', 'nonJson', 'errorMessage'];
const FAULT_KEYS: readonly string[] = ['path', 'times', 'kind', 'status', 'message', 'retryAfter', 'retryAfterDateInMs', 'afterDelivery'];

type Outcome =
	| { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
	| { kind: 'text'; status: number; body: string; contentType: string; headers?: Record<string, string> }
	| { kind: 'timeout' }
	| { kind: 'reset' };

interface QueuedFault {
	fault: Fault;
	remaining: number;
}

interface LogContext {
	fault?: string;
}

/** Control endpoint name (after /__sandbox/) → the methods it answers. */
const CONTROL_METHODS = new Map<string, readonly string[]>([
	['requests', ['GET']],
	['stats', ['GET']],
	['reset', ['POST']],
	['conversations', ['GET', 'POST']],
	['faults', ['GET', 'POST', 'DELETE']],
	['latency', ['GET', 'POST']],
	['rate-limit', ['GET', 'POST', 'DELETE']],
	['answer-links', ['GET', 'POST', 'DELETE']],
	['answers', ['GET']],
]);

interface BodyResult {
	text: string;
	/** The client went away before the body was complete. */
	aborted: boolean;
	tooLarge: boolean;
}

/** Returns the problem with a fault description, or null; shared by injectFault and the control endpoint. */
export function checkFault(value: unknown): string | null {
	if (!isJsonObject(value)) return 'fault: must be an object';
	for (const key of Object.keys(value)) {
		if (!FAULT_KEYS.includes(key)) return `fault.${key}: unknown field (allowed here: ${FAULT_KEYS.join(', ')})`;
	}
	if (typeof value.kind !== 'string' || !FAULT_KINDS.includes(value.kind)) {
		return `fault.kind: must be one of ${FAULT_KINDS.join(', ')}`;
	}
	if (value.path !== undefined && (typeof value.path !== 'string' || !API_PATHS.includes(value.path))) {
		return `fault.path: must be one of ${API_PATHS.join(', ')}`;
	}
	if (value.times !== undefined && (!Number.isInteger(value.times) || (value.times as number) < 1)) {
		return 'fault.times: must be a positive integer';
	}
	if (
		value.status !== undefined &&
		(!Number.isInteger(value.status) || (value.status as number) < 200 || (value.status as number) > 599)
	) {
		return 'fault.status: must be an integer from 200 to 599';
	}
	if (value.message !== undefined && typeof value.message !== 'string') return 'fault.message: must be a string';
	if (value.retryAfter !== undefined && typeof value.retryAfter !== 'string') {
		return 'fault.retryAfter: must be a string';
	}
	if (value.retryAfterDateInMs !== undefined) {
		if (value.retryAfter !== undefined) return 'fault.retryAfterDateInMs: not with retryAfter';
		if (!Number.isInteger(value.retryAfterDateInMs) || (value.retryAfterDateInMs as number) < 0) {
			return 'fault.retryAfterDateInMs: must be an integer >= 0';
		}
	}
	if (value.afterDelivery !== undefined && typeof value.afterDelivery !== 'boolean') {
		return 'fault.afterDelivery: must be a boolean';
	}
	return null;
}

function checkLatency(ms: unknown): string | null {
	if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return 'ms: must be a number >= 0';
	return null;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
	if (text.length === 0) return { ok: false };
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch (error) {
		// Not JSON is an ordinary outcome here (the caller answers 400); anything else is a sandbox bug.
		if (error instanceof SyntaxError) return { ok: false };
		throw error;
	}
}

function readBody(req: IncomingMessage): Promise<BodyResult> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		let settled = false;
		const settle = (aborted: boolean): void => {
			if (settled) return;
			settled = true;
			resolve({ text: Buffer.concat(chunks).toString('utf8'), aborted, tooLarge });
		};
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			// Keep reading past the limit so the 413 answer can still be written on the same socket.
			if (size > MAX_BODY_BYTES) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () => settle(false));
		// A client that disconnects mid-body gets no answer; the request is recorded with status 0.
		req.on('error', () => settle(true));
		req.on('close', () => settle(!req.complete));
	});
}

function faultOutcome(fault: Fault, receivedAt: number): Outcome {
	const headers: Record<string, string> = {};
	if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
	if (fault.retryAfterDateInMs !== undefined) headers['retry-after'] = new Date(receivedAt + fault.retryAfterDateInMs).toUTCString();
	switch (fault.kind) {
		case 'timeout':
			return { kind: 'timeout' };
		case 'reset':
			return { kind: 'reset' };
		case 'nonJson':
			return {
				kind: 'text',
				status: fault.status ?? 200,
				body: NON_JSON_BODY,
				contentType: 'text/html; charset=utf-8',
				headers,
			};
		case 'errorMessage':
			return {
				kind: 'json',
				status: fault.status ?? 200,
				body: { message: fault.message ?? DEFAULT_FAULT_MESSAGE, data: {} },
				headers,
			};
		case 'status': {
			const status = fault.status ?? 500;
			return {
				kind: 'json',
				status,
				body: { message: fault.message ?? STATUS_CODES[status] ?? `HTTP ${status}` },
				headers,
			};
		}
	}
}

function jsonOutcome(status: number, body: unknown): Outcome {
	return { kind: 'json', status, body };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const apiKey = options.apiKey ?? DEFAULT_API_KEY;
	const quiet = options.quiet ?? true;
	const initialLatency = options.latencyMs ?? 0;
	const initialChats = options.startedChats ?? [];
	const latencyError = checkLatency(initialLatency);
	if (latencyError) throw new Error(`latencyMs: ${latencyError}`);
	for (const phone of initialChats) {
		if (!isE164(phone)) throw new Error(`startedChats: "${phone}" is not an E.164 phone number`);
	}
	const initialRateLimit = options.rateLimit === undefined ? undefined : { ...options.rateLimit };
	if (initialRateLimit !== undefined) {
		const rateLimitError = checkRateLimit(initialRateLimit);
		if (rateLimitError) throw new Error(rateLimitError);
	}
	const initialAnswerPlan = options.answerLinks === undefined ? undefined : structuredClone(options.answerLinks);
	if (initialAnswerPlan !== undefined) {
		const planError = checkAnswerPlan(initialAnswerPlan);
		if (planError) throw new Error(planError);
	}

	const requests: RecordedRequest[] = [];
	let faults: QueuedFault[] = [];
	let startedChats = new Set<string>(initialChats);
	let latencyMs = initialLatency;
	let rateLimit = initialRateLimit;
	let limiter: Limiter | undefined = rateLimit === undefined ? undefined : createLimiter(rateLimit.shape);
	// Arrival times in whole milliseconds on a clock that only moves forward, as the node's pacing reads time.
	const now = options.now ?? (() => Math.floor(performance.timeOrigin + performance.now()));
	let seq = 0;
	// Requests open in the current epoch (since the last reset), and in all.
	let epoch = 0;
	let inFlight = 0;
	let maxInFlight = 0;
	let open = 0;
	let idleWaiters: Array<() => void> = [];
	let gate: AnswerGate | undefined;
	let held: Array<() => void> = [];
	// Never reset, so SMS request ids stay unique for the life of the sandbox.
	let smsRequestId = 0;
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();
	let answerPlan = initialAnswerPlan;
	const answers: AnswerRecord[] = [];
	// Each answer under way, by the controller that aborts it.
	const answerTasks = new Map<AbortController, Promise<void>>();
	let answerWaiters: Array<() => void> = [];
	let admittedCount = 0;
	let admissionActions: Array<{ count: number; action: () => void }> = [];

	function onAdmitted(count: number, action: () => void): void {
		if (count <= admittedCount) action();
		else admissionActions.push({ count, action });
	}

	function recordAdmission(): void {
		admittedCount++;
		const due = admissionActions.filter(({ count }) => count <= admittedCount);
		admissionActions = admissionActions.filter(({ count }) => count > admittedCount);
		for (const { action } of due) action();
	}

	function takeFault(path: string): Fault | undefined {
		const index = faults.findIndex((queued) => queued.fault.path === undefined || queued.fault.path === path);
		if (index === -1) return undefined;
		const queued = faults[index];
		queued.remaining--;
		if (queued.remaining === 0) faults.splice(index, 1);
		return queued.fault;
	}

	function injectFault(fault: Fault): void {
		const error = checkFault(fault);
		if (error) throw new Error(error);
		faults.push({ fault: { ...fault }, remaining: fault.times ?? 1 });
	}

	function startChat(phoneNumber: string): void {
		if (!isE164(phoneNumber)) throw new Error(`startChat: "${phoneNumber}" is not an E.164 phone number`);
		startedChats.add(phoneNumber);
	}

	function setLatency(ms: number): void {
		const error = checkLatency(ms);
		if (error) throw new Error(`setLatency: ${error}`);
		latencyMs = ms;
	}

	function setRateLimit(limit: RateLimit | undefined): void {
		if (limit !== undefined) {
			const error = checkRateLimit(limit);
			if (error) throw new Error(`setRateLimit: ${error}`);
		}
		rateLimit = limit === undefined ? undefined : { ...limit };
		// A new shape starts afresh; the same shape keeps counting, so a change takes effect in the current window.
		if (rateLimit === undefined) limiter = undefined;
		else if (limiter?.shape !== (rateLimit.shape ?? 'fixedWindow')) limiter = createLimiter(rateLimit.shape);
	}

	/** The 429 for a request arriving at `now` beyond the limit, or undefined when it is admitted. */
	function rateLimitOutcome(now: number): Outcome | undefined {
		if (rateLimit === undefined || limiter === undefined) return undefined;
		const waitMs = limiter.admit(now, rateLimit);
		if (waitMs === undefined) return undefined;
		const retryAfter = retryAfterHeader(rateLimit.retryAfter ?? 'seconds', now, waitMs);
		return {
			kind: 'json',
			status: 429,
			body: { message: `Too many requests: at most ${rateLimit.perSecond} per second` },
			headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
		};
	}

	function reset(): void {
		requests.length = 0;
		faults = [];
		startedChats = new Set<string>(initialChats);
		latencyMs = initialLatency;
		limiter = undefined;
		setRateLimit(initialRateLimit);
		seq = 0;
		epoch++;
		inFlight = 0;
		maxInFlight = 0;
		gate = undefined;
		releaseHeld();
		// An answer still under way belongs to the test or run before; it must not reach the next one's n8n.
		abortAnswers('the sandbox was reset');
		answers.length = 0;
		answerPlan = initialAnswerPlan === undefined ? undefined : structuredClone(initialAnswerPlan);
		admittedCount = 0;
		admissionActions = [];
	}

	function releaseHeld(): void {
		const answers = held;
		held = [];
		for (const answer of answers) answer();
	}

	/** Opens the gate for good once its condition holds. */
	function checkGate(): void {
		if (gate !== undefined && (inFlight >= gate.inFlight || requests.length >= gate.received)) {
			gate = undefined;
			releaseHeld();
		}
	}

	function holdAnswers(next: AnswerGate): void {
		gate = { ...next };
		checkGate();
	}

	function whenIdle(deadlineMs: number): Promise<number> {
		if (open === 0) return Promise.resolve(0);
		return new Promise<number>((resolve) => {
			const done = () => {
				clearTimeout(timer);
				resolve(open);
			};
			const timer = setTimeout(() => {
				idleWaiters = idleWaiters.filter((waiter) => waiter !== done);
				resolve(open);
			}, deadlineMs);
			idleWaiters.push(done);
		});
	}

	function setAnswerPlan(plan: AnswerPlan | undefined): void {
		if (plan !== undefined) {
			const error = checkAnswerPlan(plan);
			if (error) throw new Error(`setAnswerPlan: ${error}`);
		}
		answerPlan = plan === undefined ? undefined : structuredClone(plan);
	}

	/**
	 * Starts answering the link in a request just delivered, if the plan says so. Registered now,
	 * before the API answer is written, so a client that has its answer already finds it under way;
	 * it waits for `res` to be done before it touches the link.
	 */
	function startAnswer(record: RecordedRequest, res: ServerResponse): void {
		// A request still being read when stop() came must not start what stop() just aborted.
		if (answerPlan === undefined || stopping !== undefined) return;
		const link = findAnswerLink(record.path, record.body);
		if (link === undefined) return;
		const entry: AnswerRecord = { requestSeq: record.seq, link, form: answerForm(answerPlan.answer), done: false };
		answers.push(entry);
		const answered = new Promise<void>((resolve) => {
			res.once('finish', resolve);
			res.once('close', resolve);
		});
		const controller = new AbortController();
		const task = playAnswer(entry, answerPlan, answered, controller.signal).then(() => {
			answerTasks.delete(controller);
			if (answerTasks.size === 0) {
				const waiters = answerWaiters;
				answerWaiters = [];
				for (const waiter of waiters) waiter();
			}
		});
		answerTasks.set(controller, task);
	}

	function abortAnswers(reason: string): void {
		for (const controller of answerTasks.keys()) controller.abort(new Error(reason));
	}

	function answersSettled(deadlineMs: number): Promise<number> {
		if (answerTasks.size === 0) return Promise.resolve(0);
		return new Promise<number>((resolve) => {
			const done = () => {
				clearTimeout(timer);
				resolve(answerTasks.size);
			};
			const timer = setTimeout(() => {
				answerWaiters = answerWaiters.filter((waiter) => waiter !== done);
				resolve(answerTasks.size);
			}, deadlineMs);
			answerWaiters.push(done);
		});
	}

	function stats(): SandboxStats {
		const byPath: Record<string, PathStats> = {};
		for (const path of API_PATHS) byPath[path] = { received: 0, delivered: 0 };
		const byStatus: Record<string, number> = {};
		const deliveredBodies = new Set<string>();
		let delivered = 0;
		let duplicateBodies = 0;
		let rateLimited = 0;
		for (const request of requests) {
			if (request.rateLimited) rateLimited++;
			byPath[request.path].received++;
			byStatus[String(request.status)] = (byStatus[String(request.status)] ?? 0) + 1;
			if (!request.delivered) continue;
			delivered++;
			byPath[request.path].delivered++;
			if (deliveredBodies.has(request.rawBody)) duplicateBodies++;
			else deliveredBodies.add(request.rawBody);
		}
		const pendingFaults = faults.reduce((sum, queued) => sum + queued.remaining, 0);
		return {
			received: requests.length,
			delivered,
			byPath,
			byStatus,
			duplicateBodies,
			pendingFaults,
			maxInFlight,
			rateLimited,
		};
	}

	/** The service's own answer to a request that no fault pre-empted: checks in the order of the brief. */
	function serviceOutcome(req: IncomingMessage, path: string, body: BodyResult): { outcome: Outcome; id?: string } {
		if (req.method !== 'POST') {
			return { outcome: jsonOutcome(405, { message: `Method ${req.method ?? ''} not allowed on ${path}; use POST` }) };
		}
		// The received value is never echoed: it may be a real key sent to the wrong place.
		if (req.headers.authorization !== apiKey) return { outcome: jsonOutcome(401, { message: UNAUTHORIZED_MESSAGE }) };
		if (!JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) {
			return { outcome: jsonOutcome(415, { message: 'Content-Type must be application/json' }) };
		}
		if (body.tooLarge) {
			return { outcome: jsonOutcome(413, { message: `body: larger than ${MAX_BODY_BYTES} bytes` }) };
		}
		if (body.text.length === 0) return { outcome: jsonOutcome(400, { message: 'body: is empty; a JSON object is required' }) };
		const parsed = parseJson(body.text);
		if (!parsed.ok) return { outcome: jsonOutcome(400, { message: 'body: is not valid JSON' }) };
		if (!isJsonObject(parsed.value)) return { outcome: jsonOutcome(400, { message: 'body: must be a JSON object' }) };
		const error = validateRequest(path, parsed.value);
		if (error) return { outcome: jsonOutcome(400, { message: error }) };
		const request = parsed.value;

		if (path === WA_MESSAGE_PATH) {
			const to = request.to as string;
			// Spec, endpoint 1, rule 1: media only to a user who has started the chat.
			if (MEDIA_TYPES.includes(request.type as string) && !startedChats.has(to)) {
				return {
					outcome: jsonOutcome(403, {
						message: `Media messages can only be sent to a user who has started the chat (${to})`,
					}),
				};
			}
			const id = `wamid.${randomBytes(12).toString('hex')}`;
			return { outcome: jsonOutcome(200, { message: 'success', data: { id } }), id };
		}
		if (path === SMS_PATH) {
			const id = randomUUID();
			smsRequestId++;
			const data = { id, request_id: smsRequestId, full_content: request.message };
			return { outcome: jsonOutcome(200, { message: 'success', data }), id };
		}
		const id = randomUUID();
		const data = { request_id: id, result: { sms: { status: 'failover' }, chat: { status: 'requested' } } };
		return { outcome: jsonOutcome(200, { message: 'success', data }), id };
	}

	function write(res: ServerResponse, outcome: Outcome, record?: RecordedRequest): void {
		// The client may have given up during the latency wait; then nothing was answered.
		if (res.destroyed || res.writableEnded) return;
		if (outcome.kind === 'timeout') return;
		if (outcome.kind === 'reset') {
			res.socket?.destroy();
			return;
		}
		const text = outcome.kind === 'json' ? JSON.stringify(outcome.body) : outcome.body;
		const contentType = outcome.kind === 'json' ? JSON_HEADERS['content-type'] : outcome.contentType;
		res.writeHead(outcome.status, {
			...outcome.headers,
			'content-type': contentType,
			'content-length': Buffer.byteLength(text),
		});
		res.end(text);
		if (record) {
			record.status = outcome.status;
			record.response = outcome.body;
		}
	}

	function answerLater(res: ServerResponse, outcome: Outcome, record: RecordedRequest): void {
		// 'timeout' holds the socket open until the client gives up or stop() destroys it.
		if (outcome.kind === 'timeout') return;
		if (gate !== undefined) {
			held.push(() => answerLater(res, outcome, record));
			return;
		}
		record.latencyMs = latencyMs;
		if (latencyMs <= 0) {
			write(res, outcome, record);
			return;
		}
		const timer = setTimeout(() => {
			timers.delete(timer);
			write(res, outcome, record);
		}, latencyMs);
		timers.add(timer);
	}

	async function handleApi(req: IncomingMessage, res: ServerResponse, path: string, log: LogContext): Promise<void> {
		seq++;
		const arrivedIn = epoch;
		inFlight++;
		open++;
		maxInFlight = Math.max(maxInFlight, inFlight);
		// Open until answered ('finish') or given up ('close'): over https with `Connection: close`,
		// 'close' waits for the TLS teardown and would count a finished request into the next one.
		let settled = false;
		const settle = () => {
			if (settled) return;
			settled = true;
			open--;
			// A request from before the last reset is not counted against the next test.
			if (arrivedIn === epoch) inFlight--;
			if (open === 0) {
				const waiters = idleWaiters;
				idleWaiters = [];
				for (const waiter of waiters) waiter();
			}
		};
		res.once('finish', settle);
		res.once('close', settle);
		const record: RecordedRequest = {
			seq,
			receivedAt: now(),
			method: req.method ?? '',
			path,
			headers: flattenHeaders(req.headers),
			rawBody: '',
			body: undefined,
			status: 0,
			response: undefined,
			delivered: false,
		};
		requests.push(record);
		checkGate();
		// Taken on arrival so concurrent requests consume faults in the order they came in.
		const fault = takeFault(path);
		if (fault) {
			record.fault = fault.kind;
			log.fault = fault.kind;
		}
		// The rate limit counts arrivals too; an injected fault pre-empts it (it is further out).
		const limited = fault && !fault.afterDelivery ? undefined : rateLimitOutcome(record.receivedAt);
		if (limited) {
			record.rateLimited = true;
			log.fault = 'rateLimit';
		}
		if (!limited && !(fault && !fault.afterDelivery)) recordAdmission();
		const body = await readBody(req);
		record.rawBody = body.text;
		const parsed = parseJson(body.text);
		if (parsed.ok) record.body = parsed.value;
		if (body.aborted) return;

		// Faults model the infrastructure in front of the service, so they pre-empt every check...
		if (fault && !fault.afterDelivery) {
			answerLater(res, faultOutcome(fault, record.receivedAt), record);
			return;
		}
		// ...and so does the rate limit: a refused request never reaches the service.
		if (limited) {
			answerLater(res, limited, record);
			return;
		}
		const { outcome, id } = serviceOutcome(req, path, body);
		if (outcome.kind === 'json' && outcome.status === 200) {
			record.delivered = true;
			record.id = id;
			// Delivered means the person has the message, even when a fault below loses the API answer.
			startAnswer(record, res);
		}
		// ...except afterDelivery, where the service did its work and the answer got lost after it.
		answerLater(res, fault ? faultOutcome(fault, record.receivedAt) : outcome, record);
	}

	async function handleControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
		const body = await readBody(req);
		if (body.aborted) return;
		const name = path.slice(CONTROL_PREFIX.length);
		const method = req.method ?? '';
		const reply = (status: number, payload: unknown): void => write(res, jsonOutcome(status, payload));
		const methods = CONTROL_METHODS.get(name);
		if (methods === undefined) {
			reply(404, { message: `Unknown control endpoint ${path}` });
			return;
		}
		if (!methods.includes(method)) {
			reply(405, { message: `Method ${method} not allowed on ${path}; use ${methods.join(' or ')}` });
			return;
		}
		// Control bodies are parsed whatever their Content-Type so `curl -d` works without -H.
		let input: unknown;
		if (method === 'POST' && body.text.length > 0) {
			const parsed = parseJson(body.text);
			if (!parsed.ok) {
				reply(400, { message: 'body: is not valid JSON' });
				return;
			}
			input = parsed.value;
		}

		switch (`${method} ${name}`) {
			case 'GET requests':
				reply(200, { requests });
				return;
			case 'GET stats':
				reply(200, stats());
				return;
			case 'POST reset':
				reset();
				reply(200, { message: 'reset' });
				return;
			case 'GET conversations':
				reply(200, { started: [...startedChats] });
				return;
			case 'POST conversations': {
				const phone = isJsonObject(input) ? input.phone_number : undefined;
				if (!isE164(phone)) {
					reply(400, { message: 'phone_number: must be an E.164 phone number' });
					return;
				}
				startChat(phone);
				reply(200, { message: 'started', phone_number: phone });
				return;
			}
			case 'GET faults':
				reply(200, { faults: faults.map((queued) => ({ ...queued.fault, remaining: queued.remaining })) });
				return;
			case 'POST faults': {
				const list = Array.isArray(input) ? input : [input];
				// Check them all first so a bad entry in an array queues none of them.
				for (let i = 0; i < list.length; i++) {
					const error = checkFault(list[i]);
					if (error) {
						reply(400, { message: Array.isArray(input) ? `[${i}].${error}` : error });
						return;
					}
				}
				for (const fault of list) injectFault(fault as Fault);
				reply(200, { message: 'queued', queued: list.length });
				return;
			}
			case 'DELETE faults':
				faults = [];
				reply(200, { message: 'cleared' });
				return;
			case 'GET latency':
				reply(200, { ms: latencyMs });
				return;
			case 'GET rate-limit':
				reply(200, { rateLimit: rateLimit ?? null });
				return;
			case 'POST rate-limit': {
				const error = checkRateLimit(input);
				if (error) {
					reply(400, { message: error });
					return;
				}
				setRateLimit(input as RateLimit);
				reply(200, { rateLimit });
				return;
			}
			case 'DELETE rate-limit':
				setRateLimit(undefined);
				reply(200, { rateLimit: null });
				return;
			case 'GET answer-links':
				reply(200, { plan: answerPlan ?? null });
				return;
			case 'POST answer-links': {
				const error = checkAnswerPlan(input);
				if (error) {
					reply(400, { message: error });
					return;
				}
				setAnswerPlan(input as AnswerPlan);
				reply(200, { plan: answerPlan });
				return;
			}
			case 'DELETE answer-links':
				setAnswerPlan(undefined);
				reply(200, { plan: null });
				return;
			case 'GET answers':
				reply(200, { answers, underWay: answerTasks.size });
				return;
			case 'POST latency': {
				const ms = isJsonObject(input) ? input.ms : undefined;
				const error = checkLatency(ms);
				if (error) {
					reply(400, { message: error });
					return;
				}
				latencyMs = ms as number;
				reply(200, { ms: latencyMs });
				return;
			}
		}
	}

	function handle(req: IncomingMessage, res: ServerResponse): void {
		const rawUrl = req.url ?? '/';
		const queryAt = rawUrl.indexOf('?');
		const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
		const log: LogContext = {};
		if (!quiet) {
			const startedAt = Date.now();
			res.once('close', () => {
				const status = res.headersSent ? String(res.statusCode) : 'no answer';
				const fault = log.fault ? ` [fault: ${log.fault}]` : '';
				process.stdout.write(`${req.method ?? ''} ${path} ${status}${fault} ${Date.now() - startedAt}ms\n`);
			});
		}
		let work: Promise<void>;
		if (API_PATHS.includes(path)) work = handleApi(req, res, path, log);
		else if (path.startsWith(CONTROL_PREFIX)) work = handleControl(req, res, path);
		else {
			work = readBody(req).then((body) => {
				if (!body.aborted) write(res, jsonOutcome(404, { message: `Not found: ${path}` }));
			});
		}
		work.catch((error: unknown) => {
			// A bug in the sandbox must not take the process down mid-benchmark; report it as a 500.
			process.stderr.write(`sandbox: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
			write(res, jsonOutcome(500, { message: 'sandbox internal error' }));
		});
	}

	const serveTls = () => {
		const { key, cert } = options.tls ?? loadRunTls();
		return createServer({ key, cert }, handle);
	};
	const server = options.plainHttp ? createHttpServer(handle) : serveTls();
	server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
	// Must exceed keepAliveTimeout, or Node may cut a keep-alive socket while a request is arriving.
	server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	// Benchmarks open thousands of connections at once; the default backlog of 511 drops some.
	const backlog = 4096;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', backlog, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

	let stopping: Promise<void> | undefined;
	function stop(): Promise<void> {
		stopping ??= new Promise<void>((resolve) => {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
			gate = undefined;
			held = [];
			abortAnswers('the sandbox stopped');
			// Aborted answers settle at once; waiting for them means none touches a link after stop().
			const closed = new Promise<void>((closedResolve) => server.close(() => closedResolve()));
			void Promise.all([closed, ...answerTasks.values()]).then(() => resolve());
			for (const socket of sockets) socket.destroy();
		});
		return stopping;
	}

	return {
		url: `${options.plainHttp ? 'http' : 'https'}://${host}:${address.port}`,
		port: address.port,
		apiKey,
		requests,
		deliveries: () => requests.filter((request) => request.delivered),
		stats,
		startChat,
		setLatency,
		setRateLimit,
		injectFault,
		clearFaults: () => {
			faults = [];
		},
		holdAnswers,
		openRequests: () => open,
		whenIdle,
		onAdmitted,
		answers,
		setAnswerPlan,
		answersSettled,
		reset,
		stop,
	};
}
