import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { operationFor, operationProperties, registry } from '../../../../nodes/MultiChannelNotification/actions/registry';

describe('operation registry', () => {
	const node = new MultiChannelNotification();

	test("the node subtitle names the chosen operation as each resource's Operation field does", () => {
		const names: Record<string, string> = {};
		for (const property of operationProperties.filter(({ name }) => name === 'operation')) {
			for (const option of property.options ?? []) if ('value' in option) names[String(option.value)] = option.name;
		}
		expect(Object.keys(names)).toHaveLength(5);
		expect(node.description.subtitle).toBe(`={{ ${JSON.stringify(names)}[$parameter["operation"]] }}`);
	});

	test('every operation the editor offers has an implementation, and nothing else does', () => {
		const offered = node.description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options ?? []).map((option) => `${property.displayOptions?.show?.resource?.[0]}.${'value' in option ? option.value : ''}`),
			)
			.sort();
		const implemented = Object.entries(registry)
			.flatMap(([resource, operations]) => Object.keys(operations).map((operation) => `${resource}.${operation}`))
			.sort();
		expect(offered).toEqual(implemented);
	});

	test('lookups of unknown or inherited names find nothing', () => {
		expect(operationFor('sms', 'send')).toBe(registry.sms.send);
		expect(operationFor('sms', 'sendTemplate')).toBeUndefined();
		expect(operationFor('toString', 'call')).toBeUndefined();
		expect(operationFor('sms', 'constructor')).toBeUndefined();
	});
});
