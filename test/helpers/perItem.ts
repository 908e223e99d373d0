import type { IDataObject, INodeParameters } from 'n8n-workflow';

/**
 * Many different inputs through ONE workflow execution. A test describes each input as the
 * node's parameters, with `PerItem` marking the values that change from input to input. Inputs
 * whose parameters have the same shape are batched: the shared parameters become expressions
 * (`={{ $json.v[0] }}`) and each input becomes one item carrying its own values — exactly how a
 * workflow feeds per-item data to a node. Running 10,000 inputs this way takes seconds instead of
 * 10,000 executions.
 */

/** Stands for "the item has no such field": the expression reads a key the item lacks. */
export const MISSING: unique symbol = Symbol('missing');

/** A parameter value that differs per input; `valid` is a good value for the same place. */
export class PerItem {
	constructor(
		readonly value: unknown,
		readonly valid?: unknown,
	) {}
}

export interface Batch<C> {
	/** The node parameters, with an expression wherever a PerItem was. */
	parameters: INodeParameters;
	/** One item per case, in the order of `cases`. */
	items: IDataObject[];
	cases: C[];
}

function split(tree: unknown, values: unknown[], useValid: boolean): unknown {
	if (tree instanceof PerItem) {
		const value = useValid ? tree.valid : tree.value;
		if (value === MISSING) return '={{ $json.absent }}';
		values.push(value);
		return `={{ $json.v[${values.length - 1}] }}`;
	}
	// A literal string starting with "=" would be evaluated as an expression by n8n.
	if (typeof tree === 'string' && tree.startsWith('=')) return split(new PerItem(tree, tree), values, useValid);
	if (Array.isArray(tree)) return tree.map((entry) => split(entry, values, useValid));
	if (tree !== null && typeof tree === 'object') {
		return Object.fromEntries(Object.entries(tree).map(([key, value]) => [key, split(value, values, useValid)]));
	}
	return tree;
}

/** The parameters as expressions plus the item that feeds them. */
export function toWorkflowInput(
	tree: unknown,
	{ useValid = false }: { useValid?: boolean } = {},
): { parameters: INodeParameters; item: IDataObject } {
	const values: unknown[] = [];
	const parameters = split(tree, values, useValid) as INodeParameters;
	return { parameters, item: { v: values } as IDataObject };
}

/** Groups cases whose parameters share a shape into batches of at most `maxItems` items. */
export function batchCases<C>(cases: C[], treeOf: (testCase: C) => unknown, maxItems = 2000): Array<Batch<C>> {
	const byShape = new Map<string, Array<Batch<C>>>();
	for (const testCase of cases) {
		const { parameters, item } = toWorkflowInput(treeOf(testCase));
		const key = JSON.stringify(parameters);
		const batches = byShape.get(key) ?? [];
		let batch = batches[batches.length - 1];
		if (batch === undefined || batch.items.length >= maxItems) {
			batch = { parameters, items: [], cases: [] };
			batches.push(batch);
			byShape.set(key, batches);
		}
		batch.items.push(item);
		batch.cases.push(testCase);
	}
	return [...byShape.values()].flat();
}

/** The parameters with every PerItem replaced by its value (MISSING → undefined). */
export function resolve(tree: unknown, { useValid = false }: { useValid?: boolean } = {}): unknown {
	if (tree instanceof PerItem) {
		const value = useValid ? tree.valid : tree.value;
		return value === MISSING ? undefined : value;
	}
	if (Array.isArray(tree)) return tree.map((entry) => resolve(entry, { useValid }));
	if (tree !== null && typeof tree === 'object') {
		return Object.fromEntries(Object.entries(tree).map(([key, value]) => [key, resolve(value, { useValid })]));
	}
	return tree;
}

/** Whether every PerItem in the tree has a valid value to fall back on. */
export function hasValidFallback(tree: unknown): boolean {
	if (tree instanceof PerItem) return tree.valid !== undefined;
	if (Array.isArray(tree)) return tree.every(hasValidFallback);
	if (tree !== null && typeof tree === 'object') return Object.values(tree).every(hasValidFallback);
	return true;
}
