/**
 * What the send-once check (scripts/n8n/check-send-once.ts) runs in each half, regular or queue
 * mode: a stored workflow run as the editor runs it, and the edges of Send Once Per Key — a send
 * the service records and then answers 500, one it refuses with a 400, and executions at once
 * from a webhook.
 */
import { isDeepStrictEqual } from 'node:util';

import type { CheckContext } from './check';
import type { ExampleWorkflow } from './examples';
import { packageNode, postEvents, webhookTrigger, workflowFixture } from './examples';
import type { ExecutionSummary, N8nClient } from './n8n';
import { outputOf } from './n8n';
import type { Sandbox } from './sandbox';
import { newRequests } from './sandbox';
import { step } from './stack';

/** The order whose first send the service records and then answers with a 500. */
export const MAYBE_ORDER = { orderId: 'ORD-MAYBE', phone: '+6281234500009', text: 'Order ORD-MAYBE has shipped.' };

/** The order whose first send the service refuses with a 400 (nothing recorded). */
export const REFUSED_ORDER = { orderId: 'ORD-REFUSED', phone: '+6281234500008', text: 'Order ORD-REFUSED has shipped.' };

/**
 * One event per webhook call: its key and message. On one n8n the call is answered when its
 * execution is over; in queue mode when it is received (a call answered at the end was left
 * hanging by n8n 2.8.4's main instance), and the check then counts finished executions instead.
 */
export const burstWorkflow = (suffix: string, path: string, responseMode: 'onReceived' | 'lastNode'): ExampleWorkflow =>
	workflowFixture(`mcnSendOnceBurst${suffix}`, 'Send once: one SMS per webhook event', [
		webhookTrigger(path, responseMode),
		packageNode('Send', { resource: 'sms', operation: 'send', phoneNumber: '={{ $json.body.phone }}', message: '={{ $json.body.text }}', options: { dedupeKey: '={{ $json.body.key }}' } }),
	]);

/** One half of the check: regular or queue mode. */
export interface Mode {
	name: string;
	client: N8nClient;
	sandbox: Sandbox;
	verify: CheckContext['verify'];
	/** Asserts where an execution ran (queue mode: on a worker). */
	ranWhere?: (execution: ExecutionSummary) => void;
	/** Called before the second run of the SMS workflow (queue mode swaps the worker). */
	beforeSecondRun?: () => Promise<void>;
}

/**
 * Runs a stored workflow as the editor does; its Send node's output and what reached the sandbox
 * meanwhile. With `succeeded`, expects the execution to have succeeded.
 */
export async function run(mode: Mode, what: string, workflowId: string, succeeded?: string) {
	const sent = newRequests(mode.sandbox);
	const execution = await step(`${mode.name}: ${what}`, async () => await mode.client.execute(workflowId, { deadlineMs: 90_000 }));
	mode.ranWhere?.(execution);
	const ok = execution.status === 'success';
	if (succeeded) mode.verify(ok, `${mode.name}: ${succeeded} (execution ${execution.id})`, execution.data.resultData.error);
	return { execution, sent: sent(), out: outputOf(execution, 'Send') };
}

/**
 * The service records the message, then answers a 500: the run fails saying the message may have
 * been delivered, and its re-run sends nothing (the item skipped, saying so).
 */
export async function maybeDelivered(mode: Mode, id: string): Promise<void> {
	const { name, sandbox, verify } = mode;
	sandbox.injectFault({ kind: 'status', status: 500, afterDelivery: true, path: '/v1/sms/notification' });
	const first = await run(mode, 'keyed SMS, the service records it and answers 500', id);
	verify(first.execution.status === 'error' && first.sent.length === 1 && first.sent[0].delivered === true, `${name}: the first run failed after the service recorded the message`, first.sent);
	const second = await run(mode, 'keyed SMS re-run', id, 'the re-run succeeded');
	const [item] = second.out.map((out) => out.json);
	verify(second.sent.length === 0, `${name}: the re-run sent nothing (the message was recorded once)`, second.sent);
	verify(
		item?.skipped === true && item.dedupeKey === MAYBE_ORDER.orderId && /may have/.test(String(item.message)),
		`${name}: its item is skipped, saying the message was or may have been sent`,
		item,
	);
}

