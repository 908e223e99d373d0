import type { INodeParameters, INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';

/**
 * Checks the parameters a test gives the node against the node's own description, so a renamed or
 * removed option fails the test instead of being silently ignored by n8n. Only names are checked
 * (values are the node's business): top-level parameters shown for the resource and operation,
 * the options of a collection, and the groups and fields of a fixed collection.
 */

const PROPERTIES = new MultiChannelNotification().description.properties;

/** Shown for this resource and operation (other display conditions are left to the node). */
function shownFor(property: INodeProperties, parameters: INodeParameters): boolean {
	const show = property.displayOptions?.show ?? {};
	return ['resource', 'operation'].every((key) => {
		const allowed = show[key];
		const value = parameters[key];
		return allowed === undefined || typeof value !== 'string' || allowed.includes(value);
	});
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

function unknownInside(path: string, value: unknown, properties: INodeProperties[]): string[] {
	if (!isObject(value)) return [];
	const problems: string[] = [];
	const collections = properties.filter((property) => property.type === 'collection' || property.type === 'fixedCollection');
	for (const [name, inner] of Object.entries(value)) {
		const children = collections.flatMap((property) => (property.options ?? []) as Array<INodeProperties | INodePropertyCollection>);
		const child = children.filter((option) => option.name === name);
		if (child.length === 0) {
			const known = [...new Set(children.map((option) => option.name))].sort().join(', ');
			problems.push(`${path}.${name} (known here: ${known})`);
			continue;
		}
		for (const option of child) {
			// A fixed collection's group holds its fields in `values`, one entry or a list of them.
			if ('values' in option) {
				for (const entry of Array.isArray(inner) ? inner : [inner]) {
					if (!isObject(entry)) continue;
					for (const field of Object.keys(entry)) {
						if (!option.values.some((candidate) => candidate.name === field)) {
							problems.push(`${path}.${name}.${field} (known here: ${option.values.map((v) => v.name).join(', ')})`);
						}
					}
				}
			}
		}
	}
	return problems;
}

/** The parameter names the node's description does not have, as `options.rateLimitRetries (known here: …)`. */
export function unknownParameters(parameters: INodeParameters): string[] {
	const problems: string[] = [];
	for (const [name, value] of Object.entries(parameters)) {
		const declared = PROPERTIES.filter((property) => property.name === name && shownFor(property, parameters));
		if (declared.length === 0) {
			problems.push(`${name} (not a parameter of ${String(parameters.resource)} → ${String(parameters.operation)})`);
			continue;
		}
		problems.push(...unknownInside(name, value, declared));
	}
	return problems;
}

/** Throws when a parameter or option name is not in the node's description. */
export function checkParameters(parameters: INodeParameters): void {
	const problems = unknownParameters(parameters);
	if (problems.length > 0) {
		throw new Error(`Unknown node parameter${problems.length > 1 ? 's' : ''}: ${problems.join('; ')}`);
	}
}
