/**
 * The sandbox of the notification service, as the n8n runs see it: started in this process, and
 * driven over its HTTP control endpoints (the same calls work against a sandbox run elsewhere).
 */
import type { Sandbox } from '../../../sandbox/server';

export { startSandbox } from '../../../sandbox/server';
export type { Sandbox };

async function control<T>(sandboxUrl: string, method: 'GET' | 'POST', name: string, body?: unknown): Promise<T> {
	const response = await fetch(`${sandboxUrl}/__sandbox/${name}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const parsed = (await response.json()) as T;
	if (!response.ok) throw new Error(`sandbox ${method} ${name} → HTTP ${response.status}: ${JSON.stringify(parsed)}`);
	return parsed;
}

/** Marks a number as having started the chat, so media messages to it are accepted. */
export async function startChat(sandboxUrl: string, phoneNumber: string): Promise<void> {
	await control(sandboxUrl, 'POST', 'conversations', { phone_number: phoneNumber });
}
