import type { NodeHint } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import { escapeHtmlExpression } from '../helpers/html';
import { shownFor } from '../helpers/resource';

/**
 * What n8n's editor shows around a Send and Wait run: the tooltip while the execution waits, and
 * the output hint once the answer is in. Editor texts only; no credential is ever part of them.
 *
 * The editor evaluates the tooltip as an expression with the node's parameters and an
 * `$execution` of its own, but without run data or the credential (docs/send-and-wait.md, "While
 * it waits"):
 * - n8n 2.41 passes the waiting task's metadata in as `$execution.resumeUrl`; the node puts the
 *   answer link there (sendAndWait/wait.ts), so the tooltip links the answer page itself;
 * - n8n 1.123 and 2.8 pass only a URL the answer page refuses, so the tooltip says where the link
 *   is: in the message, and, when the service is the local sandbox, on the sandbox's phone page.
 *   The tooltip cannot read the credential's Base URL, so it names that page for the reader to
 *   use if their credential is the sandbox's.
 * The recipient is the field as set (an expression stays one): the number the node actually sent
 * to is in the answer's `question.recipient`.
 */

/** A parameter as written, without an expression's `=`, escaped for the tooltip's HTML. */
const raw = (name: string) =>
	escapeHtmlExpression(`String($rawParameter["${name}"] || "").replace(/^=/, "")`);
const code = (name: string) => `"<code>" + ${raw(name)} + "</code>"`;

/** The operation value as the editor's expressions compare it. */
const WAITS = `$parameter["operation"] === ${JSON.stringify(SEND_AND_WAIT_OPERATION)}`;

/*
 * The resource values are the registry's (actions/registry.ts), which editor/ may not import:
 * SMS's through shownFor, "combined" written out; editor/waitingTooltip.test.ts keeps each
 * resource's text the one its Send and Wait operation's channel calls for.
 */
/** Resource SMS, or the human-review tool's (an SMS too). */
const isSms = shownFor('sms').map((value) => `$parameter["resource"] === ${JSON.stringify(value)}`).join(' || ');

const WHERE = [
	`(${isSms} ? "by SMS to " + ${code('phoneNumber')}`,
	`: $parameter["resource"] === "combined" ? "by chat message to " + ${code('to')} + "; the service may fall back to SMS to " + ${code('phoneNumber')}`,
	`: "by chat message to " + ${code('to')})`,
].join(' ');

const SIGNED = `String($execution.resumeUrl || "").includes("signature=")`;
/** The link in an href, escaped (`&` stands between the link's query values). */
const OPEN_LINK = `" <a href=\\"" + ${escapeHtmlExpression('String($execution.resumeUrl)')} + "\\" target=\\"_blank\\">Open the answer page</a> (the link in that message)."`;
const FIND_LINK =
	'" To answer, open the link in that message. With the local sandbox as the service (npm start), the sandbox’s phone page (its address is printed by npm start) shows that message and its link."';

export const WAITING_TOOLTIP = `={{ !(${WAITS}) ? "" : "Waiting for an answer. The question went " + ${WHERE} + "." + (${SIGNED} ? ${OPEN_LINK} : ${FIND_LINK}) }}`;

/** Below the output once the answer is in: what the item holds. */
export const ANSWER_OUTPUT_HINT: NodeHint = {
	message:
		'Once the person has answered, the answer is in <code>data</code>, as n8n’s own Send and Wait nodes give it, and <code>question</code> says who was asked and by which message: <code>channel</code>, <code>recipient</code> (the number as sent), <code>messageId</code> and <code>requestId</code> where the service gave them. A wait that runs out of time passes its input items on instead.',
	type: 'info',
	location: 'outputPane',
	whenToDisplay: 'afterExecution',
	displayCondition: `={{ ${WAITS} }}`,
};
