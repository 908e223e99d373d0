/**
 * AI-agent check: the node as an AI Agent's tool in real n8n 2.8.4.
 *
 * An AI Agent (`@n8n/n8n-nodes-langchain.agent` 3.1) with an OpenAI Chat Model (`lmChatOpenAi`
 * 1.3, Responses API off) whose credential's Base URL points at a scripted OpenAI-compatible
 * stand-in (lib/openaiStandIn.ts). The stand-in asks for one tool call per prompt, then answers
 * with a text quoting the tool's result; it records every request, so the tool definitions and
 * the tool results the model read can be asserted. The tools are this package's node as a tool
 * (`…multiChannelNotificationTool`) against the sandbox.
 *
 *   (a) valid sends through the agent — the template example (examples/ai-agent-template-send.json,
 *       components as JSON via $fromAI), SMS (the editor's default $fromAI), media, failover —
 *       arrive at the sandbox exactly as expected;
 *   (b) invalid arguments come back to the model as the tool's result, naming the argument and
 *       the rule, the run succeeds, and the sandbox receives nothing;
 *   (c) the tool definitions the model received are saved (.cache/e2e-artifacts/) and carry the
 *       rules of each operation.
 *
 * Every assertion is printed (✔/✘) and all are evaluated; the check fails if any failed.
 *
 *   npx tsx scripts/n8n/check-ai-agent.ts     (after `npm run build`)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { runCheck } from './lib/check';
import type { ExampleWorkflow } from './lib/examples';
import { CREDENTIAL_ID, CREDENTIAL_NAME, MEDIA_RECIPIENT, readExampleWorkflow, sandboxCredential } from './lib/examples';
import { CACHE_DIR, N8N_DIR, PACKAGE_NAME } from './lib/install';
import type { ExecutionSummary } from './lib/n8n';
import type { OpenAiStandIn, ScriptedCall, ToolDefinition } from './lib/openaiStandIn';
import { startOpenAiStandIn } from './lib/openaiStandIn';
import { launch, step } from './lib/stack';

const TOOL_TYPE = `${PACKAGE_NAME}.multiChannelNotificationTool`;
const OPENAI_CREDENTIAL = { id: 'mcnOpenAiCred001', name: 'OpenAI account' };
const EXAMPLE_FILE = 'ai-agent-template-send.json';
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(CACHE_DIR, 'e2e-artifacts');

const SENDER = '+6280011112222';

/** AI Agent 3.1 is n8n 2.x's; n8n 1.123.x (N8N_VERSION=1.123.x) has the same agent as 3. */
function agentVersionForInstalledN8n(): number {
	const { version } = JSON.parse(readFileSync(join(N8N_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8')) as { version: string };
	return Number(version.split('.')[0]) < 2 ? 3 : 3.1;
}

function withAgentVersion(workflow: ExampleWorkflow, typeVersion: number): ExampleWorkflow {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => (node.type === '@n8n/n8n-nodes-langchain.agent' ? { ...node, typeVersion } : node)),
	};
}
const SMS_RECIPIENT = '+6281234567890';

/** What the scripted model asks each tool for, keyed by a phrase of the prompt. */
const TEMPLATE_CALL: ScriptedCall = {
	tool: 'Send_order_update',
	arguments: {
		to: '+6281234567890',
		template_name: 'order_update',
		components: [
			{ type: 'body', parameters: [{ type: 'text', text: 'Budi Santoso' }, { type: 'text', text: 'INV-1042' }] },
			{ type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'CONFIRM-INV-1042' }] },
		],
	},
};

const CALLS: Array<{ phrase: string; call: ScriptedCall }> = [
	{ phrase: 'order_update template', call: TEMPLATE_CALL },
	{
		phrase: '[sms-ok]',
		call: { tool: 'Send_SMS', arguments: { Phone_Number: SMS_RECIPIENT, Message: 'Your order INV-7 has shipped.' } },
	},
	{
		phrase: '[media-ok]',
		call: { tool: 'Send_invoice_document', arguments: { to: MEDIA_RECIPIENT, media_url: 'https://cdn.example.com/invoices/INV-7.pdf' } },
	},
	{
		phrase: '[failover-ok]',
		call: {
			tool: 'Send_login_code_with_SMS_failover',
			arguments: {
				to: SMS_RECIPIENT,
				code: '482913',
				sms_phone_number: SMS_RECIPIENT,
				sms_text: 'Your login code is 482913',
			},
		},
	},
	{
		phrase: '[sms-invalid]',
		call: { tool: 'Send_SMS', arguments: { Phone_Number: '+4915112345678', Message: '' } },
	},
	{
		phrase: '[template-invalid]',
		call: {
			tool: 'Send_order_update',
			arguments: {
				to: 'call me maybe',
				template_name: 'order_update',
				components: [{ type: 'button', sub_type: 'quick_reply', index: '5', parameters: [{ type: 'payload', payload: 'X' }] }],
			},
		},
	},
	{
		phrase: '[media-invalid]',
		call: { tool: 'Send_invoice_document', arguments: { to: MEDIA_RECIPIENT, media_url: 'http://insecure.example.com/INV-7.pdf' } },
	},
];

