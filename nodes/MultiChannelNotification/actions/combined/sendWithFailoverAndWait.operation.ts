import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION, updateDisplayOptions } from 'n8n-workflow';

import type { OperationOption, PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { smsTemplateOptionsField } from '../../editor/optionsField';
import { LOCAL_NUMBERS_NOTE, SMS_INDONESIA_ONLY } from '../../editor/phoneText';
import { linkPlaceholderField, MESSAGE_ROWS, responseFields, sendAndWaitOptions } from '../../editor/responseFields';
import { LINK_PLACEHOLDER_RULE, OUTCOME_RULES, PHONE_RULE, WAIT_RULES } from '../../editor/tool';
import { inputError } from '../../helpers/errors';
import { parseOrThrow } from '../../helpers/validation';
import { SMS_ALLOWED_NUMBER } from '../../schemas/common';
import { answerLink, withSmsLink, withTemplateLink } from '../../sendAndWait/link';
import type { Channel } from '../../sendAndWait/question';
import { waitForAnswer } from '../../sendAndWait/wait';
import { ENDPOINTS } from '../../transport';
import { readTemplateFields, templatePreview } from '../chatMessage/sendTemplate.operation';
import { templateFields } from '../chatMessage/templateFields';
import { readSms, smsFields, withinSegmentLimit, withSmsCost } from '../sms/sms';
import { COMBINED_LABELS, combinedSendSchema } from './combined.schema';

// The SMS text is the question the answer page shows too, labelled Message as in SMS → Send and Wait.
const LABELS = { ...COMBINED_LABELS, message: { label: 'Message' } };

const [phoneNumberField, messageField] = smsFields(
	LABELS,
	`Who gets the SMS. It copies To (the expression shown) unless you change it. ${SMS_INDONESIA_ONLY}. ${LOCAL_NUMBERS_NOTE}.`,
);

export const option: OperationOption = { name: 'Send and Wait for Response', value: SEND_AND_WAIT_OPERATION,
	action: 'Send a notification with failover and wait for response',
	description: 'Send a template with SMS failover, both carrying the same answer link, and wait until the person answers' };

/** What an AI model is told about this operation as its tool. */
export const toolDescription = [
	'Asks a person in a chat template with SMS failover, both carrying a link to an answer page, and waits for the answer.',
	`Chat part: From and To ${PHONE_RULE}; an approved template; the body is always required, its parameters fill {{1}}, {{2}}, … in order. ${LINK_PLACEHOLDER_RULE}`,
	`SMS part: the number (E.164, leading +; only ${SMS_ALLOWED_NUMBER}); the message is the question (the link goes below it).`,
	WAIT_RULES,
	OUTCOME_RULES,
].join(' ');

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['combined'], operation: [SEND_AND_WAIT_OPERATION] } },
	[
		...templateFields,
		linkPlaceholderField,
		{ ...phoneNumberField, default: '={{ $parameter["to"] }}' },
		{ ...messageField, typeOptions: { rows: MESSAGE_ROWS }, description: 'Text of the SMS part. The answer link is added on its own line below it; the answer page shows this text too.' },
		...responseFields,
		sendAndWaitOptions(smsTemplateOptionsField),
	],
);

/** The same answer link in the template's body placeholder and below the SMS text. */
export function prepare(this: IExecuteFunctions, itemIndex: number, options: ItemOptions): PreparedSend {
	const link = answerLink(this);
	const sms = readSms(this, itemIndex, options);
	const candidate = Object.assign(readTemplateFields(this, itemIndex, options), {
		phoneNumber: sms.phoneNumber,
		message: withSmsLink(sms.message, link),
	});
	const problems = withTemplateLink(candidate, Number(this.getNodeParameter('linkPlaceholder', itemIndex, 1)), link);
	if (problems.length > 0) throw inputError(this.getNode(), itemIndex, problems);
	const schema = combinedSendSchema.superRefine(withinSegmentLimit(options.maxSmsSegments, (sent) => sent.sms.message));
	const body = parseOrThrow(this, schema, candidate, itemIndex, LABELS);
	const preview = templatePreview(candidate.templateContent, body.chat);
	const extras = { from: body.chat.from, to: body.chat.to, phoneNumber: body.sms.phone_number, ...(preview === undefined ? {} : { preview }) };
	return withSmsCost({ endpoint: ENDPOINTS.combined, body, extras }, body.sms.message);
}

/** What carries the question: a chat template, with the SMS if the chat fails. The answer's output names it (sendAndWait/question.ts). */
export const channel = 'chatWithSmsFailover' satisfies Channel;

/** Sends the message, then waits for the answer. */
export const run = waitForAnswer(channel);
