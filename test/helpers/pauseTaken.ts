import { paces } from '../../nodes/MultiChannelNotification/delivery/pace';
import { testCredentialId } from './isolation';

/**
 * Resolves once the shared pace of this test's credential and `baseUrl` is paused (an execution's
 * 429 has been read), polled on n8n's own turns: another execution can then start inside the pause.
 * Also resolves once `until` is aborted: a test that stops it after its end (its time limit
 * reached) leaves no polling behind.
 */
export async function pauseTaken(baseUrl: string, until?: AbortSignal): Promise<void> {
	while (until?.aborted !== true) {
		const { pace, release } = paces.use(`${testCredentialId()}\u0000${baseUrl}`, Date.now());
		const paused = pace.pauseEnd() > Date.now();
		release(Date.now());
		if (paused) return;
		await new Promise((resolve) => setImmediate(resolve));
	}
}
