/**
 * The commonest automation: one notification per event, many executions at once. Through n8n's
 * engine, executions of one item each run together against one rate-limited sandbox and share
 * the service's pace (delivery/pace.ts): every message is delivered exactly once, every refusal is
 * retried, none fails. How few refusals the shared pace causes is asserted where time is virtual
 * (test/nodes/MultiChannelNotification/delivery/pace.limiters.test.ts: shared against alone, on
 * one clock) and measured in BENCHMARKS.md; here the sandbox judges the rate by the real clock,
 * and how requests that a busy machine delays land in its windows is not the node's to decide.
 */
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

const EXECUTIONS = 100;
const PER_SECOND = 25;

test(
	`${EXECUTIONS} one-item executions at once against ${PER_SECOND}/s: each delivered exactly once, every refusal retried`,
	async () => {
		// Used up at the start, so refusals come at any machine speed (sandbox/rateLimit.ts).
		sandbox().setRateLimit({ perSecond: PER_SECOND, retryAfter: 'seconds', spentAtStart: true });
		const runs = await Promise.all(
			Array.from({ length: EXECUTIONS }, async (_, n) =>
				await runNode({
					parameters: { resource: 'sms', operation: 'send', phoneNumber: '={{ $json.phone }}', message: `event ${n}` },
					items: [{ phone: `+62813${String(n).padStart(8, '0')}` }],
					credentials: credentialsFor(sandbox()),
				}),
			),
		);

		for (const { output, error } of runs) {
			expect(error).toBeUndefined();
			expect(output?.map((item) => item.json.message)).toEqual(['success']);
		}
		const stats = sandbox().stats();
		expect(stats.delivered).toBe(EXECUTIONS);
		expect(stats.duplicateBodies).toBe(0);
		expect(stats.rateLimited).toBeGreaterThan(0);
		expect(stats.received).toBe(EXECUTIONS + stats.rateLimited);
	},
	60_000,
);
