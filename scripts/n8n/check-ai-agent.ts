/**
 * AI-agent check: the node as an AI Agent's tool in real n8n 2.8.4.
 *
 * An AI Agent (`@n8n/n8n-nodes-langchain.agent` 3.1) with an OpenAI Chat Model (`lmChatOpenAi`
 * 1.3, Responses API off) whose credential's Base URL points at a scripted OpenAI-compatible
 * stand-in (lib/openaiStandIn.ts); the tools are this package's node as a tool
 * (`…multiChannelNotificationTool`) against the sandbox:
 *   (a) valid sends through the agent (the template example, SMS, media, failover) arrive at the
 *       sandbox exactly as expected;
 *   (b) invalid arguments come back to the model as the tool's result, naming the argument and
 *       the rule, the run succeeds, and the sandbox receives nothing;
 *   (c) the tool definitions the model received are saved (.cache/e2e-artifacts/) and carry the
 *       rules of each operation;
 *   (d) Send and Wait for Response as an ordinary tool (not n8n's human-review gate): the model's
 *       call sends its question with the answer link and the execution waits; the person's answer
 *       resumes it and the model reads the answer as the tool's result.
 * Every assertion is printed (✔/✘) and all are evaluated; the check fails if any failed.
 *
 *   npx tsx scripts/n8n/check-ai-agent.ts     (after `npm run build`)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { findAnswerLink } from '../../sandbox/server';
import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { CACHE_DIR, N8N_MAJOR, N8N_VERSION } from './lib/config';
import type { ExampleWorkflow } from './lib/examples';
import { codeItems, editorFromAi, manualTrigger, MEDIA_RECIPIENT, readExampleWorkflow, toolNode, workflowFixture } from './lib/examples';
import { FINISHED, MANUAL_TRIGGER } from './lib/n8n';
import type { ScriptedCall, ToolDefinition } from './lib/openaiStandIn';
import { chatModelNode, useStandIn } from './lib/openaiStandIn';
import { answerAsPerson, COMBINED_PATH, SMS_PATH, smsOf, WA_MESSAGE_PATH } from './lib/sandbox';
import { step } from './lib/stack';

const AGENT_TYPE = '@n8n/n8n-nodes-langchain.agent';
/** The example's agent. */
const AGENT = 'AI Agent';
const EXAMPLE_FILE = 'ai-agent-template-send.json';
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(CACHE_DIR, 'e2e-artifacts');
/** A deadline against a hung run, not a speed bound: n8n shares this machine with other work. */
const RUN_DEADLINE_MS = 120_000;
const SENDER = '+6280011112222';
const SMS_RECIPIENT = '+6281234567890';
const INVOICE_URL = 'https://cdn.example.com/invoices/INV-7.pdf';
const TEMPLATE_COMPONENTS = [
	{ type: 'body', parameters: [{ type: 'text', text: 'Budi Santoso' }, { type: 'text', text: 'INV-1042' }] },
	{ type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'CONFIRM-INV-1042' }] },
];

/** What the scripted model asks each tool for, keyed by a phrase of the prompt. */
const CALLS: Record<string, ScriptedCall> = {
	'order_update template': { tool: 'Send_order_update', arguments: { to: SMS_RECIPIENT, template_name: 'order_update', components: TEMPLATE_COMPONENTS } },
	'[sms-ok]': { tool: 'Send_SMS', arguments: { Phone_Number: SMS_RECIPIENT, Message: 'Your order INV-7 has shipped.' } },
	'[media-ok]': { tool: 'Send_invoice_document', arguments: { to: MEDIA_RECIPIENT, media_url: INVOICE_URL } },
	'[failover-ok]': {
		tool: 'Send_login_code_with_SMS_failover',
		arguments: { to: SMS_RECIPIENT, code: '482913', sms_phone_number: SMS_RECIPIENT, sms_text: 'Your login code is 482913' },
	},
	'[sms-invalid]': { tool: 'Send_SMS', arguments: { Phone_Number: '+4915112345678', Message: '' } },
	'[template-invalid]': {
		tool: 'Send_order_update',
		arguments: { to: 'call me maybe', template_name: 'order_update', components: [{ type: 'button', sub_type: 'quick_reply', index: '5', parameters: [{ type: 'payload', payload: 'X' }] }] },
	},
	'[media-invalid]': { tool: 'Send_invoice_document', arguments: { to: MEDIA_RECIPIENT, media_url: 'http://insecure.example.com/INV-7.pdf' } },
	'[ask-ok]': { tool: 'Ask_the_manager', arguments: { Question: 'May I refund order 42?' } },
};

