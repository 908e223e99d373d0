/**
 * One request to an API path, from arrival to answer: it is recorded and counted as it arrives,
 * takes a queued fault or meets the rate limit, is read, judged by the service, may start an
 * answer to its Send-and-Wait link, and is answered after the latency and any answer gate.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Fault } from './faults';
import { faultOutcome } from './faults';
import type { Outcome } from './http';
import { parseJson, readBody, writeOutcome } from './http';
import { arrivalRecord } from './requestLog';
import { serviceOutcome } from './service';
import type { SandboxState } from './state';
import type { RecordedRequest } from './types';

/** What the per-request log line reports besides the status. */
export interface LogContext {
	fault?: string;
}

/** What is decided when a request arrives, before its body is read. */
interface Arrival {
	record: RecordedRequest;
	fault?: Fault;
	/** The rate limit's refusal, when it refused the request. */
	limited?: Outcome;
}

function arrive(state: SandboxState, req: IncomingMessage, res: ServerResponse, path: string, log: LogContext): Arrival {
	const seq = state.arrivals.arrive(res);
	const record = arrivalRecord(req, path, seq, state.now());
	state.requests.push(record);
	state.arrivals.checkGate(state.requests.length);
	// Taken on arrival so concurrent requests consume faults in the order they came in.
	const fault = state.faults.take(path);
	if (fault) {
		record.fault = fault.kind;
		log.fault = fault.kind;
	}
	const preempts = fault !== undefined && !fault.afterDelivery;
	// The rate limit counts arrivals too; an injected fault pre-empts it (it is further out).
	const limited = preempts ? undefined : state.rateLimit.refusal(record.receivedAt);
	if (limited) {
		record.rateLimited = true;
		log.fault = 'rateLimit';
	}
	if (!limited && !preempts) state.arrivals.admit();
	return { record, fault, limited };
}

export async function handleApi(state: SandboxState, req: IncomingMessage, res: ServerResponse, path: string, log: LogContext): Promise<void> {
	const { record, fault, limited } = arrive(state, req, res, path, log);
	const body = await readBody(req);
	record.rawBody = body.text;
	const parsed = parseJson(body.text);
	if (parsed.ok) record.body = parsed.value;
	if (body.aborted) return;

	// Faults model the infrastructure in front of the service, so they pre-empt every check...
	if (fault && !fault.afterDelivery) {
		answerLater(state, res, faultOutcome(fault, record.receivedAt), record);
		return;
	}
	// ...and so does the rate limit: a refused request never reaches the service.
	if (limited) {
		answerLater(state, res, limited, record);
		return;
	}
	const { outcome, id } = serviceOutcome(req, path, body, state);
	if (outcome.kind === 'json' && outcome.status === 200) {
		record.delivered = true;
		record.id = id;
		// Delivered means the person has the message, even when a fault below loses the API answer.
		state.answerTasks.start(record, res);
	}
	// ...except afterDelivery, where the service did its work and the answer got lost after it.
	answerLater(state, res, fault ? faultOutcome(fault, record.receivedAt) : outcome, record);
}

/** Writes the answer once the answer gate is open and the latency has passed. */
function answerLater(state: SandboxState, res: ServerResponse, outcome: Outcome, record: RecordedRequest): void {
	// 'timeout' holds the socket open until the client gives up or stop() destroys it.
	if (outcome.kind === 'timeout') return;
	if (state.arrivals.holdBack(() => answerLater(state, res, outcome, record))) return;
	const latencyMs = state.latencyMs;
	record.latencyMs = latencyMs;
	if (latencyMs <= 0) {
		writeOutcome(res, outcome, record);
		return;
	}
	const timer = setTimeout(() => {
		state.timers.delete(timer);
		writeOutcome(res, outcome, record);
	}, latencyMs);
	state.timers.add(timer);
}
