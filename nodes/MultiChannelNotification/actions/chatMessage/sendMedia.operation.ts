import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readText } from '../../helpers/parameters';
import { normalizePhoneNumber } from '../../helpers/phoneNumber';
import type { IssuePath } from '../../helpers/validation';
import { parseOrThrow } from '../../helpers/validation';
import type { MediaType } from '../../schemas';
import { mediaMessageSchema } from '../../schemas';
import { ENDPOINTS } from '../../transport';
import type { PreparedSend } from '../node.type';
import { optionsField, readPhoneNumberFormat } from '../shared/options';
import { LABELS as TEMPLATE_LABELS, recipientField, senderField } from '../shared/template';

const LABELS = {
	mediaType: 'Media Type',
	mediaUrl: 'Media URL',
	caption: 'Caption',
	recipientType: 'Recipient Type',
} as const;

const fields: INodeProperties[] = [
	senderField,
	recipientField,
	{
		displayName: LABELS.mediaType,
		name: 'mediaType',
		type: 'options',
		options: [
			{ name: 'Image', value: 'image' },
			{ name: 'Video', value: 'video' },
			{ name: 'Audio', value: 'audio' },
			{ name: 'Document', value: 'document' },
		],
		default: 'image',
		description: 'Kind of media to send',
	},
	{
		displayName: LABELS.mediaUrl,
		name: 'mediaUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/files/invoice.pdf',
		description: 'Public https link to the file',
	},
	{
		displayName: LABELS.caption,
		name: 'caption',
		type: 'string',
		default: '',
		displayOptions: { show: { mediaType: ['image'] } },
		description: 'Text shown with the image (only images carry a caption)',
	},
	{
		displayName: LABELS.recipientType,
		name: 'recipientType',
		type: 'options',
		options: [{ name: 'Individual', value: 'individual' }],
		default: 'individual',
		description: 'Kind of recipient; the service documents "individual"',
	},
	{
		displayName:
			'Media can only be delivered to a user who has already started a chat with your business number. Use a template message to reach anyone else.',
		name: 'mediaNotice',
		type: 'notice',
		default: '',
	},
	optionsField,
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['chatMessage'], operation: ['sendMedia'] } },
	fields,
);

function label(path: IssuePath): string {
	const [first, second] = path;
	if (first === 'from') return TEMPLATE_LABELS.from;
	if (first === 'to') return TEMPLATE_LABELS.to;
	if (first === 'type') return LABELS.mediaType;
	if (first === 'recipient_type') return LABELS.recipientType;
	if (second === 'caption') return LABELS.caption;
	if (second === 'link') return LABELS.mediaUrl;
	return 'Media message';
}

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedSend {
	const phoneNumberFormat = readPhoneNumberFormat(this, itemIndex);
	const mediaType = this.getNodeParameter('mediaType', itemIndex) as MediaType;
	const caption = mediaType === 'image' ? readText(this, 'caption', itemIndex) : '';
	const recipientType = readText(this, 'recipientType', itemIndex, { trim: true });
	const candidate = {
		from: normalizePhoneNumber(readText(this, 'from', itemIndex, { trim: true }), phoneNumberFormat),
		to: normalizePhoneNumber(readText(this, 'to', itemIndex, { trim: true }), phoneNumberFormat),
		type: mediaType,
		...(recipientType === '' ? {} : { recipient_type: recipientType }),
		[mediaType]: {
			link: readText(this, 'mediaUrl', itemIndex, { trim: true }),
			...(caption === '' || caption === null || caption === undefined ? {} : { caption }),
		},
	};
	const body = parseOrThrow(this.getNode(), mediaMessageSchema, candidate, itemIndex, label);
	return {
		endpoint: ENDPOINTS.chatMessage,
		body,
		extras: { from: body.from, to: body.to },
	};
}
