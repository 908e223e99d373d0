/**
 * The person at the other end of a Send-and-Wait message. The node sends one answer link, an n8n
 * waiting-webhook URL; the sandbox finds it in a delivered message and does with it what a chat
 * app and its user do: the app fetches the link for its preview as soon as the message arrives
 * (n8n must not take that GET as an answer), the user reads, opens the page and submits its form,
 * which is a POST of `approved=true|false` or `text=...` to the very same URL.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { isE164, isJsonObject } from './fieldChecks';
import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH } from './validate';

export type PlannedAnswer = 'approve' | 'decline' | { text: string };

export interface AnswerPlan {
	/** Approve (`approved=true`), decline (`approved=false`) or answer in free text (`text=...`). */
	answer: PlannedAnswer;
	/** How long after the API answer the person submits theirs; default 0, at most 600,000. */
	delayMs?: number;
	/** Fetch the link first, as a chat app's link preview does; default true. */
	preview?: boolean;
	/** Answer only the link in a message to this recipient, from this n8n node (the id in the link's path); default every link. */
	only?: AnswerScope;
}

export interface AnswerScope {
	recipient?: string;
	nodeId?: string;
}

export interface AnswerRecord {
	/** `seq` of the delivered request whose message carried the link. */
	requestSeq: number;
	link: string;
	/** The form body posted (or to be posted), e.g. `approved=true` or `text=Yes%2C+ship+it`. */
	form: string;
	/** The link-preview GET once it was answered; absent with `preview: false`. */
	preview?: { status: number; html: boolean };
	/** The answer POST once it was answered: its status and the first 200 characters of its body. */
	answer?: { status: number; body: string };
	/** Why it stopped short, step first: a network error, the 30 s timeout, reset() or stop(). */
	error?: string;
	/** False while the preview, the delay or the answer is still under way. */
	done: boolean;
}

export const MAX_ANSWER_DELAY_MS = 600_000;
/** A message link nobody answers in 30 s is a dead n8n; the record says so instead of hanging. */
const REQUEST_TIMEOUT_MS = 30_000;
const ANSWER_BODY_CHARS = 200;
/** The node sends one waiting-webhook link per message; anything before it is prose. */
const ANSWER_LINK = /https?:\/\/\S*\/webhook-waiting\/\S+/;
/** What chat apps announce when they fetch a link for its preview; bot checks look for such names. */
const PREVIEW_USER_AGENT = 'WhatsApp/2.23 (link preview)';
/** The person's phone browser, so a bot check on the answer itself lets it through. */
const BROWSER_USER_AGENT =
	'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const HTML_PAGE = /^\s*<(!doctype\s+html|html)[\s>]/i;
const PLAN_KEYS: readonly string[] = ['answer', 'delayMs', 'preview', 'only'];
const SCOPE_KEYS: readonly string[] = ['recipient', 'nodeId'];

function checkScope(value: unknown): string | null {
	if (!isJsonObject(value)) return 'answerPlan.only: must be an object';
	for (const key of Object.keys(value)) {
		if (!SCOPE_KEYS.includes(key)) return `answerPlan.only.${key}: unknown field (allowed here: ${SCOPE_KEYS.join(', ')})`;
	}
	if (value.recipient !== undefined && !isE164(value.recipient)) return 'answerPlan.only.recipient: must be an E.164 phone number';
	if (value.nodeId !== undefined && (typeof value.nodeId !== 'string' || value.nodeId === '')) return 'answerPlan.only.nodeId: must be a non-empty string';
	return null;
}

/** Returns the problem with an answer plan, or null; shared by setAnswerPlan, the options and the control endpoint. */
export function checkAnswerPlan(value: unknown): string | null {
	if (!isJsonObject(value)) return 'answerPlan: must be an object';
	for (const key of Object.keys(value)) {
		if (!PLAN_KEYS.includes(key)) return `answerPlan.${key}: unknown field (allowed here: ${PLAN_KEYS.join(', ')})`;
	}
	const answer = value.answer;
	if (isJsonObject(answer)) {
		for (const key of Object.keys(answer)) {
			if (key !== 'text') return `answerPlan.answer.${key}: unknown field (allowed here: text)`;
		}
		if (typeof answer.text !== 'string') return 'answerPlan.answer.text: must be a string';
	} else if (answer !== 'approve' && answer !== 'decline') {
		return 'answerPlan.answer: must be "approve", "decline" or {"text": "..."}';
	}
	const delay = value.delayMs;
	if (delay !== undefined && (typeof delay !== 'number' || !(delay >= 0 && delay <= MAX_ANSWER_DELAY_MS))) {
		return `answerPlan.delayMs: must be a number from 0 to ${MAX_ANSWER_DELAY_MS}`;
	}
	if (value.preview !== undefined && typeof value.preview !== 'boolean') return 'answerPlan.preview: must be a boolean';
	return value.only === undefined ? null : checkScope(value.only);
}

/** The form body n8n's page posts for this answer. */
export function answerForm(answer: PlannedAnswer): string {
	if (typeof answer === 'object') return new URLSearchParams({ text: answer.text }).toString();
	return new URLSearchParams({ approved: String(answer === 'approve') }).toString();
}

/** Texts of a chat template message a person reads that can carry a link: its body parameters. */
function templateTexts(message: unknown): string[] {
	if (!isJsonObject(message) || message.type !== 'template' || !isJsonObject(message.template)) return [];
	const components = message.template.components;
	if (!Array.isArray(components)) return [];
	const texts: string[] = [];
	for (const component of components) {
		if (!isJsonObject(component) || component.type !== 'body' || !Array.isArray(component.parameters)) continue;
		for (const parameter of component.parameters) {
			if (isJsonObject(parameter) && typeof parameter.text === 'string') texts.push(parameter.text);
		}
	}
	return texts;
}

