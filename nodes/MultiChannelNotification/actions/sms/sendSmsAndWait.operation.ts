import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION, updateDisplayOptions } from 'n8n-workflow';

import type { OperationOption, PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { smsOptionsField } from '../../editor/optionsField';
import { SMS_RECIPIENT_DESCRIPTION } from '../../editor/phoneText';
import { MESSAGE_ROWS, responseFields, sendAndWaitOptions } from '../../editor/responseFields';
import { OUTCOME_RULES, PHONE_RULE, SMS_ONLY, WAIT_RULES } from '../../editor/tool';
import { HUMAN_REVIEW_RESOURCE, shownFor } from '../../helpers/resource';
import { answerLink } from '../../sendAndWait/link';
import type { Channel } from '../../sendAndWait/question';
import { waitForAnswer } from '../../sendAndWait/wait';
import { prepareSms, SMS_LABELS, smsFields } from './sms';

export const option: OperationOption = { name: 'Send and Wait for Response', value: SEND_AND_WAIT_OPERATION,
	action: 'Send an SMS and wait for response',
	description: 'Send an SMS with an answer link and wait until the person approves, declines or answers' };

/** What an AI model is told about this operation as its tool. */
export const toolDescription = [
	'Asks a person by SMS and waits for the answer: the SMS carries a link to an answer page. Use it to get approval or a reply before acting.',
	`Phone number: the person ${PHONE_RULE}. ${SMS_ONLY}.`,
	'Message: the question, clear on its own (the link is added below it, and the answer page shows it too).',
	WAIT_RULES,
	OUTCOME_RULES,
].join(' ');

const [phoneNumberField, messageField] = smsFields(SMS_LABELS, SMS_RECIPIENT_DESCRIPTION);

/** In the human-review tool only, for the person building the workflow: what the reviewer gets, and what each answer does. */
const humanReviewNotice: INodeProperties = {
	displayName:
		'When the agent calls the tool connected to this node, the reviewer gets the Message above by SMS at the Phone Number below, with a link to an answer page. Approve lets the tool run; Decline tells the agent the person rejected the call.',
	name: 'humanReviewNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: [HUMAN_REVIEW_RESOURCE], operation: [SEND_AND_WAIT_OPERATION] } },
};

export const description: INodeProperties[] = [
	humanReviewNotice,
	...updateDisplayOptions({ show: { resource: shownFor('sms'), operation: [SEND_AND_WAIT_OPERATION] } }, [
		phoneNumberField,
		{ ...messageField, typeOptions: { rows: MESSAGE_ROWS }, description: 'Text of the SMS. The answer link is added on its own line below it, and the answer page shows this text too.' },
		...responseFields,
		sendAndWaitOptions(smsOptionsField),
	]),
];

/** The SMS: the message, then the answer link on its own line (checked and counted as any SMS). */
export function prepare(this: IExecuteFunctions, itemIndex: number, options: ItemOptions): PreparedSend {
	return prepareSms(this, itemIndex, options, answerLink(this));
}

/** What carries the question: an SMS. The answer's output names it (sendAndWait/question.ts). */
export const channel = 'sms' satisfies Channel;

/** Sends the message, then waits for the answer. */
export const run = waitForAnswer(channel);
