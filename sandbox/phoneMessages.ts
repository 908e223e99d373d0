/**
 * What the phone page shows, read from the recorded requests: one thread per phone number, each
 * message as its recipient would see it (a template's text with its values, header image and
 * buttons; a media message's link and caption; an SMS's text), newest first, with whether it was
 * delivered, whether a combined send failed over, and the sandbox's own answer to its link.
 * Plain data; phonePage.ts turns it into markup.
 */
import type { AnswerRecord } from './answerLinks';
import type { JsonObject } from './fieldChecks';
import { isJsonObject } from './fieldChecks';
import type { RecordedRequest } from './types';
import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH } from './validate';

export interface TemplateButton {
	kind: 'quick reply' | 'link';
	/** The payload of a quick reply, the URL value of a link button. */
	value: string;
}

export type MessagePart =
	| { kind: 'template'; name: string; text: string; header?: string; buttons: TemplateButton[] }
	| { kind: 'media'; mediaType: string; link: string; caption?: string }
	| { kind: 'sms'; text: string };

export interface PhoneMessage {
	seq: number;
	receivedAt: number;
	from?: string;
	channel: 'Chat' | 'SMS' | 'Chat + SMS failover';
	parts: MessagePart[];
	delivered: boolean;
	/** Why it was not delivered: the status and the service's message. */
	refusal?: string;
	/** A combined send's statuses, as the service answered them. */
	statuses?: { chat?: string; sms?: string };
	/** The sandbox's own answer to the message's link, when it answered it. */
	autoAnswer?: AnswerRecord;
}

export interface PhoneThread {
	number: string;
	/** Newest first. */
	messages: PhoneMessage[];
}

/** What the examples' templates say, so they read as on a phone; any other template shows its values in order. */
const TEMPLATE_TEXTS: Record<string, string> = {
	order_update: 'Hi {{1}}, your order {{2}} ({{3}}) is on its way.',
	login_code: 'Hi {{1}}, your login code is {{2}}.',
};
const NO_NUMBER = 'No valid number';

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const firstParameter = (component: JsonObject): JsonObject => {
	const [parameter] = list(component.parameters);
	return isJsonObject(parameter) ? parameter : {};
};

/** The body's text with `{{n}}` filled in, or the values numbered when the template's text is unknown. */
function renderBody(name: string, values: string[]): string {
	const known = TEMPLATE_TEXTS[name];
	if (known === undefined) return values.map((value, at) => `{{${at + 1}}} ${value}`).join('\n');
	return known.replace(/\{\{(\d+)\}\}/g, (placeholder, number: string) => values[Number(number) - 1] ?? placeholder);
}

function templatePart(message: JsonObject): MessagePart {
	const template = isJsonObject(message.template) ? message.template : {};
	const name = text(template.name);
	let values: string[] = [];
	let header: string | undefined;
	const buttons: TemplateButton[] = [];
	for (const component of list(template.components)) {
		if (!isJsonObject(component)) continue;
		const parameter = firstParameter(component);
		if (component.type === 'header') header = text(isJsonObject(parameter.image) ? parameter.image.link : undefined);
		else if (component.type === 'body') values = list(component.parameters).map((value) => text(isJsonObject(value) ? value.text : value));
		else if (component.sub_type === 'url') buttons.push({ kind: 'link', value: text(parameter.text) });
		else buttons.push({ kind: 'quick reply', value: text(parameter.payload) });
	}
	return { kind: 'template', name, text: renderBody(name, values), ...(header ? { header } : {}), buttons };
}

function chatPart(message: JsonObject): MessagePart {
	const type = text(message.type);
	if (type === 'template') return templatePart(message);
	const media = isJsonObject(message[type]) ? (message[type] as JsonObject) : {};
	return { kind: 'media', mediaType: type, link: text(media.link), ...(media.caption === undefined ? {} : { caption: text(media.caption) }) };
}

/** The message a request carried, and the numbers it went to. */
function messageOf(request: RecordedRequest): { message: PhoneMessage; numbers: string[] } | undefined {
	const body = isJsonObject(request.body) ? request.body : undefined;
	if (body === undefined) return undefined;
	const base = { seq: request.seq, receivedAt: request.receivedAt, delivered: request.delivered, ...refusalOf(request) };
	if (request.path === SMS_PATH) {
		return { message: { ...base, channel: 'SMS', parts: [{ kind: 'sms', text: text(body.message) }] }, numbers: [text(body.phone_number)] };
	}
	if (request.path === WA_MESSAGE_PATH) {
		return { message: { ...base, channel: 'Chat', from: text(body.from), parts: [chatPart(body)] }, numbers: [text(body.to)] };
	}
	if (request.path !== COMBINED_PATH) return undefined;
	const chat = isJsonObject(body.chat) ? body.chat : {};
	const sms = isJsonObject(body.sms) ? body.sms : {};
	const parts: MessagePart[] = [chatPart(chat), { kind: 'sms', text: text(sms.message) }];
	const message: PhoneMessage = { ...base, channel: 'Chat + SMS failover', from: text(chat.from), parts, statuses: statusesOf(request.response) };
	return { message, numbers: [...new Set([text(chat.to), text(sms.phone_number)])] };
}

function refusalOf(request: RecordedRequest): { refusal?: string } {
	if (request.delivered) return {};
	const reason = isJsonObject(request.response) && typeof request.response.message === 'string' ? `: ${request.response.message}` : '';
	return { refusal: request.status === 0 ? 'Not delivered (no answer)' : `Not delivered (HTTP ${request.status})${reason}` };
}

function statusesOf(response: unknown): PhoneMessage['statuses'] {
	const data = isJsonObject(response) && isJsonObject(response.data) ? response.data : {};
	const result = isJsonObject(data.result) ? data.result : {};
	const status = (channel: unknown) => (isJsonObject(channel) && typeof channel.status === 'string' ? channel.status : undefined);
	return { chat: status(result.chat), sms: status(result.sms) };
}

/** The page shows the newest requests only: a load test can leave thousands. */
export const MAX_SHOWN = 200;

/**
 * One thread per number, the most recent thread first, each thread's messages newest first, from
 * the newest MAX_SHOWN requests; `older` counts those left out.
 */
export function phoneThreads(requests: readonly RecordedRequest[], answers: readonly AnswerRecord[]): { threads: PhoneThread[]; older: number } {
	const byNumber = new Map<string, PhoneMessage[]>();
	const answerOf = new Map(answers.map((answer) => [answer.requestSeq, answer]));
	const older = Math.max(0, requests.length - MAX_SHOWN);
	for (const request of requests.slice(older)) {
		const found = messageOf(request);
		if (found === undefined) continue;
		const autoAnswer = answerOf.get(request.seq);
		const message = autoAnswer ? { ...found.message, autoAnswer } : found.message;
		for (const number of found.numbers) {
			const key = number === '' ? NO_NUMBER : number;
			byNumber.set(key, [...(byNumber.get(key) ?? []), message]);
		}
	}
	const newestFirst = (a: PhoneMessage, b: PhoneMessage) => b.receivedAt - a.receivedAt || b.seq - a.seq;
	const threads = [...byNumber.entries()]
		.map(([number, messages]) => ({ number, messages: messages.sort(newestFirst) }))
		.sort((a, b) => newestFirst(a.messages[0], b.messages[0]));
	return { threads, older };
}
