import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';

/**
 * One POST and its answer, never following a redirect, read as a stream and abandoned past
 * {@link MAX_ANSWER_BYTES} (after decompression), under one deadline for connect, headers and
 * body. Every send goes through n8n's request helper (`httpRequestWithAuthentication`), so n8n's
 * proxy settings, TLS handling and cancel signal apply as for any node. Only the credential test
 * uses `fetch` ({@link fetchClient}): n8n's credential-test context offers no request helper
 * but the deprecated `request`. `fetch` always checks the service's certificate, so the
 * credential's Ignore SSL Issues applies to sends only (see credentialTest.ts).
 */

/** Largest answer read, after decompression: real answers are a few hundred bytes. */
const MAX_ANSWER_BYTES = 1024 * 1024;
export const MAX_ANSWER_TEXT = '1 MiB';

export interface Answer {
	status: number;
	headers: Record<string, string>;
	text: string;
}

export type WireFailureKind = 'timeout' | 'tooLarge' | 'cancelled' | 'network';

/** A request that got no usable answer. `reason` may hold service text: scrub before showing. */
export class WireFailure extends Error {
	constructor(
		readonly kind: WireFailureKind,
		readonly reason: string,
		readonly code?: string,
	) {
		super(reason);
		this.name = 'WireFailure';
	}
}

interface Exchange {
	url: string;
	body: IDataObject;
	/** Milliseconds for the whole exchange. */
	timeout: number;
	/** n8n's execution cancel signal, when there is one. */
	cancel?: AbortSignal;
}

/** A client: sends one exchange and returns the raw answer, or throws WireFailure. */
export type Client = (exchange: Exchange) => Promise<Answer>;

type Chunks = AsyncIterable<Uint8Array | string>;

function headerRecord(entries: Iterable<[string, unknown]>): Record<string, string> {
	const record: Record<string, string> = {};
	for (const [name, value] of entries) {
		if (typeof value === 'string') record[name.toLowerCase()] = value;
		else if (Array.isArray(value)) record[name.toLowerCase()] = value.join(', ');
		else if (typeof value === 'number') record[name.toLowerCase()] = String(value);
	}
	return record;
}

/**
 * The rejection of a request this client aborted itself: not yet a failure, since only the
 * deadline and the cancel signal (read in failureFrom) tell whether it timed out or was cancelled.
 */
class Aborted extends Error {
	constructor() {
		super('aborted');
		this.name = 'Aborted';
	}
}

function failureFrom(error: unknown, deadline: { aborted: boolean }, cancel: AbortSignal | undefined): WireFailure {
	if (error instanceof WireFailure) return error;
	if (deadline.aborted) return new WireFailure('timeout', 'no complete answer before the deadline');
	if (cancel?.aborted) return new WireFailure('cancelled', 'the execution was cancelled');
	const wrapped = error as {
		code?: unknown;
		httpCode?: unknown;
		messages?: unknown;
		cause?: { code?: unknown; message?: unknown; cause?: { code?: unknown } };
	};
	const rawCode = wrapped.cause?.code ?? wrapped.code ?? wrapped.cause?.cause?.code ?? wrapped.httpCode;
	const code = typeof rawCode === 'string' && /^[A-Z][A-Z0-9_]+$/.test(rawCode) ? rawCode : undefined;
	const original = Array.isArray(wrapped.messages) ? wrapped.messages.find((text) => typeof text === 'string') : undefined;
	const causeText = typeof wrapped.cause?.message === 'string' ? wrapped.cause.message : undefined;
	const reason =
		typeof original === 'string'
			? original
			: (causeText ?? (error instanceof Error ? error.message : String(error)));
	if (code === 'ETIMEDOUT' || code === 'ECONNABORTED') return new WireFailure('timeout', reason, code);
	return new WireFailure('network', reason, code);
}

const isRedirect = (status: number) => status >= 300 && status < 400;

/** A body up to the cap, or '' for a redirect (not read); a larger one is abandoned. */
async function readCapped(status: number, headers: Record<string, string>, chunks: Chunks | null | undefined): Promise<string> {
	if (!chunks || isRedirect(status)) return '';
	const declaredLength = headers['content-length'];
	if (declaredLength !== undefined && Number(declaredLength) > MAX_ANSWER_BYTES) {
		throw new WireFailure('tooLarge', `the answer declared ${declaredLength} bytes`);
	}
	const parts: Buffer[] = [];
	let size = 0;
	for await (const chunk of chunks) {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
		size += buffer.byteLength;
		if (size > MAX_ANSWER_BYTES) throw new WireFailure('tooLarge', `the answer exceeded ${MAX_ANSWER_BYTES} bytes`);
		parts.push(buffer);
	}
	return Buffer.concat(parts).toString('utf8');
}

