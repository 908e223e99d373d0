/**
 * The sandbox in its own process for `npm run bench`, so it does not share an event loop with
 * the client being measured. Receives a ServiceSpec (latency, and for the rate-limited legs the
 * rate limit), reports `{ type: 'ready', url }`, and runs until disconnected. Legs reset it
 * (`POST /__sandbox/reset`, which keeps the latency and rate limit it was started with) and read
 * its counts (`GET /__sandbox/stats`).
 */
import { startSandbox } from '../../sandbox/server';
import type { ServiceSpec } from './common';
import { API_KEY, receiveInput, report } from './common';

async function main(): Promise<void> {
	const { latencyMs, rateLimit } = await receiveInput<ServiceSpec>();
	const sandbox = await startSandbox({
		port: 0,
		apiKey: API_KEY,
		latencyMs,
		quiet: true,
		...(rateLimit ? { rateLimit } : {}),
	});
	process.once('disconnect', () => {
		void sandbox.stop().then(() => process.exit(0));
	});
	await report({ type: 'ready', url: sandbox.url });
}

main().catch(async (error: unknown) => {
	await report({ type: 'error', message: error instanceof Error ? error.message : String(error) });
	process.exit(1);
});
