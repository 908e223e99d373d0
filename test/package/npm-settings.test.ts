/**
 * The user's npm settings reach the installs the scripts run. Behind a company mirror the
 * registry, cache and proxy are often set as npm_config_* variables: the n8n install must use
 * them, and the repository's own `ignore-scripts` (handed down by `npm run`) must not leak into it.
 * No network is needed: the registry named is a closed port on this machine, so the install
 * fails at once, and its error must name that registry.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { cleanEnv, freePort } from '../../scripts/n8n/lib/process';

const REPO_ROOT = join(__dirname, '..', '..');
// A version nobody installs, so the install really starts; its folder is removed afterwards.
const VERSION = '0.0.1';

describe("the user's npm settings", () => {
	test('cleanEnv keeps npm_config_* but the repository run’s own settings and script details', () => {
		const saved = { ...process.env };
		try {
			Object.assign(process.env, {
				npm_config_registry: 'https://mirror.example/npm/',
				npm_config_https_proxy: 'http://proxy.example:3128',
				npm_config_cache: '/somewhere/npm-cache',
				npm_config_ignore_scripts: 'true',
				npm_config_local_prefix: REPO_ROOT,
				npm_lifecycle_event: 'start',
				npm_package_name: 'n8n-nodes-multichannel-notification',
			});
			const env = cleanEnv({ EXTRA: '1' });
			expect(env).toMatchObject({
				npm_config_registry: 'https://mirror.example/npm/',
				npm_config_https_proxy: 'http://proxy.example:3128',
				npm_config_cache: '/somewhere/npm-cache',
				EXTRA: '1',
			});
			for (const dropped of ['npm_config_ignore_scripts', 'npm_config_local_prefix', 'npm_lifecycle_event', 'npm_package_name']) {
				expect(env[dropped]).toBeUndefined();
			}
		} finally {
			for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
			Object.assign(process.env, saved);
		}
	});

	test('the n8n install uses npm_config_registry: an unreachable one is named in its error', async () => {
		const port = await freePort();
		const registry = `http://127.0.0.1:${port}/`;
		const cache = mkdtempSync(join(tmpdir(), 'mcn-npm-cache-'));
		const n8nDir = join(REPO_ROOT, '.cache', `n8n-${VERSION}`);
		try {
			const result = spawnSync(join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/n8n/install-n8n.ts'], {
				cwd: REPO_ROOT,
				encoding: 'utf8',
				timeout: 60_000,
				env: {
					...process.env,
					N8N_VERSION: VERSION,
					CI: 'true',
					npm_config_registry: registry,
					npm_config_cache: cache,
					npm_config_fetch_retries: '0',
					npm_config_ignore_scripts: 'true',
				},
			});
			const output = `${result.stdout}${result.stderr}`;
			expect(result.status).toBe(1);
			expect(output).toContain(`127.0.0.1:${port}`);
			expect(output).toMatch(/ECONNREFUSED/);
		} finally {
			rmSync(cache, { recursive: true, force: true });
			rmSync(n8nDir, { recursive: true, force: true });
			rmSync(`${n8nDir}.lock`, { recursive: true, force: true });
		}
	}, 90_000);
});