/** A template message from SENDER to SMS_RECIPIENT, as the service receives it. */
const templateBody = (name: string, components: object[]): object => ({
	from: SENDER,
	to: SMS_RECIPIENT,
	type: 'template',
	template: { name, language: { policy: 'deterministic', code: 'id' }, components },
});

const fromAi = (key: string, description: string): string => `={{ $fromAI('${key}', \`${description}\`, 'string') }}`;
const E164 = 'The customer phone number, E.164 with leading +';

/** The tool nodes besides the example's template tool: SMS (the editor's default $fromAI), media, failover. */
const OTHER_TOOLS = [
	toolNode('Send SMS', { resource: 'sms', operation: 'send', phoneNumber: editorFromAi('Phone_Number'), message: editorFromAi('Message'), options: {} }),
	toolNode('Send invoice document', {
		resource: 'chatMessage',
		operation: 'sendMedia',
		from: SENDER,
		to: fromAi('to', E164),
		mediaType: 'document',
		mediaUrl: fromAi('media_url', 'Public https link to the invoice PDF'),
		options: {},
	}),
	toolNode('Send login code with SMS failover', {
		resource: 'combined',
		operation: 'sendWithFailover',
		from: SENDER,
		to: fromAi('to', E164),
		templateName: 'login_code',
		languageCode: 'id',
		componentsInputMode: 'fields',
		bodyParameters: { parameter: [{ text: fromAi('code', 'The one-time login code') }] },
		phoneNumber: fromAi('sms_phone_number', 'The SMS recipient, E.164 +62'),
		message: fromAi('sms_text', 'The SMS text'),
		options: {},
	}),
];

/** The AI Agent version of this n8n: 3.1 is n8n 2.x's; n8n 1.123.x has the same agent as 3. */
const AGENT_VERSION = N8N_MAJOR < 2 ? 3 : 3.1;

/** The example, with this n8n's AI Agent version. */
const EXAMPLE: ExampleWorkflow = (() => {
	const example = readExampleWorkflow(EXAMPLE_FILE);
	return { ...example, nodes: example.nodes.map((node) => (node.type === AGENT_TYPE ? { ...node, typeVersion: AGENT_VERSION } : node)) };
})();

/**
 * A workflow built on the example: its trigger, agent, model and template tool, with the three
 * other tools attached and a Code node in place of "Order" that emits the given prompts.
 */
function agentWorkflow(id: string, name: string, prompts: string[]): ExampleWorkflow {
	const nodes = EXAMPLE.nodes
		.filter((node) => node.name !== 'Order')
		.map((node) => (node.type === AGENT_TYPE ? { ...node, parameters: { ...node.parameters, text: '={{ $json.prompt }}' } } : node));
	const added = workflowFixture(id, name, [codeItems('Prompts', prompts.map((prompt) => ({ prompt }))), ...OTHER_TOOLS], [
		['Prompts', AGENT],
		...OTHER_TOOLS.map((tool): [string, string, string] => [tool.name, AGENT, 'ai_tool']),
	]);
	const { Order: _order, ...connections } = EXAMPLE.connections;
	const fromTrigger = { [MANUAL_TRIGGER]: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] } };
	return { ...EXAMPLE, id, name, nodes: [...nodes, ...added.nodes], connections: { ...connections, ...added.connections, ...fromTrigger } };
}

