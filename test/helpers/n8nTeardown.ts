import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

/**
 * n8n-core starts a 60 s clean-up interval (its SSH tunnel client manager) the first time a node
 * runs, and never stops it, so jest would not exit. Call in afterAll of a file that runs the engine.
 * (engine.ts could do this itself; until then, files that need a clean exit call it.)
 */
export function stopN8nTimers(): void {
	if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
}
