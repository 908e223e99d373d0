/**
 * What every test starts from, by construction rather than by the order tests run in: its own
 * pace (the node keeps one per credential id and Base URL in the process, as executions of one
 * n8n share it) and an empty send-once store. The helpers that run the node import this; each
 * test's runs share one credential id, so they share a pace as executions in one n8n do.
 */
import { dedupStore } from './dedupStore';

let serial = 0;

beforeEach(() => {
	serial++;
	dedupStore.stores.clear();
	dedupStore.failNext = undefined;
});

/** A credential id no other test uses (the same for every run within a test). */
export function testCredentialId(): string {
	const { testPath, currentTestName } = expect.getState();
	return `${testPath ?? ''}\u0000${currentTestName ?? ''}\u0000${serial}`;
}
