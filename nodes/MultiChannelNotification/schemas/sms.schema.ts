import { z } from 'zod';

import { requiredText, smsPhoneNumber } from './common';

/** SMS notification request (spec: "SMS notification request"); also the `sms` part of a combined send. */
export const smsRequestSchema = z
	.object({
		phone_number: smsPhoneNumber,
		message: requiredText,
	})
	.strict();

export type SmsRequest = z.infer<typeof smsRequestSchema>;
