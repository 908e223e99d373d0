import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION, updateDisplayOptions } from 'n8n-workflow';

import type { OperationOption, PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { templateOptionsField } from '../../editor/optionsField';
import { linkPlaceholderField, pageMessageField, responseFields, sendAndWaitOptions } from '../../editor/responseFields';
import { LINK_PLACEHOLDER_RULE, OUTCOME_RULES, PHONE_RULE, WAIT_RULES } from '../../editor/tool';
import { inputError } from '../../helpers/errors';
import { answerLink, withTemplateLink } from '../../sendAndWait/link';
import type { Channel } from '../../sendAndWait/question';
import { waitForAnswer } from '../../sendAndWait/wait';
import { readTemplateFields, templateRequest } from './sendTemplate.operation';
import { templateFields } from './templateFields';

export const option: OperationOption = { name: 'Send and Wait for Response', value: SEND_AND_WAIT_OPERATION,
	action: 'Send a template message and wait for response',
	description: 'Send an approved template whose body carries an answer link, and wait until the person answers' };

/** What an AI model is told about this operation as its tool. */
export const toolDescription = [
	'Asks a person in an approved chat template message and waits for the answer: the message carries a link to an answer page.',
	`From (business sender) and To (recipient): phone numbers ${PHONE_RULE}.`,
	'Template name, language code and body parameters {{1}}, {{2}}, … in order as for any template; the body is always required.',
	LINK_PLACEHOLDER_RULE,
	WAIT_RULES,
	OUTCOME_RULES,
].join(' ');

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['chatMessage'], operation: [SEND_AND_WAIT_OPERATION] } },
	[...templateFields, linkPlaceholderField, pageMessageField, ...responseFields, sendAndWaitOptions(templateOptionsField)],
);

/** A template send whose body placeholder {{Link Goes Into}} carries the answer link. */
export function prepare(this: IExecuteFunctions, itemIndex: number, options: ItemOptions): PreparedSend {
	const candidate = readTemplateFields(this, itemIndex, options);
	const problems = withTemplateLink(candidate, Number(this.getNodeParameter('linkPlaceholder', itemIndex, 1)), answerLink(this));
	// The editor refuses an empty Message, not an expression that comes out empty: the page would ask nothing.
	if (String(this.getNodeParameter('message', itemIndex, '') ?? '').trim() === '') {
		problems.push({ field: 'Message', path: ['message'], rule: 'is required: the answer page shows it above the choices' });
	}
	if (problems.length > 0) throw inputError(this.getNode(), itemIndex, problems);
	return templateRequest(this, candidate, itemIndex);
}

/** What carries the question: a chat template. The answer's output names it (sendAndWait/question.ts). */
export const channel = 'chat' satisfies Channel;

/** Sends the message, then waits for the answer. */
export const run = waitForAnswer(channel);
