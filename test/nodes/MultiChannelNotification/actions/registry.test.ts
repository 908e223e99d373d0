import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { HUMAN_REVIEW_RESOURCE, resourceOf, shownFor } from '../../../../nodes/MultiChannelNotification/helpers/resource';
import { operationFor, operationProperties, registry, RESOURCE_NAMES } from '../../../../nodes/MultiChannelNotification/actions/registry';

describe('operation registry', () => {
	const node = new MultiChannelNotification();

	test("the node subtitle names the chosen operation as each resource's Operation field does", () => {
		const names: Record<string, string> = {};
		// The human-review tool's Operation field repeats SMS's Send and Wait.
		const offered = operationProperties.filter(({ name, displayOptions }) => name === 'operation' && !displayOptions?.show?.resource?.includes(HUMAN_REVIEW_RESOURCE));
		for (const property of offered) {
			for (const option of property.options ?? []) if ('value' in option) names[String(option.value)] = option.name;
		}
		expect(Object.keys(names)).toHaveLength(5);
		expect(node.description.subtitle).toBe(`={{ ${JSON.stringify(names)}[$parameter["operation"]] }}`);
	});

	test("the Resource field offers the registry's resources, each by the name the registry gives it, Chat Message first", () => {
		const resourceField = node.description.properties.find((property) => property.name === 'resource');
		expect(Object.keys(RESOURCE_NAMES).sort()).toEqual(Object.keys(registry).sort());
		expect(resourceField?.options).toEqual(Object.entries(RESOURCE_NAMES).map(([value, name]) => ({ name, value })));
		expect(resourceField?.default).toBe(Object.keys(RESOURCE_NAMES)[0]);
		expect(resourceField?.default).toBe('chatMessage');
	});

	test('every operation the editor offers has an implementation, and nothing else does', () => {
		const resourceField = node.description.properties.find((property) => property.name === 'resource');
		const resources = (resourceField?.options ?? []).map((option) => ('value' in option ? option.value : ''));
		const offered = node.description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.displayOptions?.show?.resource ?? [])
					.filter((resource) => resources.includes(resource as string))
					.flatMap((resource) => (property.options ?? []).map((option) => `${String(resource)}.${'value' in option ? option.value : ''}`)),
			)
			.sort();
		const implemented = Object.entries(registry)
			.flatMap(([resource, operations]) => Object.keys(operations).map((operation) => `${resource}.${operation}`))
			.sort();
		expect(offered).toEqual(implemented);
	});

	test("each operation's fields show for the resource and operation the registry files it under, and for nothing else", () => {
		// The operation files spell their resource literally (n8n's own nodes do the same); this keeps each equal to the registry's.
		for (const [resource, operations] of Object.entries(registry)) {
			for (const [operation, { option, description }] of Object.entries(operations)) {
				expect(option.value).toBe(operation);
				// Only Send and Wait also serves the human-review tool's Resource (SMS's); a field may show for that one alone.
				const resources = operation === SEND_AND_WAIT_OPERATION ? shownFor(resource) : [resource];
				for (const property of description) {
					const shownForResources = property.displayOptions?.show?.resource ?? [];
					expect(shownForResources.length).toBeGreaterThan(0);
					expect({ field: property.name, resource: shownForResources.filter((value) => !resources.includes(value as string)) }).toEqual({ field: property.name, resource: [] });
					expect({ field: property.name, operation: property.displayOptions?.show?.operation }).toEqual({ field: property.name, operation: [operation] });
				}
			}
		}
	});

	test("the human-review tool's Resource: the one n8n fixes, never offered by the Resource field, an SMS at run time", () => {
		// n8n (tool-generation/hitl-tools, 2.8 and 2.41) fixes the tool's Resource to the first value
		// of the first Operation field that offers Send and Wait.
		const first = node.description.properties.find(
			(property) => property.name === 'operation' && (property.options ?? []).some((option) => 'value' in option && option.value === 'sendAndWait'),
		);
		expect(first?.displayOptions?.show?.resource?.[0]).toBe(HUMAN_REVIEW_RESOURCE);
		const resourceField = node.description.properties.find((property) => property.name === 'resource');
		expect((resourceField?.options ?? []).map((option) => ('value' in option ? option.value : ''))).not.toContain(HUMAN_REVIEW_RESOURCE);
		expect(operationFor(resourceOf(HUMAN_REVIEW_RESOURCE), 'sendAndWait')).toBe(registry.sms.sendAndWait);
		expect(resourceOf('chatMessage')).toBe('chatMessage');
	});

	test('how an operation runs is its own: the Send and Wait operations carry the wait, every other runs the ordinary way', () => {
		const runs = Object.entries(registry).flatMap(([resource, operations]) =>
			Object.entries(operations).map(([name, operation]) => [`${resource}.${name}`, operation.option.value, 'run' in operation && typeof operation.run === 'function']),
		);
		expect(runs).toHaveLength(7);
		for (const [name, value, runsItself] of runs) expect([name, runsItself]).toEqual([name, value === SEND_AND_WAIT_OPERATION]);
	});

	test('lookups of unknown or inherited names find nothing', () => {
		expect(operationFor('sms', 'send')).toBe(registry.sms.send);
		expect(operationFor('sms', 'sendTemplate')).toBeUndefined();
		expect(operationFor('toString', 'call')).toBeUndefined();
		expect(operationFor('fax', 'send')).toBeUndefined();
		expect(operationFor('sms', 'constructor')).toBeUndefined();
	});
});
