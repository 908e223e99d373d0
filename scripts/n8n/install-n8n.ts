/**
 * Installs n8n 2.8.4 into .cache/ if it is not there yet (what `npm start` does on first use).
 *
 *   npx tsx scripts/n8n/install-n8n.ts
 */
import { ensureN8n, N8N_DIR } from './lib/install';
import { elapsed, installCleanup } from './lib/process';

installCleanup();
const started = Date.now();
ensureN8n().then(
	(bin) => {
		console.log(`n8n ready in ${N8N_DIR} (${bin}); ${elapsed(started)}`);
		process.exit(0);
	},
	(error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exit(1);
	},
);
