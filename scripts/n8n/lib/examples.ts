/**
 * The example workflows in examples/: loading them, the credential they reference, running each
 * once through n8n's REST API and summing up what every send returned; and the pieces the checks
 * build their own workflows from.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { AnswerPlan } from '../../../sandbox/answerLinks';
import { CREDENTIAL_TYPE, NODE_TYPE, REPO_ROOT } from './config';
import type { CredentialFixture, ExecutionSummary, N8nClient, NodeItem } from './n8n';
import { MANUAL_TRIGGER } from './n8n';
import { delay } from './process';

const EXAMPLES_DIR = join(REPO_ROOT, 'examples');
/** The id every example's node references; the start script imports a credential under it. */
export const CREDENTIAL_ID = 'mcnSandboxCred01';
export const CREDENTIAL_NAME = 'Multi-Channel Notification (sandbox)';
/** The media example's recipient: media can only go to someone who has started the chat. */
export const MEDIA_RECIPIENT = '+6281298765432';
/** The example whose question `npm start` answers for the user, and its manager, a number no other example uses. */
export const REFUND_EXAMPLE = 'approve-refund-sms.json';
export const REFUND_MANAGER = '+6281100004242';

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion?: number;
	position?: [number, number];
	parameters: Record<string, unknown>;
	onError?: string;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
}

