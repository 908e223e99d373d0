/** The sandbox's public types: its options, what it records, its statistics and its handle. */
import type { AnswerPlan, AnswerRecord } from './answerLinks';
import type { Fault } from './faults';
import type { RateLimit } from './rateLimit';
import type { TlsMaterial } from './tls';

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
	/** Also serve the phone page (phone.ts) on plain http at 127.0.0.1:`port` (0: any free port); default none. */
	phone?: { port: number };
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
	/** The phone page, http://127.0.0.1:<port>, when the options asked for it. */
	phoneUrl?: string;
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
	/** Turns automatic answers on or off; the plan stays as it is (reset() turns them back on). */
	setAutomaticAnswers(on: boolean): void;
	/** Whether automatic answers are on (a plan must also be set for anything to be answered). */
	automaticAnswers(): boolean;
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
