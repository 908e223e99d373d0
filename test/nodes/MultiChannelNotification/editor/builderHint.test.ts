/**
 * What n8n's AI workflow builder reads about the node (n8n 2.29 and newer): the node's hint (what
 * it is for, which operation when, related nodes) and a hint on each parameter it would otherwise
 * guess. n8n's lint (no-builder-hint-leakage, in `npm run lint`) checks what a hint may contain.
 */
import type { INodeProperties } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { withBuilderHints } from '../../../../nodes/MultiChannelNotification/editor/builderHint';

interface Hinted {
	builderHint?: { searchHint?: string; relatedNodes?: Array<{ nodeType: string; relationHint: string }>; propertyHint?: string };
}

/** Made inside each test, so that a mutation run sees the hints built while the test runs. */
function describeNode() {
	const { description } = new MultiChannelNotification();
	return description as typeof description & Hinted;
}

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
	const search = describeNode().builderHint?.searchHint ?? '';

	for (const words of ['Send Template', 'Send Media', 'SMS', 'Send with Failover', 'Send and Wait for Response', '+62', 'human review']) {
		expect(search).toContain(words);
	}
});

test('related nodes: the AI Agent, the If node after an answer, a Webhook trigger with Send Once Per Key', () => {
	const related = describeNode().builderHint?.relatedNodes ?? [];

	expect(related.map((entry) => entry.nodeType)).toEqual(['@n8n/n8n-nodes-langchain.agent', 'n8n-nodes-base.if', 'n8n-nodes-base.webhook']);
	for (const entry of related) expect(entry.relationHint.length).toBeGreaterThan(20);
});

test('the parameters a builder would guess carry a hint: phone numbers, template name and placeholders, Send Once Per Key', () => {
	const found = hints(describeNode().properties);

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

describe('withBuilderHints on parameters given to it', () => {
	const text = (name: string): INodeProperties => ({ displayName: name, name, type: 'string', default: '' });

	test('a hinted parameter inside a fixed collection gets its hint; the groups keep their names', () => {
		const [buttons] = withBuilderHints([
			{ displayName: 'Buttons', name: 'buttons', type: 'fixedCollection', default: {}, options: [{ displayName: 'Button', name: 'button', values: [text('to'), text('label')] }] },
		]);

		expect(hints([buttons]).get('to')).toMatch(/international/);
		expect((buttons.options as Array<{ name: string; values: INodeProperties[] }>).map((group) => [group.name, group.values.map((value) => value.name)])).toEqual([
			['button', ['to', 'label']],
		]);
	});

	test('only placeholder1, placeholder2… are template placeholders: a name that merely contains one gets no hint, and no builderHint key', () => {
		const hinted = withBuilderHints([text('linkPlaceholder1'), text('legacyplaceholder1'), text('placeholder1Label'), text('placeholder3')]);

		expect(hinted.map((property) => Object.keys(property).includes('builderHint'))).toEqual([false, false, false, true]);
		expect(hints(hinted).get('placeholder3')).toContain('{{3}}');
	});

	test('the choices of an options parameter are not parameters: one named like a hinted parameter gets no hint', () => {
		const choices = [{ name: 'to', value: 'to' }];
		const [channel] = withBuilderHints([{ displayName: 'Channel', name: 'channel', type: 'options', default: 'to', options: choices }]);

		expect(channel.options).toStrictEqual(choices);
	});

	test('a collection or fixed collection without options is returned as given', () => {
		const bare: INodeProperties[] = [
			{ displayName: 'Options', name: 'options', type: 'collection', default: {} },
			{ displayName: 'Buttons', name: 'buttons', type: 'fixedCollection', default: {} },
		];

		expect(withBuilderHints(bare)).toEqual(bare);
	});
});
