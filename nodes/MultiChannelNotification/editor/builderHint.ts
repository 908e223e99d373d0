import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

/**
 * What n8n's AI workflow builder (n8n 2.29 and newer) reads about the node: when to pick it and
 * which operation, the nodes it works with, and a hint on each parameter it would otherwise
 * guess. Older n8n ignores these fields; the n8n-workflow this package builds against has no type
 * for them, so their shape (n8n-workflow 2.41's `IBuilderHint`, `IParameterBuilderHint`) is
 * declared here. n8n's lint rule no-builder-hint-leakage checks what a hint may contain.
 */
export interface BuilderHint {
	searchHint: string;
	relatedNodes: Array<{ nodeType: string; relationHint: string }>;
}

interface ParameterBuilderHint {
	propertyHint: string;
}

/** The node's hint, held under a `builderHint` key so that n8n's lint rule reads its texts. */
export const NODE_HINT: { builderHint: BuilderHint } = { builderHint: {
	searchHint: [
		'Sends notifications through the Multi-Channel Notification Service, one per input item.',
		'Chat Message → Send Template: an approved chat template by its name and language, its body placeholder values {{1}}, {{2}}… in order, an optional header image and buttons.',
		'Chat Message → Send Media: an image, video, audio or document by its https link, only to a person who wrote to the business first.',
		'SMS → Send: a text to an Indonesian mobile number (+62 only).',
		'Combined Notification → Send with Failover: a chat template, and the SMS if the chat fails.',
		'Send and Wait for Response (each resource): the message carries a link to an answer page and the workflow waits until the person approves, declines, writes an answer or fills in a form; it is also the human review step of an AI Agent tool.',
	].join(' '),
	relatedNodes: [
		{ nodeType: '@n8n/n8n-nodes-langchain.agent', relationHint: 'The agent can use this node as a tool to notify people, or as the human review step before another tool runs' },
		{ nodeType: 'n8n-nodes-base.if', relationHint: 'After Send and Wait for Response, branch on the answer: data.approved is true or false' },
		{ nodeType: 'n8n-nodes-base.webhook', relationHint: 'One notification per incoming event: set Options → Send Once Per Key to the event id, so an event delivered twice is sent once' },
	],
} };

/** Read into the hints below (under their `builderHint` keys, where the lint rule reads them). */
const PHONE = 'A full international number: + and the country code, no spaces, e.g. +6281234567890.';

const hint = (propertyHint: string) => ({ propertyHint });

/** By parameter name, each under a `builderHint` key so that n8n's lint rule reads its texts. */
const PARAMETER_HINTS: Record<string, { builderHint: ParameterBuilderHint }> = {
	phoneNumber: { builderHint: hint(`${PHONE} SMS goes only to Indonesian numbers (+62).`) },
	to: { builderHint: hint(`The person's number. ${PHONE}`) },
	from: { builderHint: hint(`The business sender number registered at the service. ${PHONE}`) },
	templateName: { builderHint: hint('The name of a template approved at the service, exactly as registered; not the message text.') },
	templateContent: {
		builderHint: hint(
			'Optional: the approved template text with its placeholders {{1}}, {{2}}…, to fill each placeholder in its own field and preview the message; the service sends its own copy of the template.',
		),
	},
	bodyParameters: { builderHint: hint('The values of the body placeholders in order: the first for {{1}}, the second for {{2}}, and so on.') },
	dedupeKey: {
		builderHint: hint(
			'A value unique to the event the message is about (an order id, a webhook event id), usually an expression. An item whose key this node has already sent is skipped, not sent again.',
		),
	},
	mediaUrl: { builderHint: hint('A public https link to the file itself (not a web page showing it).') },
};

/** The template's {{1}}, {{2}}… inputs (placeholder1, placeholder2, …). */
const placeholderHint = (position: string) => ({ builderHint: hint(`The value for {{${position}}} in the template body.`) });

function hintFor(name: string): ParameterBuilderHint | undefined {
	const placeholder = /^placeholder(\d+)$/.exec(name);
	if (placeholder !== null) return placeholderHint(placeholder[1]).builderHint;
	return PARAMETER_HINTS[name]?.builderHint;
}

/** The parameters with their builder hints, nested ones (Options, fixed collections) included. */
export function withBuilderHints(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		const hinted: INodeProperties & { builderHint?: ParameterBuilderHint } = { ...property };
		const hint = hintFor(property.name);
		if (hint !== undefined) hinted.builderHint = hint;
		if (property.type === 'collection' && property.options !== undefined) {
			hinted.options = withBuilderHints(property.options as INodeProperties[]);
		}
		if (property.type === 'fixedCollection' && property.options !== undefined) {
			hinted.options = (property.options as INodePropertyCollection[]).map((group) => ({ ...group, values: withBuilderHints(group.values) }));
		}
		return hinted;
	});
}