/** Rejects when the signal aborts, so a stalled step cannot outlive the deadline. */
function untilAborted(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
	let onAbort = () => {};
	const promise = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Aborted());
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	// Never unhandled: the race below always observes it, and a late rejection is ignored.
	promise.catch(() => undefined);
	return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * The requests in flight under each of n8n's cancel signals. One listener per signal aborts
 * them all: a listener per request would pile up on the execution's one signal (and make Node
 * warn of a leak past ten), and `AbortSignal.any` would keep every request's signal alive for as
 * long as the execution's lives.
 */
const inFlight = new WeakMap<AbortSignal, Set<AbortController>>();

function underCancel(cancel: AbortSignal, controller: AbortController): () => void {
	const live = inFlight.get(cancel) ?? new Set<AbortController>();
	if (!inFlight.has(cancel)) {
		inFlight.set(cancel, live);
		cancel.addEventListener('abort', () => live.forEach((each) => each.abort()), { once: true });
	}
	if (cancel.aborted) controller.abort();
	live.add(controller);
	return () => live.delete(controller);
}

/**
 * Runs one exchange of n8n's request helper under one deadline (and n8n's cancel signal),
 * through a plain AbortController tied to both. The work is also raced against the deadline
 * itself, since the helper may not honour the signal in every phase.
 */
async function withDeadline<T>(exchange: Exchange, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
	const controller = new AbortController();
	const deadline = AbortSignal.timeout(exchange.timeout);
	const { cancel } = exchange;
	const abort = () => controller.abort();
	deadline.addEventListener('abort', abort, { once: true });
	const release = cancel ? underCancel(cancel, controller) : undefined;
	const stop = untilAborted(controller.signal);
	try {
		return await Promise.race([work(controller.signal), stop.promise]);
	} catch (error) {
		throw failureFrom(error, deadline, cancel);
	} finally {
		deadline.removeEventListener('abort', abort);
		release?.();
		stop.dispose();
	}
}

/** The credential test's client: one POST with the runtime's `fetch`, under the same bounds. */
export function fetchClient(headers: Record<string, string>): Client {
	return async (exchange) => {
		const deadline = AbortSignal.timeout(exchange.timeout);
		try {
			const response = await fetch(exchange.url, {
				method: 'POST',
				headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json' },
				body: JSON.stringify(exchange.body),
				redirect: 'manual',
				signal: deadline,
			});
			const answerHeaders = headerRecord(response.headers.entries());
			const text = await readCapped(response.status, answerHeaders, response.body as unknown as Chunks | null);
			if (isRedirect(response.status)) await response.body?.cancel();
			return { status: response.status, headers: answerHeaders, text };
		} catch (error) {
			throw failureFrom(error, deadline, undefined);
		}
	};
}

/** The part of an n8n request helper this client uses: one POST whose body comes as a stream. */
export type N8nRequest = (request: { url: string; body: IDataObject; timeout: number; signal: AbortSignal }) => Promise<StreamAnswer>;

export interface StreamAnswer {
	statusCode: number;
	headers: IDataObject;
	body: (Chunks & { destroy?: (error?: Error) => void }) | undefined;
}

/**
 * Options for `httpRequestWithAuthentication`: no redirects, body as a stream, statuses judged by
 * us. `ignoreSslIssues` (the credential's switch) becomes n8n's own option for it, which skips
 * the certificate check of this request only; nothing else about the request changes.
 */
export function httpRequestOptions(request: Parameters<N8nRequest>[0], { ignoreSslIssues }: { ignoreSslIssues: boolean }): IHttpRequestOptions {
	return {
		method: 'POST',
		url: request.url,
		headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		body: request.body,
		json: true,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: request.timeout,
		abortSignal: request.signal,
		skipSslCertificateValidation: ignoreSslIssues,
	};
}

/**
 * n8n's request helper, told not to follow redirects and to hand over the body as a stream.
 * The helper builds its own agent per request (proxy from n8n's environment, TLS settings).
 */
export function n8nClient(request: N8nRequest): Client {
	return async (exchange) =>
		await withDeadline(exchange, async (signal) => {
			const response = await request({ url: exchange.url, body: exchange.body, timeout: exchange.timeout, signal });
			const stream = response.body;
			const headers = headerRecord(Object.entries(response.headers ?? {}));
			const onAbort = () => stream?.destroy?.(new Aborted());
			signal.addEventListener('abort', onAbort, { once: true });
			let read = false;
			try {
				const text = await readCapped(response.statusCode, headers, stream);
				read = !isRedirect(response.statusCode);
				return { status: response.statusCode, headers, text };
			} finally {
				signal.removeEventListener('abort', onAbort);
				// A redirect's body, or one abandoned half-way, is not read: close its connection.
				if (!read) stream?.destroy?.();
			}
		});
}

/**
 * What n8n's helper needs of its `this`. Without `getExecutionCancelSignal` on it the helper
 * keeps the signal given here (deadline and cancel combined) instead of replacing it with the
 * cancel signal alone, so the deadline also aborts a request that stalls before its headers.
 */
export function helperThis(node: INode, helpers: object): object {
	return { getNode: () => node, helpers };
}