const script = (userText: string): ScriptedCall | undefined => CALLS.find(({ phrase }) => userText.includes(phrase))?.call;

const fromAi = (key: string, description: string, type = 'string'): string =>
	`={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;
/** What the editor writes when "Let the model define this parameter" is clicked. */
const editorFromAi = (key: string): string =>
	`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`\`, 'string') }}`;

const notificationCredential = { multiChannelNotificationApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };

/** The tool nodes besides the example's template tool: SMS, media, failover. */
function otherTools(): ExampleWorkflow['nodes'] {
	return [
		{
			id: 'ai-check-tool-sms',
			name: 'Send SMS',
			type: TOOL_TYPE,
			parameters: {
				resource: 'sms',
				operation: 'send',
				phoneNumber: editorFromAi('Phone_Number'),
				message: editorFromAi('Message'),
				options: {},
			},
			credentials: notificationCredential,
		},
		{
			id: 'ai-check-tool-media',
			name: 'Send invoice document',
			type: TOOL_TYPE,
			parameters: {
				resource: 'chatMessage',
				operation: 'sendMedia',
				from: SENDER,
				to: fromAi('to', 'The customer phone number, E.164 with leading +'),
				mediaType: 'document',
				mediaUrl: fromAi('media_url', 'Public https link to the invoice PDF'),
				options: {},
			},
			credentials: notificationCredential,
		},
		{
			id: 'ai-check-tool-failover',
			name: 'Send login code with SMS failover',
			type: TOOL_TYPE,
			parameters: {
				resource: 'combined',
				operation: 'sendWithFailover',
				from: SENDER,
				to: fromAi('to', 'The customer phone number, E.164 with leading +'),
				templateName: 'login_code',
				languageCode: 'id',
				componentsInputMode: 'fields',
				bodyParameters: { parameter: [{ text: fromAi('code', 'The one-time login code') }] },
				smsPhoneNumber: fromAi('sms_phone_number', 'The SMS recipient, E.164 +62'),
				smsMessage: fromAi('sms_text', 'The SMS text'),
				options: {},
			},
			credentials: notificationCredential,
		},
	];
}

/**
 * A workflow built on the example: its trigger, agent, model and template tool, with the three
 * other tools attached and a Code node in place of "Order" that emits the given prompts.
 */
function agentWorkflow(example: ExampleWorkflow, id: string, name: string, prompts: string[]): ExampleWorkflow {
	const nodes = example.nodes
		.filter((node) => node.name !== 'Order')
		.map((node) => (node.type === '@n8n/n8n-nodes-langchain.agent' ? { ...node, parameters: { ...node.parameters, text: '={{ $json.prompt }}' } } : node));
	const trigger = nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	const agent = nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.agent');
	if (!trigger || !agent) throw new Error(`${EXAMPLE_FILE}: needs a Manual Trigger and an AI Agent`);
	const tools = otherTools();
	const connections: Record<string, unknown> = { ...example.connections };
	delete connections.Order;
	connections[trigger.name] = { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] };
	connections.Prompts = { main: [[{ node: agent.name, type: 'main', index: 0 }]] };
	for (const tool of tools) connections[tool.name] = { ai_tool: [[{ node: agent.name, type: 'ai_tool', index: 0 }]] };
	return {
		...example,
		id,
		name,
		nodes: [
			...nodes,
			{
				id: `${id}-prompts`,
				name: 'Prompts',
				type: 'n8n-nodes-base.code',
				parameters: { jsCode: `return ${JSON.stringify(prompts.map((prompt) => ({ json: { prompt } })))};` },
			},
			...tools,
		].map((node, index) => ({ typeVersion: 1, position: [index * 200, 0], ...node })) as ExampleWorkflow['nodes'],
		connections,
	};
}

