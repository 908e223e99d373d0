/**
 * Installs n8n into .cache/n8n-<version>/ if it is not there yet (what `npm start` does on first
 * use): 2.8.4, or the version `N8N_VERSION` names (`1.123.x`: the newest 1.123 patch).
 *
 *   npx tsx scripts/n8n/install-n8n.ts
 *   N8N_VERSION=1.123.x npx tsx scripts/n8n/install-n8n.ts
 */
import { N8N_DIR } from './lib/config';
import { ensureN8n, installedN8nVersion } from './lib/install';
import { elapsed, installCleanup } from './lib/process';

installCleanup();
const started = Date.now();
ensureN8n().then(
	(bin) => {
		console.log(`n8n ${installedN8nVersion()} ready in ${N8N_DIR} (${bin}); ${elapsed(started)}`);
		process.exit(0);
	},
	(error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exit(1);
	},
);
