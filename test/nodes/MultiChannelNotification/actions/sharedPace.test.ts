/**
 * The commonest automation: one notification per event, many executions at once. Through n8n's
 * engine, executions of one item each run together against one rate-limited sandbox: they share
 * the service's pace (helpers/pace.ts), so every message is delivered once and the service is not
 * hammered with requests it refuses. Counts are asserted, not durations.
 */
import { runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();

const EXECUTIONS = 100;
const PER_SECOND = 25;

test(
	`${EXECUTIONS} one-item executions at once against ${PER_SECOND}/s: each delivered once, few 429s`,
	async () => {
		sandbox().setRateLimit({ perSecond: PER_SECOND, retryAfter: 'seconds' });
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
		expect(stats.received).toBe(EXECUTIONS + stats.rateLimited);
		// Each execution pacing alone would send its first try at once (75 refused in the first
		// second) and retry together every second; the shared pace refuses far fewer.
		expect(stats.rateLimited).toBeLessThanOrEqual(0.5 * EXECUTIONS);
	},
	60_000,
);
