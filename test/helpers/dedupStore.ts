import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { DataDeduplicationService } from 'n8n-core';

/**
 * n8n's deduplication store for the in-process engine. Real n8n keeps it in its database
 * (`processed_data`); here it is a map per scope and node, with the same contract: a value is
 * "new" the first time and recorded; later it is "processed" until removed.
 */
class MemoryDeduplicator implements IDataDeduplicator {
	readonly stores = new Map<string, Set<string>>();

	private store(scope: DeduplicationScope, context: ICheckProcessedContextData): Set<string> {
		const name = `${context.workflow.id}:${scope === 'node' ? (context.node?.id ?? context.node?.name ?? '') : ''}`;
		let store = this.stores.get(name);
		if (!store) this.stores.set(name, (store = new Set()));
		return store;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
	): Promise<IDeduplicationOutput> {
		const store = this.store(scope, context);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const value = String(item);
			if (store.has(value)) output.processed.push(item);
			else {
				store.add(value);
				output.new.push(item);
			}
		}
		return output;
	}

	async removeProcessed(items: DeduplicationItemTypes[], scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<void> {
		const store = this.store(scope, context);
		for (const item of items) store.delete(String(item));
	}

	async clearAllProcessedItems(scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<void> {
		this.store(scope, context).clear();
	}

	async getProcessedDataCount(scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<number> {
		return this.store(scope, context).size;
	}
}

export const dedupStore = new MemoryDeduplicator();

let initialised = false;

/** Installs the in-memory store into n8n-core once per test process. */
export async function useDedupStore(): Promise<MemoryDeduplicator> {
	if (!initialised) {
		initialised = true;
		await DataDeduplicationService.init(dedupStore);
	}
	return dedupStore;
}
