/**
 * The sandbox of the notification service, as the n8n runs see it (started in this process), and
 * what a check reads of the requests a service received.
 */
import type { AnswerRecord, PlannedAnswer } from '../../../sandbox/answerLinks';
import { answerForm, playAnswer } from '../../../sandbox/answerLinks';
import type { RecordedRequest, Sandbox } from '../../../sandbox/server';
import { SMS_PATH } from '../../../sandbox/server';
import { delay } from './process';

export { COMBINED_PATH, SMS_PATH, startSandbox, WA_MESSAGE_PATH } from '../../../sandbox/server';
export type { RecordedRequest, Sandbox };

/** The requests to one API path (SMS unless named), from the `from`-th request on. */
export function requestsTo(sandbox: Sandbox, path: string = SMS_PATH, from = 0): RecordedRequest[] {
	return sandbox.requests.slice(from).filter((request) => request.path === path);
}

/** An SMS request's body, as the service receives it. */
export const smsOf = (request: RecordedRequest): { phone_number: string; message: string } => request.body as { phone_number: string; message: string };

/** The requests a service receives from now on, read when called. */
export function newRequests<T>(service: { requests: T[] }): () => T[] {
	const from = service.requests.length;
	return () => service.requests.slice(from);
}

/** Waits until the service has had no new request for 1.5 s (at most 15 s): requests still on their way have arrived. */
export async function untilQuiet(service: { requests: unknown[] }): Promise<void> {
	const deadline = Date.now() + 15_000;
	let seen = -1;
	let quietSince = Date.now();
	while (Date.now() - quietSince < 1500 && Date.now() < deadline) {
		if (service.requests.length !== seen) [seen, quietSince] = [service.requests.length, Date.now()];
		await delay(100);
	}
}

/**
 * The person answers the link of the message the service received as request `requestSeq`, as
 * the sandbox's answering code does (a link-preview GET, then the page's POST): the record of both.
 */
export async function answerAsPerson(requestSeq: number, link: string, answer: PlannedAnswer, deadlineMs: number): Promise<AnswerRecord> {
	const record: AnswerRecord = { requestSeq, link, form: answerForm(answer), done: false };
	await playAnswer(record, { answer }, Promise.resolve(), AbortSignal.timeout(deadlineMs));
	return record;
}