/** (d) An agent whose only tool is this node's Send and Wait (SMS, Approval) to the manager. */
const ASK = 'Ask the manager';
const MANAGER = '+6281311112222';
const ASK_WORKFLOW = workflowFixture(
	'mcnAiCheckAsk001',
	'AI check: Send and Wait as a tool',
	[
		manualTrigger(),
		{ name: AGENT, type: AGENT_TYPE, typeVersion: AGENT_VERSION, parameters: { promptType: 'define', text: '[ask-ok] Ask the manager whether to refund order 42.', options: {} } },
		chatModelNode(),
		toolNode(ASK, { resource: 'sms', operation: 'sendAndWait', phoneNumber: MANAGER, message: editorFromAi('Question'), responseType: 'approval', approvalOptions: { values: { approvalType: 'double' } } }),
	],
	[
		[MANUAL_TRIGGER, AGENT],
		['OpenAI Chat Model', AGENT, 'ai_languageModel'],
		[ASK, AGENT, 'ai_tool'],
	],
);

const VALID = agentWorkflow('mcnAiCheckValid1', 'AI check: valid sends', [
	'[sms-ok] Tell +6281234567890 by SMS that order INV-7 has shipped.',
	'[media-ok] Send the INV-7 invoice PDF to the customer.',
	'[failover-ok] Send login code 482913 by chat, with SMS as fallback.',
]);
const INVALID = agentWorkflow('mcnAiCheckBad001', 'AI check: invalid arguments', [
	'[sms-invalid] Text the German number.',
	'[template-invalid] Send the order update to the caller.',
	'[media-invalid] Send the invoice over plain http.',
]);

type StandIn = Awaited<ReturnType<typeof useStandIn>>['standIn'];

