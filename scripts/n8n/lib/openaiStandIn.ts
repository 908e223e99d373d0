/**
 * A scripted stand-in for an OpenAI-compatible chat model, for end-to-end runs of n8n's AI Agent
 * without a real model. n8n's OpenAI Chat Model node (credential Base URL
 * `http://127.0.0.1:<port>/v1`, Responses API off) calls `POST /v1/chat/completions`; the
 * stand-in answers each conversation from a script: on the user's turn it asks for a tool call,
 * once a tool result is in the conversation it answers with a final text that quotes the result.
 * Every request body is recorded, so a check can assert the tool definitions the model was given
 * and the tool results it read. Non-streaming answers, with a streamed (SSE) variant in case the
 * client asks for one. Node built-ins only.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ChatMessage {
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

export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: ToolDefinition[];
	stream?: boolean;
	[key: string]: unknown;
}

export interface RecordedChat {
	path: string;
	body: ChatRequest;
}

/** A scripted tool call: which tool (by n8n's tool name) with which arguments. */
export interface ScriptedCall {
	tool: string;
	arguments: Record<string, unknown>;
}

/**
 * The script: given the text of the conversation's last user message, the tool call to ask
 * for, or undefined to answer with text right away.
 */
export type Script = (userText: string) => ScriptedCall | undefined;

export interface OpenAiStandIn {
	/** e.g. http://127.0.0.1:41234/v1 — the credential's Base URL. */
	baseUrl: string;
	requests: RecordedChat[];
	/** The tool results (role "tool" messages) the model was sent, in order, with the call they answer. */
	toolResults(): Array<{ toolCallId: string; tool: string; arguments: Record<string, unknown>; content: string }>;
	stop(): Promise<void>;
}

function text(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part) => (typeof part === 'string' ? part : ((part as { text?: unknown }).text ?? '')))
			.join('');
	}
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

let sequence = 0;

function completion(model: string, message: Record<string, unknown>, finishReason: string): Record<string, unknown> {
	sequence++;
	return {
		id: `chatcmpl-standin-${sequence}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

/** The same answer as server-sent events, the way OpenAI streams a completion. */
function stream(res: ServerResponse, model: string, message: Record<string, unknown>, finishReason: string): void {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	const base = { id: `chatcmpl-standin-${++sequence}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
	const toolCalls = (message.tool_calls as Array<Record<string, unknown>> | undefined)?.map((call, index) => ({ index, ...call }));
	const delta = { role: 'assistant', content: message.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
	res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
	res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] })}\n\n`);
	res.write(
		`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } })}\n\n`,
	);
	res.end('data: [DONE]\n\n');
}

export async function startOpenAiStandIn(script: Script): Promise<OpenAiStandIn> {
	const requests: RecordedChat[] = [];
	const sockets = new Set<Socket>();
	let callCount = 0;

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
			const raw = await readBody(req);
			let body: ChatRequest;
			try {
				body = JSON.parse(raw) as ChatRequest;
			} catch {
				send(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
				return;
			}
			requests.push({ path, body });
			const model = body.model ?? 'gpt-standin';
			const messages = Array.isArray(body.messages) ? body.messages : [];
			const last = messages[messages.length - 1];
			let message: Record<string, unknown>;
			let finish: string;
			if (last?.role === 'tool') {
				// The tool answered: end the turn with a text that quotes what the tool returned.
				message = { role: 'assistant', content: `Tool result: ${text(last.content)}` };
				finish = 'stop';
			} else {
				const user = [...messages].reverse().find((candidate) => candidate.role === 'user');
				const call = script(text(user?.content));
				if (call) {
					callCount++;
					message = {
						role: 'assistant',
						content: null,
						tool_calls: [
							{ id: `call_standin_${callCount}`, type: 'function', function: { name: call.tool, arguments: JSON.stringify(call.arguments) } },
						],
					};
					finish = 'tool_calls';
				} else {
					message = { role: 'assistant', content: 'Nothing to do.' };
					finish = 'stop';
				}
			}
			if (body.stream === true) stream(res, model, message, finish);
			else send(res, 200, completion(model, message, finish));
		})().catch((error: unknown) => {
			send(res, 500, { error: { message: error instanceof Error ? error.message : String(error), type: 'server_error' } });
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;

	const toolResults: OpenAiStandIn['toolResults'] = () => {
		const found = new Map<string, { toolCallId: string; tool: string; arguments: Record<string, unknown>; content: string }>();
		for (const { body } of requests) {
			const calls = new Map<string, { tool: string; arguments: Record<string, unknown> }>();
			for (const message of body.messages ?? []) {
				for (const call of message.tool_calls ?? []) {
					let args: Record<string, unknown> = {};
					try {
						args = JSON.parse(call.function.arguments) as Record<string, unknown>;
					} catch {
						// Kept empty: the arguments are the stand-in's own, always JSON.
					}
					calls.set(call.id, { tool: call.function.name, arguments: args });
				}
				if (message.role === 'tool' && message.tool_call_id && !found.has(message.tool_call_id)) {
					const call = calls.get(message.tool_call_id);
					found.set(message.tool_call_id, {
						toolCallId: message.tool_call_id,
						tool: call?.tool ?? message.name ?? '',
						arguments: call?.arguments ?? {},
						content: text(message.content),
					});
				}
			}
		}
		return [...found.values()];
	};

	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		toolResults,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
