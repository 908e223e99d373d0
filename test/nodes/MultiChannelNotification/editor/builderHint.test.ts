/**
 * What n8n's AI workflow builder reads about the node (n8n 2.29 and newer): the node's hint (what
 * it is for, which operation when, related nodes) and a hint on each parameter it would otherwise
 * guess. n8n's lint (no-builder-hint-leakage, in `npm run lint`) checks what a hint may contain.
 */
import type { INodeProperties } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';

interface Hinted {
	builderHint?: { searchHint?: string; relatedNodes?: Array<{ nodeType: string; relationHint: string }>; propertyHint?: string };
}

const { description } = new MultiChannelNotification();
const node = description as typeof description & Hinted;

/** Every parameter, nested ones included, with its builder hint. */
function hints(properties: INodeProperties[], found = new Map<string, string>()): Map<string, string> {
	for (const property of properties as Array<INodeProperties & Hinted>) {
		if (property.builderHint?.propertyHint !== undefined) found.set(property.name, property.builderHint.propertyHint);
		for (const option of (property.options ?? []) as Array<INodeProperties & { values?: INodeProperties[] }>) {
			if (property.type === 'collection') hints([option], found);
			if (property.type === 'fixedCollection') hints(option.values ?? [], found);
		}
	}
	return found;
}

test('the node: when to pick it and which operation, for every resource and Send and Wait', () => {
	const search = node.builderHint?.searchHint ?? '';

	for (const words of ['Send Template', 'Send Media', 'SMS', 'Send with Failover', 'Send and Wait for Response', '+62', 'human review']) {
		expect(search).toContain(words);
	}
});

test('related nodes: the AI Agent, the If node after an answer, a Webhook trigger with Send Once Per Key', () => {
	const related = node.builderHint?.relatedNodes ?? [];

	expect(related.map((entry) => entry.nodeType)).toEqual(['@n8n/n8n-nodes-langchain.agent', 'n8n-nodes-base.if', 'n8n-nodes-base.webhook']);
	for (const entry of related) expect(entry.relationHint.length).toBeGreaterThan(20);
});

test('the parameters a builder would guess carry a hint: phone numbers, template name and placeholders, Send Once Per Key', () => {
	const found = hints(description.properties);

	expect(found.get('phoneNumber')).toMatch(/\+62/);
	expect(found.get('to')).toMatch(/international/);
	expect(found.get('from')).toMatch(/sender/);
	expect(found.get('templateName')).toMatch(/approved/);
	expect(found.get('templateContent')).toMatch(/\{\{1\}\}/);
	expect(found.get('bodyParameters')).toMatch(/\{\{1\}\}/);
	expect(found.get('placeholder1')).toContain('{{1}}');
	expect(found.get('placeholder20')).toContain('{{20}}');
	expect(found.get('dedupeKey')).toMatch(/event/);
	expect(found.get('mediaUrl')).toMatch(/https/);
});