/**
 * The service refuses the message with a 400 (it recorded nothing): the run fails, the key is
 * not kept, and the re-run with the same key sends it, once.
 */
export async function refusedThenSent(mode: Mode, id: string): Promise<void> {
	const { name, sandbox, verify } = mode;
	sandbox.injectFault({ kind: 'status', status: 400, message: 'refused for the check', path: '/v1/sms/notification' });
	const first = await run(mode, 'keyed SMS, the service refuses it with a 400', id);
	verify(
		first.execution.status === 'error' && first.sent.length === 1 && first.sent[0].status === 400 && first.sent[0].delivered !== true,
		`${name}: the first run failed on the 400, nothing delivered`,
		first.sent,
	);
	const second = await run(mode, 'keyed SMS re-run after the 400', id, 'the re-run succeeded');
	verify(
		second.sent.length === 1 && second.sent[0].delivered === true && second.out[0]?.json.message === 'success',
		`${name}: the re-run sent it (the refused key was not kept): delivered once`,
		second.sent,
	);
}

/**
 * Executions at once, one per webhook event: 20 with one key send one message; 20 with 20 keys,
 * twice, send 20. Across queue-mode workers n8n has no lock (docs/operations.md), so there the
 * counts are printed as figures rather than asserted (`exact` false).
 */
export async function burst(mode: Mode, n8nUrl: string, path: string, { exact, finished }: { exact: boolean; finished: (count: number) => Promise<void> }): Promise<void> {
	const { name, sandbox, verify } = mode;
	const event = (key: string, index: number) => ({ key, phone: `+62812777${String(index).padStart(4, '0')}`, text: `Event ${key} #${index}` });
	// Queue mode: several rounds, for a figure of how often workers without a lock send one key twice.
	const rounds = exact ? 1 : 5;
	const perRound: number[] = [];
	for (let round = 0; round < rounds; round++) {
		const sent = newRequests(sandbox);
		const same = await step(`${name}: 20 webhook calls at once, one key (round ${round + 1} of ${rounds})`, async () =>
			await postEvents(n8nUrl, path, Array.from({ length: 20 }, (_, index) => event(`EVT-ONE-${round}`, index))),
		);
		verify(same.every((status) => status === 200), `${name}: n8n took all 20 calls`, same.filter((status) => status !== 200));
		await finished(20 * (round + 1));
		perRound.push(sent().filter((request) => request.delivered).length);
	}
	if (exact) verify(isDeepStrictEqual(perRound, [1]), `${name}: 20 executions at once with one key sent 1 message`, perRound);
	else console.log(`${name}: figure: 20 executions at once with one key, ${rounds} rounds: messages sent per round ${perRound.join(', ')}`);
	const many = newRequests(sandbox);
	for (const [index, wave] of ['first', 'second'].entries()) {
		const statuses = await step(`${name}: 20 webhook calls at once, 20 keys (${wave} time)`, async () =>
			await postEvents(n8nUrl, path, Array.from({ length: 20 }, (_, index) => event(`EVT-${index}`, index))),
		);
		verify(statuses.every((status) => status === 200), `${name}: n8n took all 20 calls (${wave} time)`, statuses.filter((status) => status !== 200));
		await finished(20 * (rounds + index + 1));
	}
	const keys = many().filter((request) => request.delivered).map((request) => (request.body as { message: string }).message);
	if (exact) verify(keys.length === 20 && new Set(keys).size === 20, `${name}: 20 keys at once, twice: 20 messages in all, one per key`, keys.length);
	else console.log(`${name}: figure: 20 executions at once with 20 keys, twice, sent ${keys.length} message(s) for ${new Set(keys).size} keys`);
	verify(new Set(keys).size === 20, `${name}: every one of the 20 keys was sent`, new Set(keys).size);
}
