/**
 * The record of the API requests: one entry per arrival, filled in as the request is read and
 * answered, and the statistics computed from it.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

import type { PathStats, RecordedRequest, SandboxStats } from './types';
import { API_PATHS } from './validate';

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}

/** The record of a request as it arrives: nothing read, nothing answered yet. */
export function arrivalRecord(req: IncomingMessage, path: string, seq: number, receivedAt: number): RecordedRequest {
	return {
		seq,
		receivedAt,
		method: req.method ?? '',
		path,
		headers: flattenHeaders(req.headers),
		rawBody: '',
		body: undefined,
		status: 0,
		response: undefined,
		delivered: false,
	};
}

/** Counts over `requests`; the queue and the concurrency come from the sandbox's state. */
export function requestStats(requests: readonly RecordedRequest[], pendingFaults: number, maxInFlight: number): SandboxStats {
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
