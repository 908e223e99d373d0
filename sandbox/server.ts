/**
 * Local sandbox of the Multi-Channel Notification Service (shared/spec/notification-service-api.md):
 * the entry point other code imports. See README.md in this folder for what each file does.
 *
 * It answers the three send endpoints the way the spec describes, checks every request strictly
 * (validate.ts), records what it received, and lets a test or a demo inject infrastructure faults,
 * latency and a rate limit. Other processes drive it through the unauthenticated `/__sandbox/*`
 * control endpoints (control.ts). It can also play the person who answers a Send-and-Wait
 * message's link (answerLinks.ts). It speaks https, like every real Base URL, with the run's
 * throwaway certificate (tls.ts; see scripts/with-tls.ts), or plain http when asked (`plainHttp`).
 */
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

import type { LogContext } from './api';
import { handleApi } from './api';
import { CONTROL_PREFIX, handleControl } from './control';
import { jsonOutcome, readBody, writeOutcome } from './http';
import type { PhoneServer } from './phone';
import { startPhone } from './phone';
import { SandboxState } from './state';
import { loadRunTls } from './tls';
import type { Sandbox, SandboxOptions } from './types';
import { API_PATHS } from './validate';

export { API_PATHS, COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH } from './validate';
export type { AnswerPlan, AnswerRecord, AnswerScope, PlannedAnswer } from './answerLinks';
export { MAX_ANSWER_DELAY_MS, checkAnswerPlan, findAnswerLink } from './answerLinks';
export type { LimiterShape, RateLimit, RetryAfterStyle } from './rateLimit';
export { LIMITER_SHAPES, RETRY_AFTER_STYLES, checkRateLimit } from './rateLimit';
export type { Fault, FaultKind } from './faults';
export { checkFault } from './faults';
export type { AnswerGate, PathStats, RecordedRequest, Sandbox, SandboxOptions, SandboxStats } from './types';
export { CONTROL_PREFIX } from './control';
export { DEFAULT_API_KEY } from './state';

/** Above the usual 60 s client keep-alive, so the client, not the server, closes idle sockets. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** Benchmarks open thousands of connections at once; the default backlog of 511 drops some. */
const LISTEN_BACKLOG = 4096;

/** Prints one line per request once it is answered or given up. */
function logWhenClosed(req: IncomingMessage, res: ServerResponse, path: string, log: LogContext): void {
	const startedAt = Date.now();
	res.once('close', () => {
		const status = res.headersSent ? String(res.statusCode) : 'no answer';
		const fault = log.fault ? ` [fault: ${log.fault}]` : '';
		process.stdout.write(`${req.method ?? ''} ${path} ${status}${fault} ${Date.now() - startedAt}ms\n`);
	});
}

function route(state: SandboxState, quiet: boolean, req: IncomingMessage, res: ServerResponse): void {
	const rawUrl = req.url ?? '/';
	const queryAt = rawUrl.indexOf('?');
	const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
	const log: LogContext = {};
	if (!quiet) logWhenClosed(req, res, path, log);
	let work: Promise<void>;
	if (API_PATHS.includes(path)) work = handleApi(state, req, res, path, log);
	else if (path.startsWith(CONTROL_PREFIX)) work = handleControl(state, req, res, path);
	else {
		work = readBody(req).then((body) => {
			if (!body.aborted) writeOutcome(res, jsonOutcome(404, { message: `Not found: ${path}` }));
		});
	}
	work.catch((error: unknown) => {
		// A bug in the sandbox must not take the process down mid-benchmark; report it as a 500.
		process.stderr.write(`sandbox: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		writeOutcome(res, jsonOutcome(500, { message: 'sandbox internal error' }));
	});
}

/** The server, listening; `sockets` holds its open connections so stop() can destroy them. */
async function listen(options: SandboxOptions, state: SandboxState, sockets: Set<Socket>): Promise<Server> {
	const handle = (req: IncomingMessage, res: ServerResponse) => route(state, options.quiet ?? true, req, res);
	const serveTls = () => {
		const { key, cert } = options.tls ?? loadRunTls();
		return createServer({ key, cert }, handle);
	};
	const server = options.plainHttp ? createHttpServer(handle) : serveTls();
	server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
	// Must exceed keepAliveTimeout, or Node may cut a keep-alive socket while a request is arriving.
	server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', LISTEN_BACKLOG, () => {
			server.off('error', reject);
			resolve();
		});
	});
	return server;
}

/** Closes the server and every open socket, hung ones included, once nothing more is answered. */
function stopServer(state: SandboxState, server: Server, sockets: Set<Socket>): Promise<void> {
	const answersSettled = state.stop();
	// Aborted answers settle at once; waiting for them means none touches a link after stop().
	const closed = new Promise<void>((resolve) => server.close(() => resolve()));
	for (const socket of sockets) socket.destroy();
	return Promise.all([closed, answersSettled]).then(() => undefined);
}

/** The phone page on the sandbox's state, when the options ask for it; a port in use closes the API server too. */
async function phoneFor(options: SandboxOptions, state: SandboxState, server: Server): Promise<PhoneServer | undefined> {
	if (options.phone === undefined) return undefined;
	const tasks = state.answerTasks;
	const source = {
		requests: state.requests,
		answers: tasks.records,
		currentPlan: () => tasks.currentPlan(),
		automatic: () => tasks.isAutomatic(),
		setAutomatic: (on: boolean) => tasks.setAutomatic(on),
	};
	try {
		return await startPhone(source, options.phone.port);
	} catch (error) {
		await new Promise<void>((resolve) => server.close(() => resolve()));
		throw new Error(`phone page: ${error instanceof Error ? error.message : String(error)}`);
	}
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const state = new SandboxState(options);
	const sockets = new Set<Socket>();
	const server = await listen(options, state, sockets);
	const phone = await phoneFor(options, state, server);
	const address = server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	let stopping: Promise<void> | undefined;
	return {
		url: `${options.plainHttp ? 'http' : 'https'}://${host}:${address.port}`,
		port: address.port,
		...(phone ? { phoneUrl: phone.url } : {}),
		apiKey: state.apiKey,
		requests: state.requests,
		deliveries: () => state.requests.filter((request) => request.delivered),
		stats: () => state.stats(),
		startChat: (phoneNumber) => state.startChat(phoneNumber),
		setLatency: (ms) => state.setLatency(ms),
		setRateLimit: (limit) => state.rateLimit.set(limit),
		injectFault: (fault) => state.faults.push(fault),
		clearFaults: () => state.faults.clear(),
		holdAnswers: (gate) => state.arrivals.hold(gate, state.requests.length),
		openRequests: () => state.arrivals.openRequests(),
		whenIdle: (deadlineMs) => state.arrivals.whenIdle(deadlineMs),
		onAdmitted: (count, action) => state.arrivals.onAdmitted(count, action),
		answers: state.answerTasks.records,
		setAnswerPlan: (plan) => state.answerTasks.setPlan(plan),
		setAutomaticAnswers: (on) => state.answerTasks.setAutomatic(on),
		automaticAnswers: () => state.answerTasks.isAutomatic(),
		answersSettled: (deadlineMs) => state.answerTasks.settled(deadlineMs),
		reset: () => state.reset(),
		stop: () => (stopping ??= Promise.all([stopServer(state, server, sockets), phone?.stop()]).then(() => undefined)),
	};
}
