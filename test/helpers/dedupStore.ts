import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { DataDeduplicationService } from 'n8n-core';

/**
 * n8n's deduplication store for the in-process engine, behaving as n8n's own does on its database
 * (`processed_data`, one row per workflow and node holding every recorded value): each call reads
 * the row, works on its copy and writes the whole row back, with a database round trip (here a
 * turn of the event loop) between the read and the write and no lock. So two calls at once can
 * both see a value as new, and the later write can drop what the earlier one recorded; a first
 * insert that meets a row inserted meanwhile fails as a unique-key violation does. Values are kept
 * newest last and cut to `maxEntries` when one is given, as n8n does.
 */
class DatabaseLikeDeduplicator implements IDataDeduplicator {
	readonly stores = new Map<string, string[]>();

	/** How many reads and writes of a row have happened (a test can see that a check was made). */
	roundTrips = 0;

	/** Set by a test: the next call fails with this error, as a database that is down does. */
	failNext: Error | undefined;

	private rowName(scope: DeduplicationScope, context: ICheckProcessedContextData): string {
		return `${context.workflow.id}:${scope === 'node' ? (context.node?.id ?? context.node?.name ?? '') : ''}`;
	}

	private async read(name: string): Promise<string[] | undefined> {
		await roundTrip();
		this.roundTrips++;
		const failure = this.failNext;
		this.failNext = undefined;
		if (failure) throw failure;
		const row = this.stores.get(name);
		return row === undefined ? undefined : [...row];
	}

	private async write(name: string, row: string[], insert: boolean): Promise<void> {
		await roundTrip();
		this.roundTrips++;
		if (insert && this.stores.has(name)) throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
		this.stores.set(name, row);
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const name = this.rowName(scope, context);
		const stored = await this.read(name);
		const row = stored ?? [];
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const value = String(item);
			if (row.includes(value)) output.processed.push(item);
			else {
				row.push(value);
				output.new.push(item);
			}
		}
		if (options.maxEntries) row.splice(0, Math.max(0, row.length - options.maxEntries));
		await this.write(name, row, stored === undefined);
		return output;
	}

	async removeProcessed(items: DeduplicationItemTypes[], scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<void> {
		const name = this.rowName(scope, context);
		const row = await this.read(name);
		if (row === undefined) return;
		for (const item of items) {
			const index = row.indexOf(String(item));
			if (index !== -1) row.splice(index, 1);
		}
		await this.write(name, row, false);
	}

	async clearAllProcessedItems(scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<void> {
		this.stores.delete(this.rowName(scope, context));
	}

	async getProcessedDataCount(scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<number> {
		return this.stores.get(this.rowName(scope, context))?.length ?? 0;
	}
}

/** A database round trip: the rest of the process runs meanwhile. */
const roundTrip = async () => await new Promise<void>((resolve) => setImmediate(resolve));

export const dedupStore = new DatabaseLikeDeduplicator();

let initialised = false;

/** Installs the store into n8n-core once per test process. */
export async function useDedupStore(): Promise<DatabaseLikeDeduplicator> {
	if (!initialised) {
		initialised = true;
		await DataDeduplicationService.init(dedupStore);
	}
	return dedupStore;
}
