/**
 * Pacing through n8n's engine against the sandbox's rate limit (a fixed window admitting N
 * requests a second, HTTP 429 beyond it): the node at its defaults must deliver every item once,
 * fail none and send none twice, whatever the 429 says about when to come back and when the limit
 * changes mid-run. Counts and completeness are asserted, never durations: how fast a run goes is
 * the machine's as much as the node's, and BENCHMARKS.md measures it. The limit starts used up
 * (`spentAtStart`), so the first request is refused at any speed: a busy machine that never
 * reaches the limit's rate still meets its 429s.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { RetryAfterStyle } from '../../../../sandbox/server';
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

const ITEMS = 200;
const PER_SECOND = 50;

const bulkSms = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'sms',
	operation: 'send',
	phoneNumber: '={{ $json.phone }}',
	message: '={{ "pacing " + $json.n }}',
	options,
});

const items = (count: number) =>
	Array.from({ length: count }, (_, n) => ({ n, phone: `+62813${String(n).padStart(8, '0')}` }));

async function runRateLimited(options: INodeParameters = {}) {
	return await runNode({ parameters: bulkSms(options), items: items(ITEMS), credentials: credentialsFor(sandbox()) });
}

/** Every item delivered exactly once, nothing failed, every extra request a 429 the limit sent. */
function expectLossless({ output, error }: Awaited<ReturnType<typeof runRateLimited>>): void {
	expect(error).toBeUndefined();
	expect(output).toHaveLength(ITEMS);
	expect(output?.filter((item) => item.json.message !== 'success')).toEqual([]);
	expect(output?.map((item) => item.pairedItem)).toEqual(items(ITEMS).map((_, item) => ({ item })));
	const stats = sandbox().stats();
	expect(stats.delivered).toBe(ITEMS);
	expect(stats.duplicateBodies).toBe(0);
	expect(stats.rateLimited).toBeGreaterThan(0);
	expect(stats.received).toBe(ITEMS + stats.rateLimited);
	expect(stats.byStatus).toEqual({ '200': ITEMS, '429': stats.rateLimited });
	const phones = new Set(sandbox().deliveries().map((request) => (request.body as { phone_number: string }).phone_number));
	expect(phones).toEqual(new Set(items(ITEMS).map((item) => item.phone)));
	// Each output item carries its own delivery.
	for (const item of output ?? []) {
		const request = sandbox().requests.find((candidate) => candidate.id === (item.json.data as { id: string }).id);
		expect((request?.body as { phone_number: string }).phone_number).toBe(item.json.phoneNumber);
	}
}

describe(`defaults against a service admitting ${PER_SECOND} requests a second (${ITEMS} items)`, () => {
	test.each<RetryAfterStyle>(['seconds', 'date', 'none'])(
		'429 with Retry-After %s: every item delivered once, none failed',
		async (retryAfter) => {
			sandbox().setRateLimit({ perSecond: PER_SECOND, retryAfter, spentAtStart: true });
			const run = await runRateLimited();

			expectLossless(run);
		},
		60_000,
	);

	test(
		`the limit changes mid-run (${PER_SECOND} → ${PER_SECOND / 2} → ${PER_SECOND} a second): every item delivered once, none failed`,
		async () => {
			const limit = { retryAfter: 'seconds', spentAtStart: true } as const;
			sandbox().setRateLimit({ ...limit, perSecond: PER_SECOND });
			// The limit follows the run's progress, not the clock: halved once 40 requests are let
			// through, restored at 120. The 80 between are admitted at most 25 to a clock second, so
			// they span at least four windows, two of them wholly between the changes, whatever the
			// machine's speed. Each change is timed by the last arrival before it.
			let halvedAt = Infinity;
			let restoredAt = Infinity;
			const lastArrival = () => sandbox().requests[sandbox().requests.length - 1].receivedAt;
			sandbox().onAdmitted(40, () => {
				halvedAt = lastArrival();
				sandbox().setRateLimit({ ...limit, perSecond: PER_SECOND / 2 });
			});
			sandbox().onAdmitted(120, () => {
				restoredAt = lastArrival();
				sandbox().setRateLimit({ ...limit, perSecond: PER_SECOND });
			});
			const run = await runRateLimited();

			expectLossless(run);
			// The sandbox's windows are clock seconds: those wholly between the two changes
			// admitted at most half.
			const perWindow = new Map<number, number>();
			for (const { receivedAt } of sandbox().deliveries()) {
				const window = Math.floor(receivedAt / 1000);
				perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
			}
			const halved = [...perWindow].filter(([window]) => window * 1000 > halvedAt && (window + 1) * 1000 <= restoredAt);
			expect(halved.length).toBeGreaterThanOrEqual(2);
			for (const [, delivered] of halved) expect(delivered).toBeLessThanOrEqual(PER_SECOND / 2);
			expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(PER_SECOND);
		},
		60_000,
	);

	test(
		'Concurrency pinned at 20 against the same limit: every item delivered once, none failed',
		async () => {
			sandbox().setRateLimit({ perSecond: PER_SECOND, retryAfter: 'seconds', spentAtStart: true });
			const run = await runRateLimited({ concurrency: 20 });

			expectLossless(run);
			expect(sandbox().stats().maxInFlight).toBeLessThanOrEqual(20);
		},
		60_000,
	);
});