export interface ExampleWorkflow {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export interface Example {
	file: string;
	workflow: ExampleWorkflow;
	triggerName: string;
	/** Items the example is meant to turn into error items (the bulk SMS's bad number). */
	expectedErrors: number;
}

/** Examples that fail some items on purpose, by file name. */
const EXPECTED_ERRORS: Record<string, number> = { 'bulk-sms.json': 1 };

/** The order they are run and shown in; any other example file comes after these. */
const ORDER = ['template-send.json', 'media-send.json', 'bulk-sms.json', 'failover-send.json'];
const rank = (file: string): number => (ORDER.includes(file) ? ORDER.indexOf(file) : ORDER.length);

/** Reads one example workflow from examples/. */
export function readExampleWorkflow(file: string): ExampleWorkflow {
	return JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow;
}

/**
 * The examples that run against the sandbox: not the AI-agent ones (they need a chat model and its
 * credential: check-ai-agent.ts runs them); with `answered`, also those that wait for an answer
 * (Send and Wait), for a runner whose sandbox answers the links.
 */
export function loadExamples({ answered = false }: { answered?: boolean } = {}): Example[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
		.map((file) => ({ file, workflow: readExampleWorkflow(file) }))
		.filter(({ workflow }) => {
			const needsChatModel = workflow.nodes.some((node) => node.type.startsWith('@n8n/n8n-nodes-langchain.'));
			const waitsForAnswer = workflow.nodes.some((node) => node.type === NODE_TYPE && node.parameters.operation === 'sendAndWait');
			return !needsChatModel && (answered || !waitsForAnswer);
		})
		.map(({ file, workflow }) => {
			const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
			if (!trigger) throw new Error(`${file}: no Manual Trigger node`);
			return { file, workflow, triggerName: trigger.name, expectedErrors: EXPECTED_ERRORS[file] ?? 0 };
		});
}

/**
 * How `npm start`'s sandbox answers: approve the refund example's link half a second after its SMS
 * is delivered (n8n may not be waiting yet the moment it sends), and only that link: to its
 * manager, from its Send and Wait node. A workflow the user builds waits for the user's answer.
 */
export function demoAnswerPlan(): AnswerPlan {
	const ask = readExampleWorkflow(REFUND_EXAMPLE).nodes.find((node) => node.type === NODE_TYPE && node.parameters.operation === 'sendAndWait');
	if (!ask) throw new Error(`${REFUND_EXAMPLE}: no Send and Wait node`);
	return { answer: 'approve', delayMs: 500, only: { recipient: REFUND_MANAGER, nodeId: ask.id } };
}

export function sandboxCredential(baseUrl: string, apiKey: string): CredentialFixture {
	return { id: CREDENTIAL_ID, name: CREDENTIAL_NAME, type: CREDENTIAL_TYPE, data: { apiKey, baseUrl } };
}

export interface SendRow {
	node: string;
	item: number;
	ok: boolean;
	result: string;
}

export interface ExampleResult {
	example: Example;
	execution: ExecutionSummary;
	rows: SendRow[];
	/** Execution finished and exactly the expected items failed. */
	passed: boolean;
	problem?: string;
}

/** A Send and Wait node's output once answered: n8n's `{ data: { approved } }` or `{ data: { text } }`. */
function answerOf(json: Record<string, unknown>): string | undefined {
	const data = (json.data ?? {}) as Record<string, unknown>;
	if (typeof data.approved === 'boolean') return data.approved ? 'answered: approved' : 'answered: declined';
	if (typeof data.text === 'string') return `answered: "${data.text}"`;
	return undefined;
}

/** What an SMS the node sent costs, as its output's `sms` says: " · GSM-7, 1 segment". */
function costOf(json: Record<string, unknown>): string {
	const sms = json.sms as { encoding?: unknown; segments?: unknown } | undefined;
	return sms === undefined ? '' : ` · ${String(sms.encoding)}, ${String(sms.segments)} segment${sms.segments === 1 ? '' : 's'}`;
}

/** A sent item: the service's id (and request id), the combined send's two statuses, or the person's answer; an SMS's cost. */
function describeSuccess(json: Record<string, unknown>): string {
	const answer = answerOf(json);
	if (answer !== undefined) return answer;
	const data = (json.data ?? {}) as Record<string, unknown>;
	if (json.chatStatus !== undefined || json.smsStatus !== undefined) {
		return `${String(json.message)}: chat ${String(json.chatStatus)}, SMS ${String(json.smsStatus)} (request ${String(data.request_id)})${costOf(json)}`;
	}
	const request = data.request_id === undefined ? '' : `, request ${String(data.request_id)}`;
	return `${String(json.message)}: id ${String(data.id)}${request}${costOf(json)}`;
}

/** One row per item our node put out: success with the service's id, or the error text. */
export function sendRows(example: Example, execution: ExecutionSummary): SendRow[] {
	const rows: SendRow[] = [];
	for (const node of example.workflow.nodes.filter((candidate) => candidate.type === NODE_TYPE)) {
		for (const task of execution.data.resultData.runData[node.name] ?? []) {
			if (task.error) {
				rows.push({ node: node.name, item: 0, ok: false, result: `node error: ${task.error.message ?? ''}` });
				continue;
			}
			const items: NodeItem[] = task.data?.main?.[0] ?? [];
			items.forEach((item, index) => {
				const ok = item.json.error === undefined && (item.json.message === 'success' || answerOf(item.json) !== undefined);
				const result = ok ? describeSuccess(item.json) : `error: ${String(item.json.error ?? JSON.stringify(item.json))}`;
				rows.push({ node: node.name, item: index, ok, result });
			});
		}
	}
	return rows;
}

export async function runExample(client: N8nClient, example: Example): Promise<ExampleResult> {
	const execution = await client.execute(example.workflow.id, { trigger: example.triggerName });
	const rows = sendRows(example, execution);
	const errors = rows.filter((row) => !row.ok).length;
	let problem: string | undefined;
	if (execution.status !== 'success') {
		problem = `execution ${execution.id} ended "${execution.status}": ${execution.data.resultData.error?.message ?? ''}`;
	} else if (rows.length === 0) {
		problem = 'no output from the Multi-Channel Notification node';
	} else if (errors !== example.expectedErrors) {
		problem = `${errors} item(s) failed, expected ${example.expectedErrors}`;
	}
	return { example, execution, rows, passed: problem === undefined, problem };
}

function truncate(text: string, max: number): string {
	const flat = text.replace(/\s+/g, ' ');
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A plain-text table, readable in a terminal and in CI logs. */
export function formatTable(results: ExampleResult[]): string {
	const header = ['Example', 'Node', '#', 'Result'];
	const body = results.flatMap((result) =>
		result.rows.length > 0
			? result.rows.map((row) => [result.example.file, row.node, String(row.item), `${row.ok ? '✔' : '✘'} ${truncate(row.result, 90)}`])
			: [[result.example.file, '-', '-', `✘ ${result.problem ?? ''}`]],
	);
	const widths = header.map((title, column) => Math.max(title.length, ...body.map((row) => row[column].length)));
	const line = (cells: string[]): string => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
	const verdicts = results.map(({ passed, example, execution, problem }) =>
		`${passed ? 'PASS' : 'FAIL'} ${example.file} (execution ${execution.id}, ${execution.status})${problem ? `: ${problem}` : ''}`,
	);
	return [line(header), widths.map((width) => '─'.repeat(width)).join('  '), ...body.map(line), ...verdicts].join('\n');
}

/** A node for {@link workflowFixture}, which fills in its id, type version and position. */
export type NodeFixture = Omit<WorkflowNode, 'id'> & { id?: string };

/** A UUID-shaped id, always the same for the same seed. */
function fixtureId(seed: string): string {
	const hex = createHash('sha256').update(seed).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A workflow fixture of `nodes` (ids, type version 1 and positions filled in where missing),
 * each node's main output into the next, unless `links` says otherwise: [from, to] or
 * [from, to, connection type], e.g. [tool, agent, 'ai_tool'].
 */
export function workflowFixture(id: string, name: string, nodes: NodeFixture[], links?: Array<[string, string, string?]>): ExampleWorkflow {
	const connections: Record<string, Record<string, Array<Array<{ node: string; type: string; index: number }>>>> = {};
	for (const [from, to, type = 'main'] of links ?? nodes.slice(1).map((node, index): [string, string] => [nodes[index].name, node.name])) {
		((connections[from] ??= {})[type] ??= [[]])[0].push({ node: to, type, index: 0 });
	}
	return {
		id,
		name,
		nodes: nodes.map((node, index) => ({ id: fixtureId(`${id}/${node.name}`), typeVersion: 1, position: [index * 220, 0], ...node })),
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

export const manualTrigger = (): NodeFixture => ({ name: MANUAL_TRIGGER, type: 'n8n-nodes-base.manualTrigger', parameters: {} });
export const noOp = (): NodeFixture => ({ name: 'After', type: 'n8n-nodes-base.noOp', parameters: {} });

/** A Code node that puts out one item per object. */
export const codeItems = (name: string, items: object[]): NodeFixture => ({
	name,
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
});

/** A node of this package (`settings`: On Error, Retry On Fail, …) on the sandbox credential the checks import. */
export const packageNode = (name: string, parameters: Record<string, unknown>, settings: Record<string, unknown> = {}): NodeFixture => ({
	name,
	type: NODE_TYPE,
	parameters,
	credentials: { multiChannelNotificationApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
	...settings,
});

/** This package's node as an AI agent's tool. */
export const toolNode = (name: string, parameters: Record<string, unknown>): NodeFixture => ({ ...packageNode(name, parameters), type: `${NODE_TYPE}Tool` });

/** What the editor writes when "Let the model define this parameter" is clicked. */
export const editorFromAi = (key: string): string => `={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`\`, 'string') }}`;

/** A production-webhook trigger named "Webhook": POST /webhook/<path>, answered at once (or, `lastNode`, when the execution is over). */
export const webhookTrigger = (path: string, responseMode: 'onReceived' | 'lastNode' = 'onReceived'): NodeFixture => ({
	name: 'Webhook',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	webhookId: fixtureId(`webhook/${path}`),
	parameters: { httpMethod: 'POST', path, responseMode, options: {} },
});

/**
 * POSTs one JSON event per call to an active workflow's production webhook and returns each
 * call's result: 200, or the status and the start of n8n's answer. The first event goes alone and
 * is repeated while n8n answers 404: n8n 2.41 registers a webhook a moment after the activate call
 * returns, and a webhook that is not registered starts nothing, so a repeat cannot send twice.
 * The rest go at once.
 */
export async function postEvents(n8nUrl: string, path: string, events: unknown[]): Promise<Array<number | string>> {
	const post = async (event: unknown): Promise<number | string> => {
		const response = await fetch(`${n8nUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(event),
		});
		const text = await response.text();
		return response.status === 200 ? 200 : `${response.status} ${text.slice(0, 200)}`;
	};
	// A deadline against a webhook that never registers, not a speed bound.
	const deadline = Date.now() + 120_000;
	let first = await post(events[0]);
	while (String(first).startsWith('404') && Date.now() < deadline) {
		await delay(250);
		first = await post(events[0]);
	}
	return [first, ...(await Promise.all(events.slice(1).map(post)))];
}
