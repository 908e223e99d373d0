/**
 * A scripted stand-in for an OpenAI-compatible chat model, for end-to-end runs of n8n's AI Agent
 * without a real model. n8n's OpenAI Chat Model node (credential Base URL
 * `http://127.0.0.1:<port>/v1`, Responses API off) calls `POST /v1/chat/completions`; the
 * stand-in answers each conversation from a script: on the user's turn it asks for the tool call
 * whose phrase the user's message contains (none: a text answer); once a tool result is in the
 * conversation it answers with a final text that quotes the result.
 * Every request body is recorded, so a check can assert the tool definitions the model was given
 * and the tool results it read. Non-streaming answers, with a streamed (SSE) variant in case the
 * client asks for one.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { NodeFixture } from './examples';
import type { CredentialFixture } from './n8n';

interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
	name?: string;
}

export interface ToolDefinition {
	type: string;
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: ToolDefinition[];
	stream?: boolean;
}

/** A scripted tool call: which tool (by n8n's tool name) with which arguments. */
export interface ScriptedCall {
	tool: string;
	arguments: Record<string, unknown>;
}

/** A tool result (a role "tool" message) the model was sent, with the call it answers. */
interface ToolResult {
	toolCallId: string;
	tool: string;
	arguments: Record<string, unknown>;
	content: string;
}

/** The OpenAI credential the examples' chat model uses; {@link useStandIn} points it at the stand-in. */
const OPENAI_CREDENTIAL = { id: 'mcnOpenAiCred001', name: 'OpenAI account' };

/** n8n's OpenAI Chat Model node on that credential, Responses API off, as in examples/ai-agent-template-send.json. */
export const chatModelNode = (): NodeFixture => ({
	name: 'OpenAI Chat Model',
	type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
	typeVersion: 1.3,
	parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4.1-mini' }, responsesApiEnabled: false, options: {} },
	credentials: { openAiApi: OPENAI_CREDENTIAL },
});

function text(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : ((part as { text?: unknown }).text ?? ''))).join('');
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
	const payload = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
	res.end(payload);
}

const USAGE = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
let sequence = 0;

/** The assistant's message as one completion or, when the client streams, as server-sent events the way OpenAI streams one. */
function reply(res: ServerResponse, body: ChatRequest, message: Record<string, unknown>, finishReason: string): void {
	const [id, created, model] = [`chatcmpl-standin-${++sequence}`, Math.floor(Date.now() / 1000), body.model ?? 'gpt-standin'];
	if (body.stream !== true) {
		send(res, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }], usage: USAGE });
		return;
	}
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	const base = { id, object: 'chat.completion.chunk', created, model };
	const toolCalls = (message.tool_calls as Array<Record<string, unknown>> | undefined)?.map((call, index) => ({ index, ...call }));
	const delta = { role: 'assistant', content: message.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
	res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
	res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] })}\n\n`);
	res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: USAGE })}\n\n`);
	res.end('data: [DONE]\n\n');
}

/** Starts the stand-in on a free port; `calls` is its script: the tool call to ask for, by a phrase of the user's message. */
async function startOpenAiStandIn(calls: Record<string, ScriptedCall>) {
	const requests: ChatRequest[] = [];
	let callCount = 0;

	/** The assistant's next message in the conversation and why it ends there. */
	const answer = (messages: ChatMessage[]): [Record<string, unknown>, string] => {
		const last = messages.at(-1);
		// The tool answered: end the turn with a text that quotes what the tool returned.
		if (last?.role === 'tool') return [{ role: 'assistant', content: `Tool result: ${text(last.content)}` }, 'stop'];
		const user = text([...messages].reverse().find((candidate) => candidate.role === 'user')?.content);
		const call = Object.entries(calls).find(([phrase]) => user.includes(phrase))?.[1];
		if (!call) return [{ role: 'assistant', content: 'Nothing to do.' }, 'stop'];
		const toolCall = { id: `call_standin_${++callCount}`, type: 'function', function: { name: call.tool, arguments: JSON.stringify(call.arguments) } };
		return [{ role: 'assistant', content: null, tool_calls: [toolCall] }, 'tool_calls'];
	};

	const server = createServer((req, res) => {
		void (async () => {
			const path = (req.url ?? '').split('?')[0];
			if (req.method === 'GET' && path === '/v1/models') {
				send(res, 200, { object: 'list', data: [{ id: 'gpt-standin', object: 'model', created: 0, owned_by: 'standin' }] });
				return;
			}
			if (req.method !== 'POST' || path !== '/v1/chat/completions') {
				send(res, 404, { error: { message: `The stand-in does not serve ${req.method ?? ''} ${path}`, type: 'invalid_request_error' } });
				return;
			}
			let body: ChatRequest;
			try {
				body = JSON.parse(await readBody(req)) as ChatRequest;
			} catch {
				send(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
				return;
			}
			requests.push(body);
			reply(res, body, ...answer(Array.isArray(body.messages) ? body.messages : []));
		})().catch((error: unknown) => {
			send(res, 500, { error: { message: error instanceof Error ? error.message : String(error), type: 'server_error' } });
		});
	});
	await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	/** The tool results the model was sent, in order. */
	const toolResults = (): ToolResult[] => {
		const calls = new Map<string, { tool: string; arguments: Record<string, unknown> }>();
		const found = new Map<string, ToolResult>();
		for (const message of requests.flatMap((body) => body.messages ?? [])) {
			// The calls' arguments are the stand-in's own, always JSON.
			for (const call of message.tool_calls ?? []) calls.set(call.id, { tool: call.function.name, arguments: JSON.parse(call.function.arguments) as Record<string, unknown> });
			const id = message.tool_call_id;
			if (message.role !== 'tool' || !id || found.has(id)) continue;
			found.set(id, { toolCallId: id, tool: calls.get(id)?.tool ?? message.name ?? '', arguments: calls.get(id)?.arguments ?? {}, content: text(message.content) });
		}
		return [...found.values()];
	};

	// `requests`: every chat request's body, in order.
	return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, toolResults };
}

const script: Record<string, ScriptedCall> = {};
let shared: ReturnType<typeof startOpenAiStandIn> | undefined;

/**
 * The stand-in the checks of a run share (started on first use) with `calls` added to its script
 * (each check uses phrases of its own), and the OpenAI credential that points n8n at it.
 */
export async function useStandIn(calls: Record<string, ScriptedCall>) {
	const clash = Object.keys(calls).filter((phrase) => phrase in script);
	if (clash.length > 0) throw new Error(`the stand-in's script already has ${clash.join(', ')}`);
	Object.assign(script, calls);
	shared ??= startOpenAiStandIn(script);
	const standIn = await shared;
	const credential: CredentialFixture = { ...OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-standin-not-a-real-key', url: standIn.baseUrl } };
	return { standIn, credential };
}
