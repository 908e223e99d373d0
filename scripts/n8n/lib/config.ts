/**
 * Which n8n the scripts drive and where it lives: the version spec, the folders under the
 * git-ignored `.cache/`, and the names our package, node and credential have inside n8n.
 */
import { join, resolve } from 'node:path';

/**
 * Which n8n this process drives: `N8N_VERSION` from the environment (an exact version such as
 * `2.8.4`, or a patch range such as `1.123.x`, which is resolved to the newest patch the registry
 * has when it is installed), else 2.8.4, the n8n every check runs on. Each spec has its own folder,
 * `.cache/n8n-<spec>/`.
 */
export const N8N_VERSION = process.env.N8N_VERSION?.trim() || '2.8.4';
if (!/^\d+\.\d+\.(\d+|x)$/.test(N8N_VERSION)) {
	throw new Error(`N8N_VERSION must be an exact version (2.8.4) or a patch range (1.123.x), not "${N8N_VERSION}"`);
}
/** n8n 1.x needs its own install recipe and environment on Node 20 (see `ensureN8n` in install.ts). */
export const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
/** n8n 2.10 and newer refuse Node 20: they are installed and run on Node 24. */
export const N8N_NEEDS_NODE_24 = N8N_MAJOR > 2 || (N8N_MAJOR === 2 && Number(N8N_VERSION.split('.')[1]) >= 10);
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const CACHE_DIR = join(REPO_ROOT, '.cache');
export const N8N_DIR = join(CACHE_DIR, `n8n-${N8N_VERSION}`);
export const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
export const PACKAGE_NAME = 'n8n-nodes-multichannel-notification';
export const NODE_TYPE = `${PACKAGE_NAME}.multiChannelNotification`;
export const CREDENTIAL_TYPE = 'multiChannelNotificationApi';
