import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import type { Server } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createGzip } from 'node:zlib';

import type { TlsMaterial } from '../../sandbox/tls';
import { loadRunTls } from '../../sandbox/tls';

/**
 * A stand-in for a misbehaving service, for what the sandbox cannot do: answer arbitrary raw
 * bodies and headers (e.g. echo the API key back in a non-JSON page), redirect, stream huge or
 * compressed bodies, trickle an answer, and count TCP connections, so a test can prove that no
 * connection was even attempted. It speaks https with the run's throwaway certificate (the
 * sandbox's, from sandbox/tls.ts: `npm test` makes it and trusts it through NODE_EXTRA_CA_CERTS)
 * or with one given, or plain http when asked.
 */

export interface HostileRequest {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

export type HostileAnswer =
	| { status: number; headers?: Record<string, string | string[]>; body: string | Buffer }
	| 'hang'
	/** Full control of the answer: stream, trickle, stop half-way. */
	| { respond: (response: ServerResponse, request: IncomingMessage) => void };

export interface HostileService {
	/** https://<host>:<port> (http:// when insecure) as reachable from this machine. */
	url: string;
	port: number;
	/** TCP connections accepted so far (TLS handshakes that then fail, or plain http attempts, included). */
	connections(): number;
	requests: HostileRequest[];
	/** Every byte clients sent inside TLS, as latin1 text: headers exactly as sent. */
	received(): string;
	/** Forgets the requests, bytes and connections counted so far. */
	reset(): void;
	stop(): Promise<void>;
}

export async function startHostileService({
	host = '127.0.0.1',
	insecure = false,
	tls,
	answer = () => ({ status: 200, body: '{"message":"success","data":{"id":"x"}}' }),
}: {
	host?: string;
	/**
	 * Plain http: for a listener that must see no connection (a downgrade target, a refused http
	 * URL), or one the node reaches with the credential's Allow Plain HTTP on.
	 */
	insecure?: boolean;
	/** Key and certificate to serve https with (e.g. one nobody trusts); default the run's. */
	tls?: TlsMaterial;
	answer?: (request: HostileRequest) => HostileAnswer;
} = {}): Promise<HostileService> {
	const requests: HostileRequest[] = [];
	const sockets = new Set<Socket>();
	const bytes: Buffer[] = [];
	let connections = 0;
	const handler = (req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const request = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(request);
			const reply = answer(request);
			if (reply === 'hang') return;
			if ('respond' in reply) {
				reply.respond(res, req);
				return;
			}
			res.writeHead(reply.status, { 'content-length': Buffer.byteLength(reply.body), ...reply.headers });
			res.end(reply.body);
		});
	};
	const server: Server = insecure ? createHttpServer(handler) : createServer(tls ?? loadRunTls(), handler);
	// The raw TCP socket, before any handshake.
	server.on('connection', (socket: Socket) => {
		connections++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('secureConnection', (socket: Socket) => {
		socket.on('data', (chunk: Buffer) => bytes.push(Buffer.from(chunk)));
	});
	await new Promise<void>((ready, fail) => {
		server.once('error', fail);
		server.listen(0, host, () => ready());
	});
	const { port } = server.address() as AddressInfo;
	const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
	return {
		url: `${insecure ? 'http' : 'https'}://${shown}:${port}`,
		port,
		connections: () => connections,
		requests,
		received: () => Buffer.concat(bytes).toString('latin1'),
		reset: () => {
			requests.length = 0;
			bytes.length = 0;
			connections = 0;
		},
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((done) => server.close(() => done()));
		},
	};
}

/** The port of a server that was started and stopped again: nothing listens there. */
export async function closedPort(): Promise<number> {
	const service = await startHostileService();
	await service.stop();
	return service.port;
}

/**
 * A 200 JSON answer of `prefix`, then `fill` spaces (JSON whitespace, so the whole body is a
 * valid success answer if read to the end), then `suffix`. Streamed in 64 KiB chunks with
 * backpressure, so the server side holds no more than a chunk; it stops when the client goes.
 */
export function streamedAnswer(
	prefix: string,
	fill: number,
	suffix: string,
	{ status = 200, contentLength = false }: { status?: number; contentLength?: boolean } = {},
): HostileAnswer {
	return {
		respond: (response) => {
			const chunk = Buffer.alloc(64 * 1024, ' ');
			const total = Buffer.byteLength(prefix) + fill + Buffer.byteLength(suffix);
			response.writeHead(status, {
				'content-type': 'application/json',
				...(contentLength ? { 'content-length': String(total) } : {}),
			});
			response.write(prefix);
			let left = fill;
			let gone = false;
			response.on('close', () => {
				gone = true;
			});
			const pump = () => {
				while (!gone && left > 0) {
					const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
					left -= piece.length;
					if (!response.write(piece)) {
						response.once('drain', pump);
						return;
					}
				}
				if (!gone) response.end(suffix);
			};
			pump();
		},
	};
}

/**
 * Headers at once, then the body one byte every `everyMs`; stops when the client goes.
 * `closed`: how many bytes had gone out when the answer closed (for the whole body or because
 * the client left).
 */
export function trickledAnswer(body: string, everyMs: number): HostileAnswer & { closed: Promise<number> } {
	let onClosed: (sent: number) => void = () => undefined;
	const closed = new Promise<number>((resolve) => (onClosed = resolve));
	return {
		closed,
		respond: (response) => {
			response.writeHead(200, { 'content-type': 'application/json' });
			response.flushHeaders();
			const bytes = Buffer.from(body);
			let sent = 0;
			const timer = setInterval(() => {
				response.write(bytes.subarray(sent, sent + 1));
				sent++;
				if (sent >= bytes.length) {
					clearInterval(timer);
					response.end();
				}
			}, everyMs);
			response.on('close', () => {
				clearInterval(timer);
				onClosed(sent);
			});
		},
	};
}

let bomb: Promise<{ gzip: Buffer; inflated: number }> | undefined;

/**
 * A gzip stream of ~300 KB that inflates to ~300 MB: a success answer padded with spaces (still
 * valid JSON when fully inflated). Built once per test file, streamed so it never sits inflated
 * in memory here.
 */
export async function gzipBomb(): Promise<{ gzip: Buffer; inflated: number }> {
	bomb ??= new Promise((done, fail) => {
		const prefix = '{"message":"success","data":{"id":"bomb","marker":"BOMB-BODY-MARKER"}';
		const gzip = createGzip({ level: 9 });
		const out: Buffer[] = [];
		gzip.on('data', (chunk: Buffer) => out.push(chunk));
		gzip.on('error', fail);
		const megabyte = Buffer.alloc(1024 * 1024, ' ');
		const megabytes = 300;
		gzip.on('end', () =>
			done({ gzip: Buffer.concat(out), inflated: Buffer.byteLength(prefix) + megabytes * megabyte.length + 1 }),
		);
		gzip.write(prefix);
		let written = 0;
		const pump = () => {
			while (written < megabytes) {
				written++;
				if (!gzip.write(megabyte)) {
					gzip.once('drain', pump);
					return;
				}
			}
			gzip.end('}');
		};
		pump();
	});
	return await bomb;
}

/** A redirect answer to `location`. */
export function redirectAnswer(status: number, location: string): HostileAnswer {
	return { status, headers: { location, 'content-type': 'text/plain' }, body: 'Moved' };
}