function toolDefinitions(standIn: OpenAiStandIn): ToolDefinition[] {
	const byName = new Map<string, ToolDefinition>();
	for (const { body } of standIn.requests) for (const tool of body.tools ?? []) byName.set(tool.function.name, tool);
	return [...byName.values()];
}

runCheck('AI-agent check', async ({ sandbox, expect }) => {
	const failures: string[] = [];
	const verify = (ok: boolean, what: string, detail?: unknown): void => {
		if (ok) {
			console.log(`  ✔ PASS ${what}`);
			return;
		}
		failures.push(what);
		console.log(`  ✘ FAIL ${what}${detail === undefined ? '' : `\n      got: ${JSON.stringify(detail, null, 2).split('\n').join('\n      ')}`}`);
	};

	const standIn = await step('start the OpenAI-compatible stand-in', async () => await startOpenAiStandIn(script));
	sandbox.startChat(MEDIA_RECIPIENT);
	const example = withAgentVersion(readExampleWorkflow(EXAMPLE_FILE), agentVersionForInstalledN8n());
	const valid = agentWorkflow(example, 'mcnAiCheckValid1', 'AI check: valid sends', [
		'[sms-ok] Tell +6281234567890 by SMS that order INV-7 has shipped.',
		'[media-ok] Send the INV-7 invoice PDF to the customer.',
		'[failover-ok] Send login code 482913 by chat, with SMS as fallback.',
	]);
	const invalid = agentWorkflow(example, 'mcnAiCheckBad001', 'AI check: invalid arguments', [
		'[sms-invalid] Text the German number.',
		'[template-invalid] Send the order update to the caller.',
		'[media-invalid] Send the invoice over plain http.',
	]);
	const stack = await launch({
		label: 'ai-agent',
		credentials: [
			sandboxCredential(sandbox.url, sandbox.apiKey),
			{ ...OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-standin-not-a-real-key', url: standIn.baseUrl } },
		],
		workflows: [example, valid, invalid],
	});

	const run = async (workflow: ExampleWorkflow): Promise<ExecutionSummary> => {
		const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
		const id = await stack.client.runWorkflow(workflow.id, trigger?.name ?? '');
		return await stack.client.waitForExecution(id, 120_000);
	};
	const sandboxBodies = (from: number) => sandbox.requests.slice(from).map((request) => ({ path: request.path, status: request.status, body: request.body }));
	const resultsFor = (tool: string, since: number) => standIn.toolResults().slice(since).filter((result) => result.tool === tool);

	// (a) the example: a template message whose components the model wrote as JSON.
	let before = sandbox.requests.length;
	let resultsBefore = standIn.toolResults().length;
	const exampleRun = await step(`run ${EXAMPLE_FILE}`, async () => await run(example));
	verify(exampleRun.status === 'success', `${EXAMPLE_FILE}: execution ${exampleRun.id} succeeded`, exampleRun.data.resultData.error);
	const expectedTemplate = {
		from: SENDER,
		to: '+6281234567890',
		type: 'template',
		template: { name: 'order_update', language: { policy: 'deterministic', code: 'id' }, components: TEMPLATE_CALL.arguments.components },
	};
	const afterExample = sandboxBodies(before);
	verify(
		afterExample.length === 1 && afterExample[0].path === '/v1/wa/message' && afterExample[0].status === 200 && isDeepStrictEqual(afterExample[0].body, expectedTemplate),
		'(a) the template send arrived at the sandbox exactly as expected (JSON components from $fromAI)',
		afterExample,
	);
	const templateResult = resultsFor('Send_order_update', resultsBefore);
	verify(templateResult.length === 1 && templateResult[0].content.includes('"success"'), '(a) the model read the service answer ("success") as the tool result', templateResult);

	// (a) SMS, media, failover.
	before = sandbox.requests.length;
	resultsBefore = standIn.toolResults().length;
	const validRun = await step('run the valid SMS, media and failover prompts', async () => await run(valid));
	verify(validRun.status === 'success', `valid sends: execution ${validRun.id} succeeded`, validRun.data.resultData.error);
	const received = sandboxBodies(before);
	const expected = [
		{ path: '/v1/sms/notification', body: { phone_number: SMS_RECIPIENT, message: 'Your order INV-7 has shipped.' } },
		{
			path: '/v1/wa/message',
			body: { from: SENDER, to: MEDIA_RECIPIENT, type: 'document', recipient_type: 'individual', document: { link: 'https://cdn.example.com/invoices/INV-7.pdf' } },
		},
		{
			path: '/v1/combined/notification/failover',
			body: {
				chat: {
					from: SENDER,
					to: SMS_RECIPIENT,
					type: 'template',
					template: {
						name: 'login_code',
						language: { policy: 'deterministic', code: 'id' },
						components: [{ type: 'body', parameters: [{ type: 'text', text: '482913' }] }],
					},
				},
				sms: { phone_number: SMS_RECIPIENT, message: 'Your login code is 482913' },
			},
		},
	];
	for (const { path, body } of expected) {
		const matches = received.filter((request) => request.path === path);
		verify(
			matches.length === 1 && matches[0].status === 200 && isDeepStrictEqual(matches[0].body, body),
			`(a) ${path}: exactly one request, body exactly as expected`,
			matches,
		);
	}
	verify(received.length === expected.length, `(a) nothing else reached the sandbox (${received.length} requests)`, received);
	const validResults = standIn.toolResults().slice(resultsBefore);
	verify(validResults.length === 3 && validResults.every((result) => result.content.includes('"success"')), '(a) each tool result the model read says "success"', validResults);

	// (b) invalid arguments: the model reads what to fix, the run goes on, nothing is sent.
	before = sandbox.requests.length;
	resultsBefore = standIn.toolResults().length;
	const invalidRun = await step('run the invalid-argument prompts', async () => await run(invalid));
	verify(
		invalidRun.status === 'success',
		`(b) invalid arguments: execution ${invalidRun.id} succeeded (the agent run went on)`,
		invalidRun.data.resultData.error ?? invalidRun.status,
	);
	verify(sandbox.requests.length === before, '(b) the sandbox received nothing', sandboxBodies(before));
	const badResults = standIn.toolResults().slice(resultsBefore);
	// The content is the tool's output items as JSON text; unescape quotes to read it as prose.
	const content = (tool: string): string => (badResults.find((result) => result.tool === tool)?.content ?? '').replace(/\\"/g, '"');
	verify(badResults.length === 3, `(b) the model read a tool result for each of the 3 invalid calls (${badResults.length})`, badResults);
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
	const definitions = toolDefinitions(standIn);
	mkdirSync(ARTIFACTS, { recursive: true });
	const saved = join(ARTIFACTS, 'ai-agent-tool-definitions.json');
	writeFileSync(saved, `${JSON.stringify(definitions, null, 2)}\n`);
	writeFileSync(join(ARTIFACTS, 'ai-agent-tool-results.json'), `${JSON.stringify(standIn.toolResults(), null, 2)}\n`);
	console.log(`  (tool definitions and the tool results the model read saved in ${ARTIFACTS})`);
	const description = (name: string): string => definitions.find((tool) => tool.function.name === name)?.function.description ?? '';
	verify(definitions.length === 4, `(c) the model was given 4 tools: ${definitions.map((tool) => tool.function.name).join(', ')}`);
	const rules: Array<[string, RegExp[]]> = [
		['Send_SMS', [/E\.164/, /\+62/, /leading \+/]],
		['Send_order_update', [/E\.164/, /\{\{1\}\}/, /body/, /in order/, /at most 3 quick repl/, /index 0, 1 or 2|0–2/, /URL button/, /https/, /[Tt]emplate name/]],
		['Send_invoice_document', [/E\.164/, /https/, /started a chat/, /template message instead/]],
		['Send_login_code_with_SMS_failover', [/both parts/i, /E\.164/, /\+62/, /\{\{1\}\}/, /at most 3 quick repl/, /URL button/]],
	];
	for (const [name, patterns] of rules) {
		const text = description(name);
		const missing = patterns.filter((pattern) => !pattern.test(text)).map(String);
		verify(missing.length === 0, `(c) ${name}: the description states its rules`, { missing, description: text });
	}
	const schema = definitions.find((tool) => tool.function.name === 'Send_order_update')?.function.parameters as
		| { properties?: Record<string, { description?: string }> }
		| undefined;
	verify(
		/body component is required/.test(schema?.properties?.components?.description ?? ''),
		'(c) the template tool’s "components" argument carries the recipe’s description',
		schema,
	);
	verify(
		definitions.filter((tool) => tool.function.name === 'Send_SMS').every((tool) => tool.function.parameters !== undefined),
		'(c) the SMS tool (editor-default $fromAI) has an argument schema',
	);

	await standIn.stop();
	expect(failures.length === 0, `all ${failures.length === 0 ? '' : 'but '}AI-agent assertions held`, failures.length === 0 ? undefined : failures);
});
