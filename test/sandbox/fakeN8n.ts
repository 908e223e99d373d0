/**
 * n8n's waiting webhook, reduced to what the person answering a Send-and-Wait message sees: a
 * page with the form on GET, the answer recorded on POST. The sandbox's answer-link tests point
 * their links at it.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import type { AnswerRecord, Sandbox } from '../../sandbox/server';
import type { TlsMaterial } from '../../sandbox/tls';
import type { Json } from './client';

const PAGE = '<!DOCTYPE html>\n<html><body><p>Ship order 42?</p><form method="post"><button name="approved" value="true">Approve</button></form></body></html>';
export const RECORDED = '<!DOCTYPE html>\n<html><body><p>Your answer was recorded.</p></body></html>';

interface Hit {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
	/** performance.now() when the request arrived. */
	at: number;
}

export interface FakeN8n {
	origin: string;
	hits: Hit[];
	/**
	 * Statuses to answer the next POSTs with, in order, before recording one: n8n answers 409 while
	 * the execution still runs, and 500 while a manual run is not yet stored as waiting.
	 */
	refusals: number[];
	/** Same path and query as n8n's waiting webhook for `executionId`, on this server. */
	link(executionId: string): string;
	close(): Promise<void>;
}

/** n8n's waiting webhook, reduced to what the person sees: a page on GET, a recorded answer on POST. */
export async function startFakeN8n(tls?: TlsMaterial): Promise<FakeN8n> {
	const hits: Hit[] = [];
	const fake = { refusals: [] as number[] };
	const handle = (req: IncomingMessage, res: ServerResponse): void => {
		const at = performance.now();
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at });
			const refusal = req.method === 'POST' ? fake.refusals.shift() : undefined;
			if (refusal !== undefined) {
				res.writeHead(refusal, { 'content-type': 'application/json' }).end('{"message":"not waiting yet"}');
				return;
			}
			res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(req.method === 'POST' ? RECORDED : PAGE);
		});
	};
	const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handle) : createServer(handle);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		hits,
		get refusals() {
			return fake.refusals;
		},
		set refusals(statuses: number[]) {
			fake.refusals = statuses;
		},
		link: (executionId) => `${origin}/webhook-waiting/${executionId}/node-7f3a?signature=c2lnbmVk.token`,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				// The sandbox's fetch keeps its connection alive; this server's end closes it.
				server.closeAllConnections();
			}),
	};
}

/** How long a test waits for the sandbox's answers under way to end. */
export const SETTLE_DEADLINE_MS = 15_000;

/**
 * A fake n8n for each test of the file, closed after it once the sandbox's answers under way have
 * ended (one left under way would reach the next test's server): the test fails if any had not.
 */
export function useFakeN8n(sandbox: () => { answersSettled(deadlineMs: number): Promise<number> }): () => FakeN8n {
	let n8n: FakeN8n | undefined;
	beforeEach(async () => {
		n8n = await startFakeN8n();
	});
	afterEach(async () => {
		const underWay = await sandbox().answersSettled(SETTLE_DEADLINE_MS);
		await n8n?.close();
		expect(underWay).toBe(0);
	});
	return () => {
		if (n8n === undefined) throw new Error('the fake n8n is made for each test');
		return n8n;
	};
}

/** A message posted to the sandbox API as the node sends it: its HTTP status. */
export async function deliver(target: Sandbox, apiPath: string, body: Json): Promise<number> {
	const response = await fetch(`${target.url}${apiPath}`, {
		method: 'POST',
		headers: { Authorization: target.apiKey, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	await response.text();
	return response.status;
}

/** The sandbox answers, once none is under way (the test fails if one still is). */
export async function settled(target: Sandbox): Promise<AnswerRecord[]> {
	expect(await target.answersSettled(SETTLE_DEADLINE_MS)).toBe(0);
	return target.answers;
}
