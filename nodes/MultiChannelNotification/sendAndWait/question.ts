import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

/** What carried the question: an SMS, a chat template, or a chat template with SMS failover. */
const CHANNELS = ['sms', 'chat', 'chatWithSmsFailover'] as const;
/** Each Send and Wait operation names its own (actions/<resource>/…AndWait.operation.ts). */
export type Channel = (typeof CHANNELS)[number];

/**
 * Who was asked, and by which message. Kept in the node's context when the message goes out: n8n
 * saves that context with the waiting execution (in its database, so queue-mode workers and a
 * restart keep it), and hands it back with the execution when the answer comes. The answer's item
 * then carries it beside `data`, so a workflow that asked several people can tell the answers
 * apart; `data` itself keeps the shape of n8n's own send-and-wait nodes.
 */
type Question = {
	channel: Channel;
	/** The number the node sent to, as sent (after Phone Number Format); a combined send's chat To. */
	recipient: string;
	/** A combined send's SMS number, as sent. */
	smsRecipient?: string;
	/** The service's id of the message, where its answer gives one (SMS, chat). */
	messageId?: string;
	/** The service's request id, where its answer gives one (SMS, combined). */
	requestId?: string;
	/** What the SMS sent (the question and its link) cost: the sent item's `sms` (SMS, combined). */
	sms?: IDataObject;
};

const CONTEXT_KEY = 'sendAndWaitQuestion';
/** The value in the link of the question the execution waits for (link.ts), kept beside it. */
const LINK_KEY = 'sendAndWaitLink';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined);

/** The question as the sent item shows it: the numbers the request carried, the ids the service answered. */
export function questionOf(channel: Channel, sent: IDataObject): Question | undefined {
	const answer = (sent.data ?? {}) as IDataObject;
	const recipient = text(channel === 'sms' ? sent.phoneNumber : sent.to);
	if (recipient === undefined) return undefined;
	const question: Question = { channel, recipient };
	const smsRecipient = channel === 'chatWithSmsFailover' ? text(sent.phoneNumber) : undefined;
	if (smsRecipient !== undefined) question.smsRecipient = smsRecipient;
	const messageId = text(answer.id);
	if (messageId !== undefined) question.messageId = messageId;
	const requestId = text(answer.request_id);
	if (requestId !== undefined) question.requestId = requestId;
	if (typeof sent.sms === 'object' && sent.sms !== null && !Array.isArray(sent.sms)) question.sms = sent.sms as IDataObject;
	return question;
}

/**
 * Stored as JSON text, which every n8n hands back unchanged through its expressions; the link's
 * value as text beside it, kept even when nobody can be named, and replacing an earlier one.
 */
export function rememberQuestion(context: IExecuteFunctions, question: Question | undefined, nonce?: string): void {
	if (typeof context.getContext !== 'function') return;
	const stored = context.getContext('node');
	if (question === undefined) delete stored[CONTEXT_KEY];
	else stored[CONTEXT_KEY] = JSON.stringify(question);
	if (nonce !== undefined) stored[LINK_KEY] = nonce;
}

function isQuestion(value: unknown): value is Question {
	const question = value as Partial<Question> | null;
	return (
		typeof question === 'object' &&
		question !== null &&
		CHANNELS.includes(question.channel as Channel) &&
		typeof question.recipient === 'string'
	);
}

/**
 * What the node stored under `key` (undefined when nothing is). Newer n8n gives the webhook the
 * node's context directly; older ones (2.8 among them) only through their expressions, as
 * `$("<this node>").context`. Throws when it cannot be read.
 */
function readStored(context: IWebhookFunctions, key: string): unknown {
	const direct = context as IWebhookFunctions & Partial<Pick<IExecuteFunctions, 'getContext'>>;
	if (typeof direct.getContext === 'function') return direct.getContext('node')[key];
	const name = context.getNode().name;
	// A name holding the expression brackets cannot be written into an expression.
	if (name.includes('{{') || name.includes('}}')) return undefined;
	return context.evaluateExpression(`{{ $(${JSON.stringify(name)}).context[${JSON.stringify(key)}] }}`);
}

/**
 * The stored question, or undefined when there is none (a message sent by an older version of the
 * node) or it cannot be read. Never throws: not knowing who was asked must not lose the answer.
 */
export function recallQuestion(context: IWebhookFunctions): Question | undefined {
	try {
		const stored = readStored(context, CONTEXT_KEY);
		if (typeof stored !== 'string') return undefined;
		const question: unknown = JSON.parse(stored);
		return isQuestion(question) ? question : undefined;
	} catch (error) {
		context.logger.warn(`Send and Wait: could not read who was asked, so the answer is output without it (${String(error)})`);
		return undefined;
	}
}

/**
 * The value in the link of the question the execution waits for, or undefined when none was
 * kept (a message sent by a version before the value, whose links carry none) or it cannot be
 * read, where any link of this execution and node answers, as before. Never throws.
 */
export function recallNonce(context: IWebhookFunctions): string | undefined {
	try {
		const stored = readStored(context, LINK_KEY);
		return typeof stored === 'string' && stored !== '' ? stored : undefined;
	} catch (error) {
		context.logger.warn(`Send and Wait: could not read which question is current, so any link of this execution answers (${String(error)})`);
		return undefined;
	}
}
