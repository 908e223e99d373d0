/**
 * Infrastructure faults a test or a demo queues for the next API requests: what a proxy, a load
 * balancer or a broken deployment in front of the service would answer instead of it.
 */
import { STATUS_CODES } from 'node:http';

import { isJsonObject } from './fieldChecks';
import type { Outcome } from './http';
import { API_PATHS } from './validate';

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

const FAULT_KINDS: readonly string[] = ['status', 'timeout', 'reset', 'nonJson', 'errorMessage'];
const FAULT_KEYS: readonly string[] = ['path', 'times', 'kind', 'status', 'message', 'retryAfter', 'retryAfterDateInMs', 'afterDelivery'];
const NON_JSON_BODY = '<html>Bad gateway</html>';
const DEFAULT_FAULT_MESSAGE = 'quota exceeded';

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

/** The queued faults, applied first in, first out to the requests they match. */
export class FaultQueue {
	private queued: Array<{ fault: Fault; remaining: number }> = [];

	/** Throws on a malformed fault. */
	push(fault: Fault): void {
		const error = checkFault(fault);
		if (error) throw new Error(error);
		this.queued.push({ fault: { ...fault }, remaining: fault.times ?? 1 });
	}

	/** The first fault that applies to a request to `path`, used once; undefined when none does. */
	take(path: string): Fault | undefined {
		const index = this.queued.findIndex((queued) => queued.fault.path === undefined || queued.fault.path === path);
		if (index === -1) return undefined;
		const queued = this.queued[index];
		queued.remaining--;
		if (queued.remaining === 0) this.queued.splice(index, 1);
		return queued.fault;
	}

	clear(): void {
		this.queued = [];
	}

	/** How many requests the queue still applies to. */
	pending(): number {
		return this.queued.reduce((sum, queued) => sum + queued.remaining, 0);
	}

	list(): Array<Fault & { remaining: number }> {
		return this.queued.map((queued) => ({ ...queued.fault, remaining: queued.remaining }));
	}
}

/** What a request that arrived at `receivedAt` is answered when `fault` applies to it. */
export function faultOutcome(fault: Fault, receivedAt: number): Outcome {
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
