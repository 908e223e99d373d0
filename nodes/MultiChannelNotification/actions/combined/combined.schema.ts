import { z } from 'zod/v4';

import type { FieldLabels } from '../../schemas/common';
import { requiredText, SMS_ALLOWED_NUMBER, SMS_COUNTRY_RULE, smsPhoneNumberWith } from '../../schemas/common';
import {
	TEMPLATE_LABELS,
	templateChecks,
	templateInputShape,
	toTemplateMessage,
	withListLengths,
} from '../chatMessage/templateMessage.schema';

/**
 * Combined notification with failover (spec: "Combined notification request"): the chat part is
 * exactly a template message, the SMS part exactly an SMS request, with the same rules (actions/sms/sms.ts). One
 * parse checks both, so a send never starts with only one half valid.
 */

export const COMBINED_LABELS = {
	...TEMPLATE_LABELS,
	phoneNumber: { label: 'SMS Phone Number' },
	message: { label: 'SMS Message' },
} satisfies FieldLabels;

// SMS Phone Number copies To unless the user sets it, so a refused number names where it came from.
const FAILOVER_SMS_COUNTRY_RULE = `${SMS_COUNTRY_RULE}. It is the To number unless you set another one: put ${SMS_ALLOWED_NUMBER} in SMS Phone Number`;

export const combinedSendSchema = z
	.preprocess(
		withListLengths,
		z.object({
			...templateInputShape,
			phoneNumber: smsPhoneNumberWith(FAILOVER_SMS_COUNTRY_RULE),
			message: requiredText,
		}),
	)
	.check(templateChecks)
	.transform((input) => ({
		chat: toTemplateMessage(input),
		sms: { phone_number: input.phoneNumber, message: input.message },
	}));
