/**
 * Runs the sandbox as a stand-alone https server (plain http with --http): `npx tsx sandbox/cli.ts [--http] [--port N] [--host H]
 * [--key K] [--latency MS] [--rate-limit N [--limit-shape S] [--burst B] [--retry-after R]]
 * [--started +62...]... [--answer approve|decline|text:T [--answer-delay MS] [--answer-no-preview]]
 * [--phone-port N | --no-phone]`
 * (also `npm run sandbox -- ...`).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { watchLifeline } from './lifeline';
import { CONTROL_PREFIX, DEFAULT_API_KEY, startSandbox } from './server';
import type { AnswerPlan, RateLimit, Sandbox } from './server';
import { MAX_ANSWER_DELAY_MS, checkAnswerPlan, checkRateLimit } from './server';
import type { TlsFiles } from './tls';
import { CA_ENV, makeTlsFiles, removeTlsFiles, runTlsFiles } from './tls';

const USAGE = `Usage: tsx sandbox/cli.ts [options]
  --port N         port to listen on (default $SANDBOX_PORT or 8787; 0 = any free port)
  --host H         address to listen on (default 127.0.0.1)
  --key K          API key expected in the Authorization header (default $SANDBOX_API_KEY or ${DEFAULT_API_KEY})
  --latency MS     delay before answering each API request (default 0)
  --rate-limit N   admit at most N API requests a second, HTTP 429 beyond (default: no limit)
  --limit-shape S  fixedWindow (default), tokenBucket or slidingWindow (see sandbox/rateLimit.ts)
  --burst B        tokenBucket only: the bucket's size (default N / 10)
  --retry-after R  what a 429 carries: seconds (default), date or none
  --started PHONE  a number that has started the chat, so media messages to it are accepted (repeatable)
  --answer A       answer the n8n waiting-webhook link in each delivered message as its reader
                   would: approve, decline or text:<answer> (default: links are left alone)
  --answer-delay MS
                   post the answer MS after the delivery (default 0; a real n8n may not be
                   waiting yet the moment its message is sent)
  --answer-no-preview
                   no link-preview GET of the link before the answer
  --http           serve plain http instead of https (to try the credential's Allow Plain HTTP)
  --phone-port N   port of the phone page, plain http on 127.0.0.1 only (default: the API port + 1,
                   or any free port with --port 0)
  --no-phone       no phone page
  --help           show this text

It serves https (unless --http), with a throwaway CA and certificate for localhost/127.0.0.1/::1: the run's
(from $SANDBOX_TLS_DIR, under scripts/with-tls.ts) or, without one, its own, made at start and
deleted at exit. It prints the CA's path: trust it with ${CA_ENV}=<path> for Node and n8n, or
curl --cacert <path>.
`;

function fail(message: string): never {
	process.stderr.write(`${message}\n\n${USAGE}`);
	process.exit(2);
}

function parseNonNegativeInteger(value: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
	// Number('') is 0 and Number('1e3') is 1000; only plain digits are what a user means here.
	if (!/^\d+$/.test(value) || Number(value) > max) fail(`${flag}: expected a whole number, got "${value}"`);
	return Number(value);
}

async function main(): Promise<void> {
	let parsed: ReturnType<typeof parseCli>;
	try {
		parsed = parseCli();
	} catch (error) {
		// parseArgs throws a TypeError naming the bad flag; show it with the usage instead of a stack.
		fail(error instanceof Error ? error.message : String(error));
	}
	const { values } = parsed;
	if (values.help) {
		process.stdout.write(USAGE);
		return;
	}
	const port = parseNonNegativeInteger(values.port ?? process.env.SANDBOX_PORT ?? '8787', '--port', 65535);
	const latencyMs = parseNonNegativeInteger(values.latency ?? '0', '--latency');
	const rateLimit = rateLimitOf(values);
	const answerLinks = answerPlanOf(values);
	const phone = phoneOf(values, port);
	const apiKey = values.key ?? process.env.SANDBOX_API_KEY ?? DEFAULT_API_KEY;
	if (apiKey.length === 0) fail('--key: must not be empty');

	let sandbox: Sandbox;
	const plainHttp = values.http === true;
	// Run standalone (not under scripts/with-tls.ts), it makes its own CA so a human can still use it.
	const own: TlsFiles | undefined = plainHttp || runTlsFiles() ? undefined : makeTlsFiles();
	const files = plainHttp ? undefined : (own ?? (runTlsFiles() as TlsFiles));
	const removeOwn = (): void => (own ? removeTlsFiles(own) : undefined);
	try {
		sandbox = await startSandbox({
			...(files ? { tls: { key: readFileSync(files.key), cert: readFileSync(files.cert), ca: readFileSync(files.ca) } } : { plainHttp: true }),
			port,
			host: values.host ?? '127.0.0.1',
			apiKey,
			latencyMs,
			startedChats: values.started ?? [],
			quiet: false,
			...(rateLimit ? { rateLimit } : {}),
			...(answerLinks ? { answerLinks } : {}),
			...(phone ? { phone } : {}),
		});
	} catch (error) {
		// EADDRINUSE and a bad --started number both land here; one line is enough to act on.
		process.stderr.write(`Sandbox could not start: ${error instanceof Error ? error.message : String(error)}\n`);
		removeOwn();
		process.exitCode = 1;
		return;
	}

	process.stdout.write(banner(sandbox, rateLimit, answerLinks, files, own !== undefined));
	stopOnSignals(sandbox, removeOwn);
}

/** What the sandbox prints once it listens: where, with which key, CA and settings, and its control endpoints. */
function banner(sandbox: Sandbox, rateLimit: RateLimit | undefined, answerLinks: AnswerPlan | undefined, files: TlsFiles | undefined, ownCa: boolean): string {
	return (
		`Sandbox listening on ${sandbox.url}\n` +
			`API key: ${sandbox.apiKey}\n` +
			(sandbox.phoneUrl ? `Phone page: ${sandbox.phoneUrl} (open it in a browser: every message sent, per number)\n` : '') +
			(rateLimit ? `Rate limit: ${JSON.stringify(rateLimit)}\n` : '') +
			(answerLinks ? `Answer links: ${JSON.stringify(answerLinks)}\n` : '') +
			(files
				? `CA certificate: ${files.ca}${ownCa ? ' (made for this run, deleted when the sandbox stops)' : ''}\n` +
					`  trust it with ${CA_ENV}=${files.ca} (Node, n8n) or curl --cacert ${files.ca}\n`
				: 'Plain http: the API key crosses the network in clear. In n8n, turn on Allow Plain HTTP in the credential.\n') +
			`Control (no auth): GET ${CONTROL_PREFIX}requests, GET ${CONTROL_PREFIX}stats, ` +
			`POST ${CONTROL_PREFIX}reset, POST ${CONTROL_PREFIX}conversations {"phone_number"}, ` +
			`POST ${CONTROL_PREFIX}faults {Fault|Fault[]}, POST ${CONTROL_PREFIX}latency {"ms"}, ` +
			`POST ${CONTROL_PREFIX}rate-limit {"perSecond","shape","burst","retryAfter"}, DELETE ${CONTROL_PREFIX}rate-limit, ` +
				`POST ${CONTROL_PREFIX}answer-links {"answer","delayMs","preview"}, DELETE ${CONTROL_PREFIX}answer-links, ` +
				`GET ${CONTROL_PREFIX}answers\n`
	);
}

