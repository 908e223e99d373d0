/**
 * One node asking twice in one execution: a Loop Over Items runs Send and Wait (SMS, approval) for
 * two people in turn. Once the second question is out, the first message's link must answer
 * nothing (a page saying that question was replaced, for GET and POST, the execution still
 * waiting); the second message's link finishes the run.
 *
 *   npx tsx scripts/n8n/check-ask-twice.ts     (after `npm run build`)
 */
import { setTimeout as delay } from 'node:timers/promises';

import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { N8N_VERSION } from './lib/config';
import { codeItems, manualTrigger, noOp, packageNode, workflowFixture } from './lib/examples';
import { FINISHED, outputOf, postForm } from './lib/n8n';
import { requestsTo, smsOf } from './lib/sandbox';
import { step } from './lib/stack';

const PEOPLE = [
	{ phone: '+6281234560001', question: 'Approve order 1?' },
	{ phone: '+6281234560002', question: 'Approve order 2?' },
];

const ASK = {
	resource: 'sms',
	operation: 'sendAndWait',
	phoneNumber: '={{ $json.phone }}',
	message: '={{ $json.question }}',
	responseType: 'approval',
	approvalOptions: { values: { approvalType: 'single' } },
};

/** Trigger → Items → Loop (one item a round) → Ask → back to Loop; when done, Loop → After. */
const LOOP = (() => {
	const workflow = workflowFixture('mcnAskTwice0001', 'Send and Wait asked twice in a loop', [
		manualTrigger(),
		codeItems('Items', PEOPLE),
		{ name: 'Loop', type: 'n8n-nodes-base.splitInBatches', typeVersion: 3, parameters: { options: {} } },
		packageNode('Ask', ASK),
		noOp(),
	]);
	const to = (node: string) => [{ node, type: 'main', index: 0 }];
	const trigger = workflow.nodes[0].name;
	workflow.connections = { [trigger]: { main: [to('Items')] }, Items: { main: [to('Loop')] }, Loop: { main: [to('After'), to('Ask')] }, Ask: { main: [to('Loop')] } };
	return workflow;
})();

const SETTLED = ['waiting', ...FINISHED];

async function body({ sandbox, stack: { client }, expect, verify }: CheckContext): Promise<void> {
	const waiting = await step('run the loop until it waits for the first answer', async () => await client.execute(LOOP.id, { until: SETTLED }));
	expect(waiting.status === 'waiting', 'the execution waits after the first question', waiting.status);
	const status = async () => (await client.execution(waiting.id)).status;
	const links = () => requestsTo(sandbox).map((request) => smsOf(request).message.split('\n')[1]);
	expect(links().length === 1, 'one SMS sent', links().length);
	const [first] = links();

	const answered = await postForm(first, 'approved=true');
	expect(answered.status === 200, "the first person's answer is taken", answered.status);
	// A deadline against a loop that never asks again, not a speed bound.
	const deadline = Date.now() + 60_000;
	while ((links().length < 2 || (await status()) !== 'waiting') && Date.now() < deadline) await delay(250);
	expect(links().length === 2 && (await status()) === 'waiting', 'the loop asked the second person and waits again', links().length);
	const second = links()[1];
	verify(new URL(first).pathname === new URL(second).pathname && first !== second, 'the second link is for the same node and execution, with its own question value', [first, second]);

	const replayedGet = await fetch(first);
	const replayedPage = await replayedGet.text();
	verify(replayedGet.status === 410 && /replaced/i.test(replayedPage), 'opening the first link again shows that its question was replaced (410)', replayedGet.status);
	const replayed = await postForm(first, 'approved=true');
	verify(replayed.status === 410, 'answering through the first link again is refused (410)', replayed.status);
	verify((await status()) === 'waiting', 'and records nothing: the execution still waits for the second answer');

	const last = await postForm(second, 'approved=true');
	verify(last.status === 200, "the second person's answer is taken", last.status);
	const done = await client.statusBecomes(waiting.id);
	verify(done.status === 'success', `the run finished (execution ${done.id})`, done.status);
	const after = outputOf(done, 'After').map((item) => item.json);
	verify(after.length === 2 && after.every((json) => (json.data as { approved?: boolean } | undefined)?.approved === true), 'both answers came out of the loop', after);
}

export const askTwiceCheck: Check = { name: `Send and Wait asked twice in one execution (a loop), n8n ${N8N_VERSION}`, prepare: () => ({ workflows: [LOOP], run: body }) };

runIfMain(module, askTwiceCheck);
