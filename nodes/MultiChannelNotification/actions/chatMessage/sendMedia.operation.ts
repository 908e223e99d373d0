import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationOption, PreparedSend } from '../../delivery/operation';
import type { ItemOptions } from '../../delivery/options';
import { optionsField } from '../../editor/optionsField';
import { OUTCOME_RULES, PHONE_RULE } from '../../editor/tool';
import { readText } from '../../helpers/parameters';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';
import { parseOrThrow } from '../../helpers/validation';
import { ENDPOINTS } from '../../transport';
import { MEDIA_LABELS as LABELS, MEDIA_TYPES, mediaSendSchema } from './media.schema';
import { recipientField, senderField } from './templateFields';

const MEDIA_URL_EXAMPLES: Record<(typeof MEDIA_TYPES)[number], string> = {
	image: 'https://example.com/images/photo.jpg',
	video: 'https://example.com/videos/clip.mp4',
	audio: 'https://example.com/audio/message.mp3',
	document: 'https://example.com/files/invoice.pdf',
};

const mediaFields: INodeProperties[] = [
	{
		displayName: LABELS.mediaType.label,
		name: 'mediaType',
		type: 'options',
		options: MEDIA_TYPES.map((type) => ({ name: `${type[0].toUpperCase()}${type.slice(1)}`, value: type })),
		default: 'image',
		description: 'Kind of file to send',
	},
	// One Media URL per type, so the example link fits the kind of file chosen.
	...MEDIA_TYPES.map(
		(type): INodeProperties => ({
			displayName: LABELS.mediaUrl.label,
			name: 'mediaUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: MEDIA_URL_EXAMPLES[type],
			displayOptions: { show: { mediaType: [type] } },
			description: `Public https link to the ${type === 'document' ? 'document' : `${type} file`}`,
		}),
	),
	{
		displayName: LABELS.caption.label,
		name: 'caption',
		type: 'string',
		default: '',
		displayOptions: { show: { mediaType: ['image'] } },
		description: 'Text shown with the image (only images carry a caption)',
	},
	{
		displayName:
			'Media can only be delivered to a user who has already started a chat with your business number. Use a template message to reach anyone else.',
		name: 'mediaNotice',
		type: 'notice',
		default: '',
	},
];

export const option: OperationOption = { name: 'Send Media', value: 'sendMedia', action: 'Send a media message',
	description: 'Send an image, video, audio or document to a user who has started the chat' };

/** What an AI model is told about this operation as its tool. */
export const toolDescription = [
	'Sends one image, video, audio file or document in the chat channel.',
	'Delivered only to a user who has already started a chat with the business number; for anyone else send a template message instead.',
	`From (business sender) and To (recipient): phone numbers ${PHONE_RULE}.`,
	'Media URL: a public https link (http is refused). Only an image can carry a caption.',
	OUTCOME_RULES,
].join(' ');

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['chatMessage'], operation: ['sendMedia'] } },
	[senderField, recipientField, ...mediaFields, optionsField],
);

/** Output: the service's answer plus `from` and `to` as sent. */
export function prepare(this: IExecuteFunctions, itemIndex: number, options: ItemOptions): PreparedSend {
	const mediaType = this.getNodeParameter('mediaType', itemIndex, undefined);
	const caption = mediaType === 'image' ? readText(this, 'caption', itemIndex) : '';
	const candidate = {
		from: normalizePhoneNumber(readText(this, 'from', itemIndex, { trim: true }), options.phoneNumberFormat),
		to: normalizePhoneNumber(readText(this, 'to', itemIndex, { trim: true }), options.phoneNumberFormat),
		mediaType,
		mediaUrl: readText(this, 'mediaUrl', itemIndex, { trim: true }),
		...(caption === '' || caption === null || caption === undefined ? {} : { caption }),
	};
	const body = parseOrThrow(this, mediaSendSchema, candidate, itemIndex, LABELS);
	return { endpoint: ENDPOINTS.chatMessage, body, extras: { from: body.from, to: body.to } };
}
