/**
 * Human-review check: an AI Agent whose tool call needs a person's approval, given over SMS by
 * this node's human-review tool, in real n8n 2.x (2.8.4, or the version N8N_VERSION names) with
 * the package installed as a community package.
 *
 * How n8n wires it (read from its installed code, 2.8.4 and 2.41.1):
 *   - n8n makes `<node>HitlTool` of every node type with a `sendAndWait` operation and webhooks
 *     (`n8n/dist/tool-generation/hitl-tools.js`): input "Tool" (ai_tool), output "Human review"
 *     (ai_tool, to an AI Agent), resource/operation/responseType fixed (smsReview, which the node
 *     reads as SMS; sendAndWait; approval), an injected `message` field that may read `$tool.name` and `$tool.parameters`.
 *   - A tool connected to the HitlTool node is gated: the agent offers the model the gated tool
 *     under its own name, with arguments `{ toolParameters, hitlParameters }`
 *     (n8n-core `get-input-connection-data.js`, `createHitlToolkit`). The model's call becomes an
 *     engine request for the HitlTool node, not for the gated tool (langchain
 *     `utils/agent-execution/createEngineRequests.js`); the engine runs it as a node: our
 *     Send and Wait sends the SMS with the answer link and the execution waits.
 *   - The answer resumes the HitlTool node; the agent reads `approved` from its output
 *     (`processHitlResponses.js`): true → a second engine request runs the gated tool with the
 *     model's `toolParameters`; false → the gated tool does not run and the model reads
 *     "User rejected the tool call to <tool node> …".
 * n8n 1.x has none of this (no HitlTool is made, the agent has no gate): on 1.x the check only
 * asserts that no human-review tool exists.
 *
 * The workflow: Manual Trigger → AI Agent (3.1) with an OpenAI Chat Model whose Base URL is the
 * scripted stand-in (lib/openaiStandIn.ts); tool "Send SMS" (this package's node as a tool: an SMS
 * to the customer) → "Human review" (this package's HitlTool: an SMS to the reviewer) → AI Agent.
 *   (a) n8n offers the HitlTool type, sending an SMS, whose panel speaks to the person building
 *       the workflow (no model-facing Tool Description), and the model sees the gated tool's
 *       arguments wrapped in toolParameters / hitlParameters;
 *   (b) approval: the model's tool call sends the reviewer an SMS quoting the call, with the
 *       answer link, and the execution waits with nothing sent to the customer and no run of the
 *       gated tool; the person (the sandbox's answering code) fetches the link as a preview, then
 *       approves; the gated tool runs, its SMS reaches the customer exactly as the model asked,
 *       the model reads the service's answer and the run succeeds;
 *   (c) decline, the same up to the answer (no Approval Options set: the page offers Approve and
 *       Decline by default): the gated tool does not run, the customer gets
 *       nothing, the model is told the person rejected the call, the run succeeds.
 *
 *   npx tsx scripts/n8n/check-human-review.ts     (after `npm run build`; N8N_VERSION=2.41.1 for the newest 2.x)
 */
import { isDeepStrictEqual } from 'node:util';

import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HUMAN_REVIEW_RESOURCE } from '../../nodes/MultiChannelNotification/helpers/resource';
import { findAnswerLink } from '../../sandbox/server';
import { recordedAnswer } from './lib/answers';
import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { N8N_MAJOR, N8N_VERSION, NODE_TYPE } from './lib/config';
import type { ExampleWorkflow } from './lib/examples';
import { editorFromAi, manualTrigger, packageNode, toolNode, workflowFixture } from './lib/examples';
import { installedN8nVersion } from './lib/install';
import { FINISHED, firstJson, MANUAL_TRIGGER } from './lib/n8n';
import type { ScriptedCall } from './lib/openaiStandIn';
import { chatModelNode, useStandIn } from './lib/openaiStandIn';
import { answerAsPerson, requestsTo, SMS_PATH, smsOf } from './lib/sandbox';
import { step } from './lib/stack';

/** `respondedAt` of every answer here is later than this. */
const CHECK_STARTED = Date.now();

const HITL_TYPE = `${NODE_TYPE}HitlTool`;
const TOOL_TYPE = `${NODE_TYPE}Tool`;
const AGENT = 'AI Agent';
const GATED = 'Send SMS';
const REVIEW = 'Human review';
const REVIEWER = '+6281311112222';
const CUSTOMER = '+6281234567890';
/** A deadline against a hung run, not a speed bound: n8n shares this machine with other work. */
const RUN_DEADLINE_MS = 240_000;

