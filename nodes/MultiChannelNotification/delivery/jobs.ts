/**
 * The jobs of one execution's schedule (scheduler.ts) not yet started: fresh items, refused
 * items waiting for their retry, and those whose wait is over. Pure bookkeeping, no time of its own.
 */

export interface Job {
	index: number;
	startedAt?: number;
	attempt: number;
	notBefore: number;
	firstThrottledAt?: number;
}

/** The jobs of one execution not yet started: retries whose wait is over, fresh ones, retries still waiting. */
export class Jobs {
	/** Retries whose wait is over, in item order: they go before fresh items. */
	private readonly retries: Job[] = [];
	/** The first fresh item. */
	private next = 0;
	/** Retries still waiting, soonest first. */
	private readonly waiting: Job[] = [];

	constructor(private readonly count: number) {}

	/**
	 * Takes out, in item order, every job not yet started that cannot start before `until` and
	 * whose wait would then pass `maxWaitMs`: a retry's counted from its first refusal, a fresh
	 * job's from `heldSince`.
	 */
	heldPast(until: number, maxWaitMs: number, heldSince: number): Job[] {
		const over = (job: Job) => Math.max(job.notBefore, until) - (job.firstThrottledAt ?? heldSince) > maxWaitMs;
		const held: Job[] = [];
		for (const queue of [this.retries, this.waiting]) {
			held.push(...queue.filter(over));
			const kept = queue.filter((job) => !over(job));
			queue.splice(0, queue.length, ...kept);
		}
		if (until - heldSince > maxWaitMs) while (this.next < this.count) held.push({ index: this.next++, attempt: 0, notBefore: 0 });
		return held.sort((a, b) => a.index - b.index);
	}

	/** Jobs that may start once there is room. */
	pending(): number {
		return this.retries.length + (this.count - this.next);
	}

	/** True when no job is left to start, now or later. */
	allTaken(): boolean {
		return this.pending() === 0 && this.waiting.length === 0;
	}

	/** The job to start next: a retry whose wait is over, else the next fresh item. */
	take(): Job {
		return this.retries.shift() ?? { index: this.next++, attempt: 0, notBefore: 0 };
	}

	/** Queues a refused job again, to start no sooner than `at`. */
	retryAt(job: Job, at: number): void {
		job.attempt++;
		job.notBefore = at;
		this.waiting.push(job);
		this.waiting.sort((a, b) => a.notBefore - b.notBefore || a.index - b.index);
	}

	/** Moves the retries whose wait is over to the front, in item order. */
	releaseDue(now: number): void {
		const due = this.waiting.filter((job) => job.notBefore <= now);
		if (due.length === 0) return;
		this.waiting.splice(0, due.length);
		this.retries.push(...due);
		this.retries.sort((a, b) => a.index - b.index);
	}

	/** When the soonest waiting retry is due; undefined when none waits. */
	nextDue(): number | undefined {
		return this.waiting[0]?.notBefore;
	}
}
