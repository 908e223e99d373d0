/**
 * The sandbox in its own process for `npm run bench`, so it does not share an event loop with
 * the client being measured. Receives `{ latencyMs }`, reports `{ type: 'ready', url }`, and runs
 * until killed. Legs reset it (`POST /__sandbox/reset`) and read its counts (`GET /__sandbox/stats`).
 */
import { startSandbox } from '../../sandbox/server';
import { API_KEY, receiveInput, report } from './common';

async function main(): Promise<void> {
	const { latencyMs } = await receiveInput<{ latencyMs: number }>();
	const sandbox = await startSandbox({ port: 0, apiKey: API_KEY, latencyMs, quiet: true });
	process.once('disconnect', () => {
		void sandbox.stop().then(() => process.exit(0));
	});
	await report({ type: 'ready', url: sandbox.url });
}

main().catch(async (error: unknown) => {
	await report({ type: 'error', message: error instanceof Error ? error.message : String(error) });
	process.exit(1);
});
