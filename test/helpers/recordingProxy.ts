import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';

/**
 * A tiny HTTP proxy on 127.0.0.1 that records what reaches it: TCP connections, CONNECT tunnels
 * (which it opens to their target), plain forward-proxy requests (which it refuses with 502, so
 * a request that should not have used the proxy fails visibly) and every byte a client sent it.
 */

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
		const upstream = connect(Number(target.slice(at + 1)), target.slice(0, at).replace(/^\[|\]$/g, ''), () => {
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

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY'];

/**
 * Sets HTTP_PROXY and HTTPS_PROXY to `proxyUrl` with NO_PROXY unset (lower-case spellings and
 * npm's too, which proxy-from-env also reads), and returns a function that puts every one back.
 */
export function useProxyEnvironment(proxyUrl: string): () => void {
	const names = PROXY_VARIABLES.flatMap((name) => [name, name.toLowerCase(), `npm_config_${name.toLowerCase()}`]);
	names.push('npm_config_proxy');
	const saved = new Map(names.map((name) => [name, process.env[name]]));
	for (const name of names) delete process.env[name];
	process.env.HTTP_PROXY = proxyUrl;
	process.env.HTTPS_PROXY = proxyUrl;
	return () => {
		for (const [name, value] of saved) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	};
}
