import { z } from 'zod';

import { e164PhoneNumber, httpsUrl, requiredText } from './common';

/** Media message (spec: "Media message objects"). Only an image carries a caption. */

export const MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

const envelope = {
	from: e164PhoneNumber,
	to: e164PhoneNumber,
	recipient_type: requiredText.optional(),
};

const linkOnly = z.object({ link: httpsUrl }).strict();

export const mediaMessageSchema = z.discriminatedUnion('type', [
	z
		.object({
			...envelope,
			type: z.literal('image'),
			image: z.object({ link: httpsUrl, caption: z.string().optional() }).strict(),
		})
		.strict(),
	z.object({ ...envelope, type: z.literal('video'), video: linkOnly }).strict(),
	z.object({ ...envelope, type: z.literal('audio'), audio: linkOnly }).strict(),
	z.object({ ...envelope, type: z.literal('document'), document: linkOnly }).strict(),
]);

export type MediaMessage = z.infer<typeof mediaMessageSchema>;
