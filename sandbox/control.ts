/**
 * The control endpoints under /__sandbox/: how another process reads what the sandbox received
 * and changes how it behaves. No API key; JSON in and out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { AnswerPlan } from './answerLinks';
import { checkAnswerPlan } from './answerLinks';
import type { AnswerTasks } from './answerTasks';
import type { Fault, FaultQueue } from './faults';
import { checkFault } from './faults';
import { isE164, isJsonObject } from './fieldChecks';
import { jsonOutcome, parseJson, readBody, writeOutcome } from './http';
import type { RateLimit, RateLimitGate } from './rateLimit';
import { checkRateLimit } from './rateLimit';
import { checkLatency } from './state';
import type { RecordedRequest, SandboxStats } from './types';

export const CONTROL_PREFIX = '/__sandbox/';

/** What the control endpoints read and change. */
export interface ControlState {
	readonly requests: readonly RecordedRequest[];
	readonly startedChats: ReadonlySet<string>;
	readonly latencyMs: number;
	readonly faults: FaultQueue;
	readonly rateLimit: RateLimitGate;
	readonly answerTasks: AnswerTasks;
	stats(): SandboxStats;
	reset(): void;
	startChat(phoneNumber: string): void;
	setLatency(ms: number): void;
}

interface Reply {
	status: number;
	body: unknown;
}

/** One method of one endpoint; `input` is the parsed JSON body of a POST, if it had one. */
type Handler = (state: ControlState, input: unknown) => Reply;

const ok = (body: unknown): Reply => ({ status: 200, body });
const badRequest = (message: string): Reply => ({ status: 400, body: { message } });

function startConversation(state: ControlState, input: unknown): Reply {
	const phone = isJsonObject(input) ? input.phone_number : undefined;
	if (!isE164(phone)) return badRequest('phone_number: must be an E.164 phone number');
	state.startChat(phone);
	return ok({ message: 'started', phone_number: phone });
}

function queueFaults(state: ControlState, input: unknown): Reply {
	const list = Array.isArray(input) ? input : [input];
	// Check them all first so a bad entry in an array queues none of them.
	for (let i = 0; i < list.length; i++) {
		const error = checkFault(list[i]);
		if (error) return badRequest(Array.isArray(input) ? `[${i}].${error}` : error);
	}
	for (const fault of list) state.faults.push(fault as Fault);
	return ok({ message: 'queued', queued: list.length });
}

function setLatency(state: ControlState, input: unknown): Reply {
	const ms = isJsonObject(input) ? input.ms : undefined;
	const error = checkLatency(ms);
	if (error) return badRequest(error);
	state.setLatency(ms as number);
	return ok({ ms: state.latencyMs });
}

function setRateLimit(state: ControlState, input: unknown): Reply {
	const error = checkRateLimit(input);
	if (error) return badRequest(error);
	state.rateLimit.set(input as RateLimit);
	return ok({ rateLimit: state.rateLimit.current() });
}

function setAnswerPlan(state: ControlState, input: unknown): Reply {
	const error = checkAnswerPlan(input);
	if (error) return badRequest(error);
	state.answerTasks.setPlan(input as AnswerPlan);
	return ok({ plan: state.answerTasks.currentPlan() });
}

/** Endpoint name (after /__sandbox/) → its methods, in the order a 405 names them. */
const ENDPOINTS = new Map<string, Record<string, Handler>>([
	['requests', { GET: (state) => ok({ requests: state.requests }) }],
	['stats', { GET: (state) => ok(state.stats()) }],
	[
		'reset',
		{
			POST: (state) => {
				state.reset();
				return ok({ message: 'reset' });
			},
		},
	],
	['conversations', { GET: (state) => ok({ started: [...state.startedChats] }), POST: startConversation }],
	[
		'faults',
		{
			GET: (state) => ok({ faults: state.faults.list() }),
			POST: queueFaults,
			DELETE: (state) => {
				state.faults.clear();
				return ok({ message: 'cleared' });
			},
		},
	],
	['latency', { GET: (state) => ok({ ms: state.latencyMs }), POST: setLatency }],
	[
		'rate-limit',
		{
			GET: (state) => ok({ rateLimit: state.rateLimit.current() ?? null }),
			POST: setRateLimit,
			DELETE: (state) => {
				state.rateLimit.set(undefined);
				return ok({ rateLimit: null });
			},
		},
	],
	[
		'answer-links',
		{
			GET: (state) => ok({ plan: state.answerTasks.currentPlan() ?? null }),
			POST: setAnswerPlan,
			DELETE: (state) => {
				state.answerTasks.setPlan(undefined);
				return ok({ plan: null });
			},
		},
	],
	['answers', { GET: (state) => ok({ answers: state.answerTasks.records, underWay: state.answerTasks.underWay() }) }],
]);

/** Answers a request to `path` under CONTROL_PREFIX. */
export async function handleControl(state: ControlState, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
	const body = await readBody(req);
	if (body.aborted) return;
	const reply = controlReply(state, req.method ?? '', path, body.text);
	writeOutcome(res, jsonOutcome(reply.status, reply.body));
}

function controlReply(state: ControlState, method: string, path: string, text: string): Reply {
	const methods = ENDPOINTS.get(path.slice(CONTROL_PREFIX.length));
	if (methods === undefined) return { status: 404, body: { message: `Unknown control endpoint ${path}` } };
	if (!Object.hasOwn(methods, method)) {
		return { status: 405, body: { message: `Method ${method} not allowed on ${path}; use ${Object.keys(methods).join(' or ')}` } };
	}
	// Control bodies are parsed whatever their Content-Type so `curl -d` works without -H.
	let input: unknown;
	if (method === 'POST' && text.length > 0) {
		const parsed = parseJson(text);
		if (!parsed.ok) return badRequest('body: is not valid JSON');
		input = parsed.value;
	}
	return methods[method](state, input);
}
