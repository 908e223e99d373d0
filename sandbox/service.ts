/**
 * The service's own answer to an API request that no fault or rate limit pre-empted: the key,
 * the content type, the JSON body, the spec's request checks (validate.ts), the conversation rule,
 * then the success answer of each endpoint with fresh ids.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { isJsonObject } from './fieldChecks';
import type { BodyResult, Outcome } from './http';
import { MAX_BODY_BYTES, jsonOutcome, parseJson } from './http';
import { MEDIA_TYPES, SMS_PATH, WA_MESSAGE_PATH, validateRequest } from './validate';

/** What the service needs of the sandbox's state. */
export interface ServiceState {
	apiKey: string;
	/** Numbers that have started a chat, so media messages to them are accepted. */
	startedChats: ReadonlySet<string>;
	/** A new SMS request id, unique for the life of the sandbox. */
	nextSmsRequestId(): number;
}

/** The answer, and the id of what was delivered when it is a success. */
export interface ServiceAnswer {
	outcome: Outcome;
	id?: string;
}

const UNAUTHORIZED_MESSAGE = 'Unauthorized: invalid API key';
const JSON_CONTENT_TYPE = /^application\/json\s*(;.*)?$/i;

/** Checks in the order of the brief: method, key, content type, size, JSON, the spec's rules. */
export function serviceOutcome(req: IncomingMessage, path: string, body: BodyResult, state: ServiceState): ServiceAnswer {
	const checked = checkRequest(req, path, body, state.apiKey);
	if ('rejected' in checked) return { outcome: checked.rejected };
	return acceptRequest(path, checked.request, state);
}

function checkRequest(
	req: IncomingMessage,
	path: string,
	body: BodyResult,
	apiKey: string,
): { rejected: Outcome } | { request: Record<string, unknown> } {
	const reject = (status: number, message: string) => ({ rejected: jsonOutcome(status, { message }) });
	if (req.method !== 'POST') return reject(405, `Method ${req.method ?? ''} not allowed on ${path}; use POST`);
	// The received value is never echoed: it may be a real key sent to the wrong place.
	if (req.headers.authorization !== apiKey) return reject(401, UNAUTHORIZED_MESSAGE);
	if (!JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) return reject(415, 'Content-Type must be application/json');
	if (body.tooLarge) return reject(413, `body: larger than ${MAX_BODY_BYTES} bytes`);
	if (body.text.length === 0) return reject(400, 'body: is empty; a JSON object is required');
	const parsed = parseJson(body.text);
	if (!parsed.ok) return reject(400, 'body: is not valid JSON');
	if (!isJsonObject(parsed.value)) return reject(400, 'body: must be a JSON object');
	const error = validateRequest(path, parsed.value);
	if (error) return reject(400, error);
	return { request: parsed.value };
}

/** The answer to a valid request: delivered, except media to a number that has not started the chat. */
function acceptRequest(path: string, request: Record<string, unknown>, state: ServiceState): ServiceAnswer {
	if (path === WA_MESSAGE_PATH) {
		const to = request.to as string;
		// Spec, endpoint 1, rule 1: media only to a user who has started the chat.
		if (MEDIA_TYPES.includes(request.type as string) && !state.startedChats.has(to)) {
			return {
				outcome: jsonOutcome(403, {
					message: `Media messages can only be sent to a user who has started the chat (${to})`,
				}),
			};
		}
		const id = `wamid.${randomBytes(12).toString('hex')}`;
		return { outcome: jsonOutcome(200, { message: 'success', data: { id } }), id };
	}
	if (path === SMS_PATH) {
		const id = randomUUID();
		const data = { id, request_id: state.nextSmsRequestId(), full_content: request.message };
		return { outcome: jsonOutcome(200, { message: 'success', data }), id };
	}
	const id = randomUUID();
	const data = { request_id: id, result: { sms: { status: 'failover' }, chat: { status: 'requested' } } };
	return { outcome: jsonOutcome(200, { message: 'success', data }), id };
}
