import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';

/**
 * A tiny HTTP proxy on 127.0.0.1 that records what reaches it: TCP connections, CONNECT tunnels
 * (opened only to this machine, so n8n's own calls home are refused and a run stays offline),
 * plain forward-proxy requests (refused with 502, so a request that should not have used the
 * proxy fails visibly) and every byte a client sent it. The engine tests and the real-n8n
 * self-hosted check both use it.
 */

const THIS_MACHINE = ['localhost', '127.0.0.1', '::1'];

export interface RecordingProxy {
	/** http://127.0.0.1:<port> */
	url: string;
	connections(): number;
	/** `host:port` of each CONNECT, with its request headers. */
	connects: Array<{ target: string; headers: IncomingHttpHeaders }>;
	/** Absolute URLs of plain (non-CONNECT) proxied requests. */
	forwarded: string[];
	/** Everything clients sent to the proxy, tunnelled bytes included, as latin1 text. */
	received(): string;
	stop(): Promise<void>;
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
	const sockets = new Set<Socket>();
	const connects: RecordingProxy['connects'] = [];
	const forwarded: string[] = [];
	const bytes: Buffer[] = [];
	let connections = 0;

	const server = createServer((req, res) => {
		forwarded.push(req.url ?? '');
		req.resume();
		res.writeHead(502, { 'content-type': 'text/plain' });
		res.end('recording proxy: plain requests are not forwarded');
	});
	server.on('connection', (socket: Socket) => {
		connections++;
		sockets.add(socket);
		socket.on('data', (chunk: Buffer) => bytes.push(Buffer.from(chunk)));
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('connect', (req, client: Socket, head: Buffer) => {
		const target = req.url ?? '';
		connects.push({ target, headers: req.headers });
		const at = target.lastIndexOf(':');
		const host = target.slice(0, at).replace(/^\[|\]$/g, '');
		if (!THIS_MACHINE.includes(host)) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
		const upstream = connect(Number(target.slice(at + 1)), host, () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length > 0) upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		sockets.add(upstream);
		upstream.on('close', () => sockets.delete(upstream));
		upstream.on('error', () => client.destroy());
		client.on('error', () => upstream.destroy());
	});

	await new Promise<void>((ready, fail) => {
		server.once('error', fail);
		server.listen(0, '127.0.0.1', () => ready());
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		connections: () => connections,
		connects,
		forwarded,
		received: () => Buffer.concat(bytes).toString('latin1'),
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((done) => server.close(() => done()));
		},
	};
}
