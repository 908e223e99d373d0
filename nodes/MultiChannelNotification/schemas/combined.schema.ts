import { z } from 'zod';

import { smsRequestSchema } from './sms.schema';
import { templateMessageSchema } from './template.schema';

/**
 * Combined notification with failover (spec: "Combined notification request"): the chat part is
 * exactly a template message, the SMS part exactly an SMS request. One parse checks both, so a
 * send never starts with only one half valid.
 */
export const combinedRequestSchema = z
	.object({
		chat: templateMessageSchema,
		sms: smsRequestSchema,
	})
	.strict();

export type CombinedRequest = z.infer<typeof combinedRequestSchema>;
