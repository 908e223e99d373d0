/**
 * Waiting, with a deadline, until a count of things under way (open requests, answers to links)
 * falls to zero.
 */
export class Waiters {
	private waiting: Array<() => void> = [];

	constructor(private readonly count: () => number) {}

	/** Resolves with the count once it is zero, or when `deadlineMs` has passed. */
	wait(deadlineMs: number): Promise<number> {
		if (this.count() === 0) return Promise.resolve(0);
		return new Promise<number>((resolve) => {
			const done = () => {
				clearTimeout(timer);
				resolve(this.count());
			};
			const timer = setTimeout(() => {
				this.waiting = this.waiting.filter((waiter) => waiter !== done);
				resolve(this.count());
			}, deadlineMs);
			this.waiting.push(done);
		});
	}

	/** Called after the count went down: wakes every waiter when it reached zero. */
	wake(): void {
		if (this.count() !== 0) return;
		const waiting = this.waiting;
		this.waiting = [];
		for (const waiter of waiting) waiter();
	}
}