function smsTexts(sms: unknown): string[] {
	return isJsonObject(sms) && typeof sms.message === 'string' ? [sms.message] : [];
}

/** A link and the number of the message it came in. */
export interface FoundLink {
	link: string;
	recipient: unknown;
}

/** Each part a request to `path` delivers: its texts that can carry a link, and its recipient. */
function deliveredParts(path: string, body: unknown): Array<{ texts: string[]; recipient: unknown }> {
	if (!isJsonObject(body)) return [];
	if (path === SMS_PATH) return [{ texts: smsTexts(body), recipient: body.phone_number }];
	if (path === WA_MESSAGE_PATH) return [{ texts: templateTexts(body), recipient: body.to }];
	if (path !== COMBINED_PATH) return [];
	const chat = isJsonObject(body.chat) ? body.chat.to : undefined;
	const sms = isJsonObject(body.sms) ? body.sms.phone_number : undefined;
	return [
		{ texts: templateTexts(body.chat), recipient: chat },
		{ texts: smsTexts(body.sms), recipient: sms },
	];
}

/** The first waiting-webhook link in what a request to `path` delivers, with its message's recipient. */
export function findAnswerLinkTo(path: string, body: unknown): FoundLink | undefined {
	for (const part of deliveredParts(path, body)) {
		for (const text of part.texts) {
			const match = ANSWER_LINK.exec(text);
			if (match) return { link: match[0], recipient: part.recipient };
		}
	}
	return undefined;
}

/** The first waiting-webhook link in what a request to `path` delivers, or undefined. */
export function findAnswerLink(path: string, body: unknown): string | undefined {
	return findAnswerLinkTo(path, body)?.link;
}

/** Whether `found` is a link the plan's scope covers: n8n's link is /webhook-waiting/<execution>/<node id>. */
export function inScope(scope: AnswerScope | undefined, found: FoundLink): boolean {
	if (scope === undefined) return true;
	if (scope.recipient !== undefined && found.recipient !== scope.recipient) return false;
	if (scope.nodeId === undefined) return true;
	if (!URL.canParse(found.link)) return false;
	const path = new URL(found.link).pathname.split('/');
	return path[path.indexOf('webhook-waiting') + 2] === scope.nodeId;
}

/** Read by shape, not `instanceof Error`: fetch's errors may come from another realm (a test runner's). */
function messageOf(value: unknown): string | undefined {
	return typeof value === 'object' && value !== null && 'message' in value ? String(value.message) : undefined;
}

function errorText(error: unknown): string {
	const message = messageOf(error) ?? String(error);
	// fetch says only "fetch failed"; the cause names the refused port or the TLS problem.
	const cause = typeof error === 'object' && error !== null && 'cause' in error ? messageOf(error.cause) : undefined;
	return cause === undefined ? message : `${message} (${cause})`;
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
	return new Promise<never>((_resolve, reject) => {
		if (signal.aborted) reject(signal.reason as Error);
		else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
	});
}

/**
 * Plays `plan` on `record.link` once `answered` (the API answer was written or the client went
 * away) and fills `record` in as it goes. Never rejects: every failure ends up in `record.error`.
 * `signal` aborts it (reset, stop).
 */
export async function playAnswer(record: AnswerRecord, plan: AnswerPlan, answered: Promise<void>, signal: AbortSignal): Promise<void> {
	// Also aborted when this ends, so a delay that a failed preview left running does not hold the process.
	const own = new AbortController();
	const stopped = AbortSignal.any([signal, own.signal]);
	const requestSignal = () => AbortSignal.any([stopped, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
	let step = 'waiting for the API answer';
	try {
		await Promise.race([answered, rejectOnAbort(stopped)]);
		step = 'delay';
		const preview = async (): Promise<void> => {
			if (!(plan.preview ?? true)) return;
			step = 'preview GET';
			const response = await fetch(record.link, { headers: { 'user-agent': PREVIEW_USER_AGENT }, signal: requestSignal() });
			const text = await response.text();
			record.preview = { status: response.status, html: HTML_PAGE.test(text) };
			step = 'delay';
		};
		// The delay runs from the delivery, while the preview is fetched: the app fetches it at once, the person reads later.
		await Promise.all([preview(), sleep(plan.delayMs ?? 0, undefined, { signal: stopped })]);
		step = 'answer POST';
		// The message can arrive before n8n has put the execution to wait, and n8n then records
		// nothing: it answers 409 while the execution still runs, and fails with a 5xx on a manual
		// run it has not yet stored as waiting (its waiting webhook finds no run data). The person
		// presses again, for at most the request timeout.
		const giveUpAt = Date.now() + REQUEST_TIMEOUT_MS;
		for (;;) {
			const response = await fetch(record.link, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_USER_AGENT },
				body: record.form,
				signal: requestSignal(),
			});
			const text = await response.text();
			record.answer = { status: response.status, body: text.slice(0, ANSWER_BODY_CHARS) };
			if ((response.status !== 409 && response.status < 500) || Date.now() > giveUpAt) break;
			await sleep(250, undefined, { signal: stopped });
		}
	} catch (error) {
		// An abort by reset() or stop() is reported by its reason, not as the AbortError wrapped around it.
		record.error = `${step}: ${errorText(signal.aborted ? signal.reason : error)}`;
	} finally {
		own.abort();
		record.done = true;
	}
}
