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
