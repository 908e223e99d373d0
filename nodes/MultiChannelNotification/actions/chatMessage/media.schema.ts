import { z } from 'zod/v4';

import type { FieldLabels } from '../../schemas/common';
import { CHAT_NUMBER_LABELS, e164PhoneNumber, httpsUrl } from '../../schemas/common';

/**
 * Media message (spec: "Media message objects"). Only an image carries a caption; the spec's
 * default `recipient_type` ("individual", the only value it documents) is always sent.
 */

export const MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;

const RECIPIENT_TYPE = 'individual';

export const MEDIA_LABELS = {
	...CHAT_NUMBER_LABELS,
	mediaType: { label: 'Media Type' },
	mediaUrl: { label: 'Media URL' },
	caption: { label: 'Caption' },
} satisfies FieldLabels;

export const mediaSendSchema = z
	.object({
		from: e164PhoneNumber,
		to: e164PhoneNumber,
		mediaType: z.enum(MEDIA_TYPES, { error: `must be one of ${MEDIA_TYPES.join(', ')}` }),
		mediaUrl: httpsUrl,
		caption: z.string().optional(),
	})
	.transform(({ from, to, mediaType, mediaUrl, caption }) => ({
		from,
		to,
		type: mediaType,
		recipient_type: RECIPIENT_TYPE,
		[mediaType]: mediaType === 'image' && caption ? { link: mediaUrl, caption } : { link: mediaUrl },
	}));