/** Stops the sandbox, and removes a CA it made for itself, on a signal or when the npm above it is gone. */
function stopOnSignals(running: Sandbox, removeOwn: () => void): void {
	let stoppingSince: number | undefined;
	const shutdown = (signal: NodeJS.Signals, why = `${signal} received`): void => {
		if (stoppingSince !== undefined) {
			// A second Ctrl-C means the user does not want to wait for a clean stop; copies of one
			// Ctrl-C (from the terminal and passed on by a parent) arrive within a second.
			if (signal === 'SIGINT' && Date.now() - stoppingSince > 1000) process.exit(130);
			return;
		}
		stoppingSince = Date.now();
		process.stdout.write(`${why}, stopping sandbox\n`);
		running.stop().then(
			() => {
				removeOwn();
				process.exitCode = 0;
			},
			(error: unknown) => {
				process.stderr.write(`Sandbox stop failed: ${error instanceof Error ? error.message : String(error)}\n`);
				process.exitCode = 1;
			},
		);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
	// Stopping only the top `npm` of `npm run sandbox` stops the sandbox too.
	watchLifeline((why) => shutdown('SIGTERM', why));
}

/** Where the phone page listens, or undefined with --no-phone. */
function phoneOf(values: ReturnType<typeof parseCli>['values'], apiPort: number): { port: number } | undefined {
	if (values['no-phone']) {
		if (values['phone-port'] !== undefined) fail('--phone-port and --no-phone: choose one');
		return undefined;
	}
	if (values['phone-port'] !== undefined) return { port: parseNonNegativeInteger(values['phone-port'], '--phone-port', 65535) };
	return { port: apiPort === 0 || apiPort === 65535 ? 0 : apiPort + 1 };
}

/** The rate limit the flags describe, or undefined without --rate-limit. */
function rateLimitOf(values: ReturnType<typeof parseCli>['values']): RateLimit | undefined {
	if (values['rate-limit'] === undefined) {
		if (values['limit-shape'] ?? values.burst ?? values['retry-after']) fail('--limit-shape, --burst and --retry-after need --rate-limit');
		return undefined;
	}
	const limit = {
		perSecond: parseNonNegativeInteger(values['rate-limit'], '--rate-limit'),
		...(values['limit-shape'] === undefined ? {} : { shape: values['limit-shape'] }),
		...(values.burst === undefined ? {} : { burst: parseNonNegativeInteger(values.burst, '--burst') }),
		...(values['retry-after'] === undefined ? {} : { retryAfter: values['retry-after'] }),
	};
	const problem = checkRateLimit(limit);
	if (problem) fail(problem);
	return limit as RateLimit;
}

/** The answer plan the flags describe, or undefined without --answer. */
function answerPlanOf(values: ReturnType<typeof parseCli>['values']): AnswerPlan | undefined {
	const answer = values.answer;
	if (answer === undefined) {
		if (values['answer-delay'] !== undefined || values['answer-no-preview']) fail('--answer-delay and --answer-no-preview need --answer');
		return undefined;
	}
	const plan = {
		answer: answer.startsWith('text:') ? { text: answer.slice('text:'.length) } : answer,
		...(values['answer-delay'] === undefined
			? {}
			: { delayMs: parseNonNegativeInteger(values['answer-delay'], '--answer-delay', MAX_ANSWER_DELAY_MS) }),
		...(values['answer-no-preview'] ? { preview: false } : {}),
	};
	if (checkAnswerPlan(plan)) fail(`--answer: expected approve, decline or text:<answer>, got "${answer}"`);
	return plan as AnswerPlan;
}

function parseCli() {
	return parseArgs({
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			key: { type: 'string' },
			latency: { type: 'string' },
			'rate-limit': { type: 'string' },
			'limit-shape': { type: 'string' },
			burst: { type: 'string' },
			'retry-after': { type: 'string' },
			started: { type: 'string', multiple: true },
			answer: { type: 'string' },
			'answer-delay': { type: 'string' },
			'answer-no-preview': { type: 'boolean' },
			http: { type: 'boolean' },
			'phone-port': { type: 'string' },
			'no-phone': { type: 'boolean' },
			help: { type: 'boolean', short: 'h' },
		},
		strict: true,
		allowPositionals: false,
	});
}

void main();