const APPROVED_TEXT = 'Your refund of Rp 150.000 for order 42 is on its way.';
const DECLINED_TEXT = 'Your refund of Rp 990.000 for order 43 is on its way.';

/** The tool n8n shows the model is the gated one, with its arguments under toolParameters. */
const gatedCall = (message: string): ScriptedCall => ({
	tool: 'Send_SMS',
	arguments: { toolParameters: { Phone_Number: CUSTOMER, Message: message }, hitlParameters: {} },
});
const CALLS = { '[refund-approve]': gatedCall(APPROVED_TEXT), '[refund-decline]': gatedCall(DECLINED_TEXT) };

/**
 * The gated workflow. The review node's parameters are what a user sets in its panel: the
 * reviewer's number, the question (quoting the call through `$tool.parameters`, so the person
 * approves what will really be sent) and, where given, the buttons' labels; resource, operation
 * and response type are the HitlTool's own fixed defaults.
 */
function gatedWorkflow(id: string, prompt: string, approvalOptions?: Record<string, unknown>): ExampleWorkflow {
	const systemMessage = 'You tell customers about refunds by SMS. A person reviews every SMS before it goes out.';
	const agent = { name: AGENT, type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 3.1, parameters: { promptType: 'define', text: prompt, options: { systemMessage } } };
	const gated = toolNode(GATED, { resource: 'sms', operation: 'send', phoneNumber: editorFromAi('Phone_Number'), message: editorFromAi('Message'), options: {} });
	const review = packageNode(REVIEW, {
		phoneNumber: REVIEWER,
		message: '=Send this SMS to {{ $tool.parameters.Phone_Number }}? "{{ $tool.parameters.Message }}"',
		...(approvalOptions === undefined ? {} : { approvalOptions }),
	});
	return workflowFixture(
		id,
		`Human review check ${id}`,
		[manualTrigger(), agent, chatModelNode(), gated, { ...review, type: HITL_TYPE }],
		[
			[MANUAL_TRIGGER, AGENT],
			['OpenAI Chat Model', AGENT, 'ai_languageModel'],
			[GATED, REVIEW, 'ai_tool'],
			[REVIEW, AGENT, 'ai_tool'],
		],
	);
}

const APPROVE_WORKFLOW = gatedWorkflow('mcnHumanReview01', '[refund-approve] Tell the customer +6281234567890 that the refund for order 42 is on its way.', {
	values: { approvalType: 'double', approveLabel: 'Send it', disapproveLabel: 'Do not send' },
});
/** Without Approval Options: the page offers Approve and Decline, so the decline is taken. */
const DECLINE_WORKFLOW = gatedWorkflow('mcnHumanReview02', '[refund-decline] Tell the customer +6281234567890 that the refund for order 43 is on its way.');

type StandIn = Awaited<ReturnType<typeof useStandIn>>['standIn'];