async function body({ sandbox, stack: { client }, verify }: CheckContext, standIn: StandIn): Promise<void> {
	sandbox.startChat(MEDIA_RECIPIENT);
	// The stand-in may have served other checks of this run before: only what it hears from here on counts.
	const chatsAtStart = standIn.requests.length;
	const resultsAtStart = standIn.toolResults().length;

	/** Runs a workflow; what reached the sandbox and the tool results the model read meanwhile. */
	const run = async (label: string, workflow: ExampleWorkflow) => {
		const before = sandbox.requests.length;
		const resultsBefore = standIn.toolResults().length;
		const execution = await step(label, async () => await client.execute(workflow.id));
		const received = sandbox.requests.slice(before).map((request) => ({ path: request.path, status: request.status, body: request.body }));
		return { execution, received, results: standIn.toolResults().slice(resultsBefore) };
	};

	// (a) the example: a template message whose components the model wrote as JSON.
	const example = await run(`run ${EXAMPLE_FILE}`, EXAMPLE);
	verify(example.execution.status === 'success', `${EXAMPLE_FILE}: execution ${example.execution.id} succeeded`, example.execution.data.resultData.error);
	verify(
		isDeepStrictEqual(example.received, [{ path: WA_MESSAGE_PATH, status: 200, body: templateBody('order_update', TEMPLATE_COMPONENTS) }]),
		'(a) the template send arrived at the sandbox exactly as expected (JSON components from $fromAI)',
		example.received,
	);
	const templateResult = example.results.filter((result) => result.tool === 'Send_order_update');
	verify(templateResult.length === 1 && templateResult[0].content.includes('"success"'), '(a) the model read the service answer ("success") as the tool result', templateResult);

	// (a) SMS, media, failover.
	const sends = await run('run the valid SMS, media and failover prompts', VALID);
	verify(sends.execution.status === 'success', `valid sends: execution ${sends.execution.id} succeeded`, sends.execution.data.resultData.error);
	const expected = [
		{ path: SMS_PATH, body: { phone_number: SMS_RECIPIENT, message: 'Your order INV-7 has shipped.' } },
		{ path: WA_MESSAGE_PATH, body: { from: SENDER, to: MEDIA_RECIPIENT, type: 'document', recipient_type: 'individual', document: { link: INVOICE_URL } } },
		{
			path: COMBINED_PATH,
			body: {
				chat: templateBody('login_code', [{ type: 'body', parameters: [{ type: 'text', text: '482913' }] }]),
				sms: { phone_number: SMS_RECIPIENT, message: 'Your login code is 482913' },
			},
		},
	];
	for (const { path, body } of expected) {
		const matches = sends.received.filter((request) => request.path === path);
		verify(isDeepStrictEqual(matches, [{ path, status: 200, body }]), `(a) ${path}: exactly one request, body exactly as expected`, matches);
	}
	verify(sends.received.length === expected.length, `(a) nothing else reached the sandbox (${sends.received.length} requests)`, sends.received);
	verify(sends.results.length === 3 && sends.results.every((result) => result.content.includes('"success"')), '(a) each tool result the model read says "success"', sends.results);

	// (b) invalid arguments: the model reads what to fix, the run goes on, nothing is sent.
	const bad = await run('run the invalid-argument prompts', INVALID);
	verify(
		bad.execution.status === 'success',
		`(b) invalid arguments: execution ${bad.execution.id} succeeded (the agent run went on)`,
		bad.execution.data.resultData.error ?? bad.execution.status,
	);
	verify(bad.received.length === 0, '(b) the sandbox received nothing', bad.received);
	// The content is the tool's output items as JSON text; unescape quotes to read it as prose.
	const content = (tool: string): string => (bad.results.find((result) => result.tool === tool)?.content ?? '').replace(/\\"/g, '"');
	verify(bad.results.length === 3, `(b) the model read a tool result for each of the 3 invalid calls (${bad.results.length})`, bad.results);
	const sms = content('Send_SMS');
	verify(/"sent":\s*false/.test(sms), '(b) SMS: the result says sent: false', sms);
	verify(sms.includes('argument "Phone_Number"') && sms.includes('+62'), '(b) SMS: names argument "Phone_Number" and the +62 rule', sms);
	verify(sms.includes('argument "Message"'), '(b) SMS: also names argument "Message" (every problem listed)', sms);
	verify(!/Item 0|Phone Number (must|is)/.test(sms), '(b) SMS: no editor wording ("Item 0", UI labels)', sms);
	const template = content('Send_order_update');
	verify(/"sent":\s*false/.test(template), '(b) template: the result says sent: false', template);
	verify(template.includes('argument "to"') && /E\.164/.test(template), '(b) template: names argument "to" and the E.164 rule', template);
	verify(template.includes('argument "components"') && /body/i.test(template), '(b) template: names argument "components" and the missing body', template);
	const media = content('Send_invoice_document');
	verify(media.includes('argument "media_url"') && /https/.test(media), '(b) media: names argument "media_url" and the https rule', media);

	// (c) the tool definitions the model was given.
	const tools = () => standIn.requests.slice(chatsAtStart).flatMap((body) => body.tools ?? []);
	const definitions = [...new Map(tools().map((tool): [string, ToolDefinition] => [tool.function.name, tool])).values()];
	mkdirSync(ARTIFACTS, { recursive: true });
	writeFileSync(join(ARTIFACTS, 'ai-agent-tool-definitions.json'), `${JSON.stringify(definitions, null, 2)}\n`);
	writeFileSync(join(ARTIFACTS, 'ai-agent-tool-results.json'), `${JSON.stringify(standIn.toolResults().slice(resultsAtStart), null, 2)}\n`);
	console.log(`  (tool definitions and the tool results the model read saved in ${ARTIFACTS})`);
	/** A tool's definition as the model received it, from every request so far ((d) adds a tool). */
	const definition = (name: string) => tools().find((tool) => tool.function.name === name)?.function;
	verify(definitions.length === 4, `(c) the model was given 4 tools: ${definitions.map((tool) => tool.function.name).join(', ')}`);
	const rules: Array<[string, RegExp[]]> = [
		['Send_SMS', [/E\.164/, /\+62/, /leading \+/]],
		['Send_order_update', [/E\.164/, /\{\{1\}\}/, /body/, /in order/, /at most 3 quick repl/, /index 0, 1 or 2|0–2/, /URL button/, /https/, /[Tt]emplate name/]],
		['Send_invoice_document', [/E\.164/, /https/, /started a chat/, /template message instead/]],
		['Send_login_code_with_SMS_failover', [/both parts/i, /E\.164/, /\+62/, /\{\{1\}\}/, /at most 3 quick repl/, /URL button/]],
	];
	for (const [name, patterns] of rules) {
		const text = definition(name)?.description ?? '';
		const missing = patterns.filter((pattern) => !pattern.test(text)).map(String);
		verify(missing.length === 0, `(c) ${name}: the description states its rules`, { missing, description: text });
	}
	const schema = definition('Send_order_update')?.parameters as { properties?: Record<string, { description?: string }> } | undefined;
	verify(/body component is required/.test(schema?.properties?.components?.description ?? ''), '(c) the template tool’s "components" argument carries the recipe’s description', schema);
	verify(definition('Send_SMS')?.parameters !== undefined, '(c) the SMS tool (editor-default $fromAI) has an argument schema');

	// (d) Send and Wait as an ordinary tool: the run waits for the person, the answer goes to the model.
	const before = sandbox.requests.length;
	const resultsBefore = standIn.toolResults().length;
	const waiting = await step('run the Send and Wait tool until it waits', async () => await client.execute(ASK_WORKFLOW.id, { until: ['waiting', ...FINISHED] }));
	verify(waiting.status === 'waiting', `(d) Send and Wait as a tool: execution ${waiting.id} waits for the person`, waiting.data.resultData.error ?? waiting.status);
	const asked = sandbox.requests.slice(before);
	const [question, link] = asked.length === 1 ? smsOf(asked[0]).message.split('\n') : [];
	verify(
		asked.length === 1 && asked[0].delivered && smsOf(asked[0]).phone_number === MANAGER && question === 'May I refund order 42?' && findAnswerLink(SMS_PATH, asked[0].body) === link,
		'(d) one SMS went to the manager: the model’s question, then the answer link',
		asked.map((request) => request.body),
	);
	verify(standIn.toolResults().length === resultsBefore, '(d) while it waits the model has no tool result yet', standIn.toolResults().slice(resultsBefore));
	const record = await step('the manager opens the link and approves', async () => await answerAsPerson(asked[0]?.seq ?? -1, link, 'approve', RUN_DEADLINE_MS));
	verify(record.error === undefined && record.answer?.status === 200, '(d) the answer (POST from the page) was accepted', record);
	const finished = await step('the execution resumes and finishes', async () => await client.statusBecomes(waiting.id, FINISHED, RUN_DEADLINE_MS));
	verify(finished.status === 'success', `(d) execution ${waiting.id} succeeded`, finished.data.resultData.error ?? finished.status);
	const answered = standIn.toolResults().slice(resultsBefore);
	verify(
		answered.length === 1 && answered[0].tool === 'Ask_the_manager' && /"approved":\s*true/.test(answered[0].content),
		'(d) the model read the person’s answer as the tool result (approved: true)',
		answered,
	);
	verify(sandbox.requests.length === before + 1, '(d) nothing else was sent', sandbox.requests.slice(before).map((request) => request.body));
	const asking = definition('Ask_the_manager')?.description ?? '';
	verify(/waits for the answer/.test(asking) && /approved true or false/.test(asking), '(d) the tool’s description said that the call waits for the answer', asking);
}

export const aiAgentCheck: Check = {
	name: `AI-agent check, n8n ${N8N_VERSION}`,
	prepare: async () => {
		const { standIn, credential } = await useStandIn(CALLS);
		return { credentials: [credential], workflows: [EXAMPLE, VALID, INVALID, ASK_WORKFLOW], run: async (context) => await body(context, standIn) };
	},
};

runIfMain(module, aiAgentCheck);
