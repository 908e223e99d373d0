/**
 * The sandbox of the notification service, as the n8n runs see it: started in this process, and
 * driven over its HTTP control endpoints (the same calls work against a sandbox run elsewhere).
 */
import type { RecordedRequest, Sandbox } from '../../../sandbox/server';
import { SMS_PATH } from '../../../sandbox/server';

export { COMBINED_PATH, SMS_PATH, startSandbox, WA_MESSAGE_PATH } from '../../../sandbox/server';
export type { RecordedRequest, Sandbox };

/** The requests to one API path (SMS unless named), from the `from`-th request on. */
export function requestsTo(sandbox: Sandbox, path: string = SMS_PATH, from = 0): RecordedRequest[] {
	return sandbox.requests.slice(from).filter((request) => request.path === path);
}

/** An SMS request's body, as the service receives it. */
export const smsOf = (request: RecordedRequest): { phone_number: string; message: string } => request.body as { phone_number: string; message: string };

/** Marks a number as having started the chat, so media messages to it are accepted. */
export async function startChat(sandboxUrl: string, phoneNumber: string): Promise<void> {
	const body = JSON.stringify({ phone_number: phoneNumber });
	const response = await fetch(`${sandboxUrl}/__sandbox/conversations`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
	if (!response.ok) throw new Error(`sandbox POST conversations → HTTP ${response.status}: ${await response.text()}`);
}
