/**
 * The jobs of one execution's schedule not yet started (delivery/jobs.ts): which one starts next
 * and when a refused one is due again.
 */
import { Jobs } from '../../../../nodes/MultiChannelNotification/delivery/jobs';

describe('Jobs', () => {
	test('a retry queued later but due sooner is due first, and each retry starts once, at its own time', () => {
		const jobs = new Jobs(3);
		const first = jobs.take();
		const second = jobs.take();
		jobs.retryAt(first, 5000);
		jobs.retryAt(second, 1000);

		expect(jobs.nextDue()).toBe(1000);
		jobs.releaseDue(1000);
		expect(jobs.take().index).toBe(1);
		expect(jobs.nextDue()).toBe(5000);
		jobs.releaseDue(5000);
		expect(jobs.take().index).toBe(0);
		expect(jobs.take().index).toBe(2);
		expect(jobs.allTaken()).toBe(true);
	});

	test('retries whose wait is over start in item order, whichever came due first, and before fresh items', () => {
		const jobs = new Jobs(4);
		const [zero, one, two] = [jobs.take(), jobs.take(), jobs.take()];
		jobs.retryAt(two, 1000);
		jobs.retryAt(zero, 2000);
		jobs.retryAt(one, 3000);
		jobs.releaseDue(1000);
		jobs.releaseDue(3000);

		expect([jobs.take(), jobs.take(), jobs.take(), jobs.take()].map((job) => job.index)).toEqual([0, 1, 2, 3]);
	});
});

describe('Jobs.heldPast', () => {
	test('a fresh job whose wait would come to exactly the longest wait is not taken out; one that would pass it is', () => {
		const jobs = new Jobs(2);
		expect(jobs.heldPast(1000, 1000, 0)).toEqual([]);
		expect(jobs.heldPast(1001, 1000, 0).map((job) => job.index)).toEqual([0, 1]);
		expect(jobs.allTaken()).toBe(true);
	});

	test('jobs taken out come in item order, whether waiting retries, due retries or fresh items', () => {
		const jobs = new Jobs(5);
		const [zero, one, two, three] = [jobs.take(), jobs.take(), jobs.take(), jobs.take()];
		jobs.retryAt(three, 100);
		jobs.releaseDue(100);
		jobs.retryAt(two, 5000);
		jobs.retryAt(one, 6000);
		jobs.retryAt(zero, 7000);

		expect(jobs.heldPast(8000, 1000, 0).map((job) => job.index)).toEqual([0, 1, 2, 3, 4]);
	});
});
