/**
 * The sandbox in its own process for `npm run bench`, so it does not share an event loop with
 * the client being measured. Receives a ServiceSpec (latency, and for the rate-limited legs the
 * rate limit), reports `{ type: 'ready', url }`, and runs until disconnected. Legs reset it
 * (`POST /__sandbox/reset`, which keeps the latency and rate limit it was started with) and read
 * its counts (`GET /__sandbox/stats`).
 */
import { once } from 'node:events';

import { startSandbox } from '../../sandbox/server';
import type { ServiceSpec } from './common';
import { API_KEY, report, runChild } from './common';

runChild<ServiceSpec>(async ({ latencyMs, rateLimit }) => {
	const sandbox = await startSandbox({ port: 0, apiKey: API_KEY, latencyMs, quiet: true, ...(rateLimit ? { rateLimit } : {}) });
	await report({ type: 'ready', url: sandbox.url });
	await once(process, 'disconnect');
	await sandbox.stop();
});
