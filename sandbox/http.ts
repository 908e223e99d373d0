/**
 * The sandbox's HTTP plumbing: reading a request body under a size limit, parsing it as JSON, and
 * writing an answer (or deliberately none).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Larger than any real notification; stops a runaway client from filling memory. */
export const MAX_BODY_BYTES = 1024 * 1024;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** What a request is answered: a body, no answer at all ('timeout'), or a dropped connection ('reset'). */
export type Outcome =
	| { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
	| { kind: 'text'; status: number; body: string; contentType: string; headers?: Record<string, string> }
	| { kind: 'timeout' }
	| { kind: 'reset' };

export interface BodyResult {
	text: string;
	/** The client went away before the body was complete. */
	aborted: boolean;
	tooLarge: boolean;
}

export function jsonOutcome(status: number, body: unknown): Outcome {
	return { kind: 'json', status, body };
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
	if (text.length === 0) return { ok: false };
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch (error) {
		// Not JSON is an ordinary outcome here (the caller answers 400); anything else is a sandbox bug.
		if (error instanceof SyntaxError) return { ok: false };
		throw error;
	}
}

export function readBody(req: IncomingMessage): Promise<BodyResult> {
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

/**
 * Writes `outcome` on `res`, unless the client is gone or the outcome is no answer, and then
 * notes on `record` what was answered.
 */
export function writeOutcome(res: ServerResponse, outcome: Outcome, record?: { status: number; response: unknown }): void {
	// The client may have given up during the latency wait; then nothing was answered.
	if (res.destroyed || res.writableEnded) return;
	if (outcome.kind === 'timeout') return;
	if (outcome.kind === 'reset') {
		res.socket?.destroy();
		return;
	}
	const text = outcome.kind === 'json' ? JSON.stringify(outcome.body) : outcome.body;
	const contentType = outcome.kind === 'json' ? JSON_CONTENT_TYPE : outcome.contentType;
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
