import { z } from 'zod/v4';

import type { FieldLabels } from './common';
import { requiredText, smsPhoneNumber } from './common';

/**
 * SMS notification request (spec: "SMS notification request"). The input is the editor's
 * fields; the output is the body the service takes. Send with Failover reuses both fields for
 * its SMS part (combined.schema.ts).
 */

export const SMS_LABELS = {
	phoneNumber: { label: 'Phone Number' },
	message: { label: 'Message' },
} satisfies FieldLabels;

export const smsInputShape = { phoneNumber: smsPhoneNumber, message: requiredText };

export const smsSendSchema = z
	.object(smsInputShape)
	.transform(({ phoneNumber, message }) => ({ phone_number: phoneNumber, message }));
