import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A stand-in for a misbehaving service, for what the sandbox cannot do: answer arbitrary raw
 * bodies and headers (e.g. echo the API key back in a non-JSON page), and count TCP connections,
 * so a test can prove that no connection was even attempted.
 */

export interface HostileRequest {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

export type HostileAnswer = { status: number; headers?: Record<string, string>; body: string } | 'hang';

export interface HostileService {
	/** http://<host>:<port> as reachable from this machine. */
	url: string;
	port: number;
	/** TCP connections accepted so far (TLS handshakes that then fail included). */
	connections(): number;
	requests: HostileRequest[];
	stop(): Promise<void>;
}

export async function startHostileService({
	host = '127.0.0.1',
	answer = () => ({ status: 200, body: '{"message":"success","data":{"id":"x"}}' }),
}: {
	host?: string;
	answer?: (request: HostileRequest) => HostileAnswer;
} = {}): Promise<HostileService> {
	const requests: HostileRequest[] = [];
	const sockets = new Set<Socket>();
	let connections = 0;
	const server = createServer((req, res) => {
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
			res.writeHead(reply.status, { 'content-length': Buffer.byteLength(reply.body), ...reply.headers });
			res.end(reply.body);
		});
	});
	server.on('connection', (socket: Socket) => {
		connections++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((ready, fail) => {
		server.once('error', fail);
		server.listen(0, host, () => ready());
	});
	const { port } = server.address() as AddressInfo;
	const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
	return {
		url: `http://${shown}:${port}`,
		port,
		connections: () => connections,
		requests,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((done) => server.close(() => done()));
		},
	};
}
