/**
 * The phone page's server: plain http on 127.0.0.1 alone, on a port of its own, so a browser
 * opens it without a certificate warning and nothing off this machine reaches it. It shows what
 * the service was asked to send (phonePage.ts), never the API key, and has no control that sends.
 * A GET never changes anything; the one change it offers, turning automatic answers off and on,
 * is a POST that must carry the page's token, come from the page's own origin and name this host
 * (a site the user visits can neither post it nor read the page through a rebound DNS name).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { AnswerPlan, AnswerRecord } from './answerLinks';
import { readBody } from './http';
import { phoneThreads } from './phoneMessages';
import { MESSAGES_PATH, PHONE_HEADERS, SWITCH_PATH, phoneContent, phonePage } from './phonePage';
import type { PhoneView } from './phonePage';
import type { RecordedRequest } from './types';

/** What the phone page reads and the one thing it changes. */
export interface PhoneSource {
	readonly requests: readonly RecordedRequest[];
	readonly answers: readonly AnswerRecord[];
	currentPlan(): AnswerPlan | undefined;
	automatic(): boolean;
	setAutomatic(on: boolean): void;
}

export interface PhoneServer {
	/** http://127.0.0.1:<port> */
	url: string;
	stop(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';

function reply(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
	res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
	res.end(text);
}

function sameToken(given: string | null, token: string): boolean {
	return given !== null && given.length === token.length && timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

/** Turns automatic answers on or off, if the POST came from this page. */
async function handleSwitch(source: PhoneSource, req: IncomingMessage, res: ServerResponse, origins: string[], token: string): Promise<void> {
	const body = await readBody(req);
	if (body.aborted) return;
	const origin = req.headers.origin;
	const form = new URLSearchParams(body.text);
	if ((origin !== undefined && !origins.includes(origin)) || !sameToken(form.get('token'), token)) {
		reply(res, 403, 'Refused: this switch works only from the phone page itself. Nothing was changed.');
		return;
	}
	const answers = form.get('answers');
	if (answers !== 'on' && answers !== 'off') {
		reply(res, 400, `answers: must be "on" or "off" (got "${answers ?? ''}"). Nothing was changed.`);
		return;
	}
	source.setAutomatic(answers === 'on');
	res.writeHead(303, { Location: '/', 'Cache-Control': 'no-store' }).end();
}

function route(source: PhoneSource, req: IncomingMessage, res: ServerResponse, hosts: string[], token: string): Promise<void> | void {
	// A name other than this address is a page elsewhere that rebound its DNS name to 127.0.0.1.
	if (!hosts.includes(req.headers.host ?? '')) return reply(res, 403, 'Refused: open the phone page by its address, as printed.');
	const path = (req.url ?? '/').split('?')[0];
	if (req.method === 'POST' && path === SWITCH_PATH) return handleSwitch(source, req, res, hosts.map((host) => `http://${host}`), token);
	if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'Only GET, and POST from the page\'s switch.', { Allow: 'GET, HEAD' });
	if (path === SWITCH_PATH) return reply(res, 405, 'Use the button on the phone page. Nothing was changed.', { Allow: 'POST' });
	if (path !== '/' && path !== MESSAGES_PATH) return reply(res, 404, `Not found: ${path}`);
	const view: PhoneView = {
		...phoneThreads(source.requests, source.answers),
		automatic: { plan: source.currentPlan(), on: source.automatic() },
		token,
	};
	res.writeHead(200, PHONE_HEADERS);
	res.end(path === '/' ? phonePage(view) : phoneContent(view));
}

/** Starts the phone page on 127.0.0.1:`port` (0: any free port). */
export async function startPhone(source: PhoneSource, port: number): Promise<PhoneServer> {
	const token = randomBytes(24).toString('base64url');
	const sockets = new Set<Socket>();
	let hosts: string[] = [];
	const server: Server = createServer((req, res) => {
		const work = route(source, req, res, hosts, token);
		work?.catch((error: unknown) => {
			process.stderr.write(`sandbox phone page: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
			if (!res.headersSent) reply(res, 500, 'phone page internal error');
		});
	});
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, LOOPBACK, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const bound = (server.address() as AddressInfo).port;
	hosts = [`${LOOPBACK}:${bound}`, `localhost:${bound}`];
	return {
		url: `http://${LOOPBACK}:${bound}`,
		stop: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				for (const socket of sockets) socket.destroy();
			}),
	};
}