async function body({ sandbox, stack: { client }, expect }: CheckContext, standIn: StandIn): Promise<void> {

	// (a) the node types n8n offers.
	const types = await client.types('nodes');
	const ours = types.filter((type) => type.name.startsWith(NODE_TYPE)).map((type) => type.name);
	const hitl = types.find((type) => type.name === HITL_TYPE);
	if (N8N_MAJOR < 2) {
		const version = installedN8nVersion();
		expect(ours.includes(TOOL_TYPE), `n8n ${version} offers the node as an AI tool`, ours);
		expect(hitl === undefined, `n8n ${version} makes no human-review tool of it (n8n 1.x has none): nothing to gate`, ours);
		return;
	}
	expect(hitl !== undefined, `n8n offers the human-review tool ${HITL_TYPE}`, ours);
	const fixed = Object.fromEntries(['resource', 'operation', 'responseType'].map((name) => [name, hitl?.properties?.find((property) => property.name === name)?.default]));
	const fixedSaid = `it is fixed to the node's human-review Resource "${HUMAN_REVIEW_RESOURCE}" (an SMS) → Send and Wait for Response → Approval`;
	expect(isDeepStrictEqual(fixed, { resource: HUMAN_REVIEW_RESOURCE, operation: 'sendAndWait', responseType: 'approval' }), fixedSaid, fixed);
	// Its panel, as n8n-workflow's displayParameter reads the tool n8n made (the editor asks it the same).
	const description = hitl as unknown as INodeTypeDescription;
	const values = NodeHelpers.getNodeParameters(description.properties, {}, true, false, null, description) ?? {};
	const shown = description.properties.filter((property) => property.type !== 'hidden' && NodeHelpers.displayParameter(values, property, null, description)).map(({ name }) => name);
	const panelSaid = 'its panel: n8n’s Message, the notice for the person building the workflow, Phone Number, the buttons (Approve and Decline), Approval Options, Options; no model-facing Tool Description';
	expect(isDeepStrictEqual(shown, ['message', 'humanReviewNotice', 'phoneNumber', 'approvalButtonsNotice', 'approvalOptions', 'options']), panelSaid, shown);

	const smsTo = (from: number, phone: string) => requestsTo(sandbox, SMS_PATH, from).filter((request) => smsOf(request).phone_number === phone);

	/**
	 * Runs a gated workflow until its tool call waits for review, asserts what has (and has not)
	 * happened by then, lets the person answer and waits for the end of the run. The person is the
	 * sandbox's own answering code (a link preview GET, then the POST from the page), started here
	 * once the execution is seen waiting rather than by setAnswerPlan at delivery: a manual
	 * execution has no stored run data until n8n saves it as waiting, and until then n8n answers
	 * any call of the link with HTTP 500 (its waiting webhook reads that data), which the
	 * sandbox's person does not retry.
	 */
	const reviewed = async (label: string, workflow: ExampleWorkflow, smsText: string, answer: 'approve' | 'decline') => {
		const before = sandbox.requests.length;
		const chatsBefore = standIn.requests.length;
		const resultsBefore = standIn.toolResults().length;
		const waiting = await step(`${label}: run the agent until its tool call waits for review`, async () =>
			await client.execute(workflow.id, { until: ['waiting', ...FINISHED], deadlineMs: RUN_DEADLINE_MS }),
		);
		const { id } = waiting;
		expect(waiting.status === 'waiting', `${label}: execution ${id} waits for the person`, waiting.data.resultData.error ?? waiting.status);
		const reviewSms = smsTo(before, REVIEWER);
		expect(reviewSms.length === 1 && reviewSms[0].delivered, `${label}: one SMS went to the reviewer`, sandbox.requests.slice(before).map((request) => request.body));
		const reviewText = smsOf(reviewSms[0]).message;
		const [question, link] = reviewText.split('\n');
		console.log(`  (the reviewer's SMS: ${JSON.stringify(reviewText)})`);
		expect(question === `Send this SMS to ${CUSTOMER}? "${smsText}"`, `${label}: it quotes the call the model asked for (recipient and text, from $tool.parameters)`, reviewText);
		const reviewNode = workflow.nodes.find((node) => node.name === REVIEW)?.id;
		expect(
			new RegExp(`/webhook-waiting/${id}/${reviewNode}(\\?|$)`).test(link ?? '') && findAnswerLink(SMS_PATH, reviewSms[0].body) === link,
			`${label}: then the answer link, n8n’s resume URL for this execution and the review node`,
			reviewText,
		);
		expect(smsTo(before, CUSTOMER).length === 0, `${label}: while it waits the customer got nothing`);
		expect(waiting.data.resultData.runData[GATED] === undefined, `${label}: and n8n has no run of the gated tool`, Object.keys(waiting.data.resultData.runData));
		expect(standIn.requests.length - chatsBefore === 1, `${label}: the model was asked once so far (its tool call)`, standIn.requests.length - chatsBefore);

		const record = await step(`${label}: the person opens the link and answers "${answer}"`, async () => await answerAsPerson(reviewSms[0].seq, link, answer, RUN_DEADLINE_MS));
		expect(record.error === undefined && record.preview?.status === 200 && record.preview.html, `${label}: the link preview (GET) got the answer page`, record);
		expect(record.answer?.status === 200, `${label}: the answer (POST ${record.form}) was accepted`, record.answer);
		const finished = await step(`${label}: the execution resumes and finishes`, async () => await client.statusBecomes(id, FINISHED, RUN_DEADLINE_MS));
		expect(finished.status === 'success', `${label}: execution ${id} succeeded`, finished.data.resultData.error ?? finished.status);
		const review = firstJson(finished, REVIEW);
		const asked = (review?.question ?? {}) as Record<string, unknown>;
		expect(
			isDeepStrictEqual(recordedAnswer(review?.data, CHECK_STARTED), { answer: { approved: answer === 'approve' }, timed: true }) &&
				asked.channel === 'sms' &&
				asked.recipient === REVIEWER,
			`${label}: the review node output { data: { approved: ${answer === 'approve'}, respondedAt } }, and the SMS to the reviewer it answers`,
			review,
		);
		return {
			ran: Object.keys(finished.data.resultData.runData),
			gatedRuns: finished.data.resultData.runData[GATED]?.length,
			sent: sandbox.requests.slice(before),
			toCustomer: smsTo(before, CUSTOMER),
			toolResults: standIn.toolResults().slice(resultsBefore),
			chats: standIn.requests.slice(chatsBefore),
			agentOutput: String(firstJson(finished, AGENT)?.output ?? ''),
		};
	};

	// (b) approval: the gated tool runs once the person has approved.
	const approved = await reviewed('(b) approve', APPROVE_WORKFLOW, APPROVED_TEXT, 'approve');
	const definition = approved.chats[0]?.tools?.find((tool) => tool.function.name === 'Send_SMS');
	const wrapped = definition?.function.parameters as { properties?: Record<string, { properties?: Record<string, unknown> }> } | undefined;
	const toolParameters = wrapped?.properties?.toolParameters?.properties;
	expect(
		toolParameters?.Phone_Number !== undefined && toolParameters.Message !== undefined && wrapped?.properties?.hitlParameters !== undefined,
		'(a) the model saw the gated tool Send_SMS, its arguments under toolParameters next to hitlParameters',
		definition,
	);
	expect(approved.gatedRuns === 1, '(b) after the approval the gated tool ran once', approved.ran);
	expect(
		approved.toCustomer.length === 1 &&
			approved.toCustomer[0].status === 200 &&
			isDeepStrictEqual(approved.toCustomer[0].body, { phone_number: CUSTOMER, message: APPROVED_TEXT }),
		'(b) its SMS reached the customer exactly as the model asked',
		approved.toCustomer.map((request) => ({ status: request.status, body: request.body })),
	);
	expect(approved.sent.length === 2 && approved.sent[1] === approved.toCustomer[0], '(b) nothing else was sent: the review SMS, then the customer’s', approved.sent.map((request) => request.body));
	expect(
		approved.toolResults.length === 1 && approved.toolResults[0].tool === 'Send_SMS' && approved.toolResults[0].content.includes('"success"'),
		'(b) the model read the gated tool’s result: the service’s "success"',
		approved.toolResults,
	);
	expect(approved.agentOutput.startsWith('Tool result:') && approved.agentOutput.includes('success'), '(b) and the agent went on to its final answer', approved.agentOutput);

	// (c) decline: the gated tool must not run, and the model hears why.
	const declined = await reviewed('(c) decline', DECLINE_WORKFLOW, DECLINED_TEXT, 'decline');
	expect(declined.gatedRuns === undefined, '(c) the gated tool did not run', declined.ran);
	expect(declined.toCustomer.length === 0 && declined.sent.length === 1, '(c) the customer got nothing: only the review SMS was sent', declined.sent.map((request) => request.body));
	expect(
		declined.toolResults.length === 1 && declined.toolResults[0].tool === 'Send_SMS' && declined.toolResults[0].content.includes(`User rejected the tool call to ${GATED}`),
		'(c) the model was told that the person rejected the call',
		declined.toolResults,
	);
	console.log(`  (what the model read as the tool's result: ${declined.toolResults[0]?.content ?? 'nothing'})`);
	expect(declined.chats.length === 2, '(c) the model was asked twice: its tool call, then its answer to the rejection', declined.chats.length);
	expect(declined.agentOutput.includes('User rejected the tool call'), '(c) the agent finished with that answer', declined.agentOutput);
}

export const humanReviewCheck: Check = {
	name: `human-review check, n8n ${N8N_VERSION}`,
	prepare: async () => {
		const { standIn, credential } = await useStandIn(CALLS);
		return { credentials: [credential], workflows: N8N_MAJOR < 2 ? [] : [APPROVE_WORKFLOW, DECLINE_WORKFLOW], run: async (context) => await body(context, standIn) };
	},
};

runIfMain(module, humanReviewCheck);
