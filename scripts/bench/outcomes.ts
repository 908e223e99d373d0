/**
 * The rate-limited legs as one kind of run: a bulk leg (one execution of many items) or a burst leg
 * (one-item executions through real n8n), each client's run as an Outcome with its limit, what was
 * delivered, refused and lost, and the package's goals for this node at its defaults there.
 */
import type { BurstResult, LimiterShape, RetryAfterStyle, SecondCount } from './common';
import { HTTP_RETRY } from './common';
import { int } from './format';
import type { BurstFigures, LegFigures } from './summary';
import { fromTimeline } from './summary';

/**
 * The package's goals for this node at its defaults under a rate limit: time within a multiple of
 * the ideal, 429s per delivered message. In one process it keeps close to the limit; queue mode's
 * workers, each pacing on its own, within 1.15× and 0.05.
 */
const GOALS = {
	bulk: { ideal: 1.05, refusedPerMessage: 0.02 },
	burst: { regular: { ideal: 1.05, refusedPerMessage: 0.02 }, queue: { ideal: 1.15, refusedPerMessage: 0.05 } },
};

const SHAPES: Record<LimiterShape, string> = { fixedWindow: 'fixed 1 s window', tokenBucket: 'token bucket holding N/10', slidingWindow: 'sliding 1 s window' };
export const STYLES: Record<RetryAfterStyle, string> = { seconds: 'in seconds', date: 'as an HTTP date', none: 'absent' };
export const CLIENTS: Record<BurstResult['client'], string> = {
	node: 'this node, defaults',
	httpNode: `HTTP Request node, Retry On Fail (${HTTP_RETRY.maxTries} tries, ${HTTP_RETRY.waitBetweenTries / 1000} s apart)`,
};

/** One run against a limit, bulk or burst, as its table row, goals and chart see it. */
export interface Outcome {
	/** What ran against which limit: a chart's title, the subject of a goal. */
	leg: string;
	/** The leg's limiter (bulk) or n8n set-up (bursts), for the table. */
	where: string;
	client: string;
	/** The node's executionTime (bulk) or first to last delivery (bursts); undefined when the run gave no figures. */
	seconds?: number;
	/** The service's limit, requests a second (undefined: none), and the run's items or executions. */
	limit?: number;
	count: number;
	delivered: number;
	refused: number;
	twice: number;
	/** Items that failed (bulk) or webhook calls not answered 200 (bursts), and what they were. */
	failed: number;
	failedNote: string;
	timeline?: SecondCount[];
	/** Set for this node at its defaults: the package's goals on this leg. */
	goal?: { ideal: number; refusedPerMessage?: number };
	problem?: string;
}

/** Items ÷ the limit: the least time the service allows (none without a limit). */
export const ideal = (o: Outcome) => (o.limit === undefined ? undefined : o.count / o.limit);
export const perDelivered = (o: Outcome) => (o.delivered ? o.refused / o.delivered : Infinity);
export const lossless = (o: Outcome) => !o.problem && o.delivered === o.count && o.twice === 0 && o.failed === 0;

export function bulkOutcome(m: LegFigures): Outcome {
	const run = m.limited;
	const { perSecond, shape, retryAfter } = m.rateLimit as NonNullable<LegFigures['rateLimit']>;
	const where = `${SHAPES[shape]}, Retry-After ${STYLES[retryAfter]}`;
	const node = m.kind === 'node';
	return {
		leg: `${int(m.items)} items in one execution, ${perSecond}/s, ${where}`,
		where,
		client: node ? 'this node, defaults' : 'HTTP Request node, defaults',
		seconds: run?.seconds,
		limit: perSecond, count: m.items, delivered: run?.delivered ?? 0, refused: run?.refused ?? 0, twice: run?.twice ?? 0,
		failed: run?.failedItems ?? 0,
		failedNote: run?.runError ? ` (the run failed: "${run.runError}")` : '',
		timeline: run && fromTimeline(run.timeline),
		goal: node ? GOALS.bulk : undefined,
		problem: m.problem,
	};
}

export function burstOutcome(r: BurstFigures): Outcome {
	const { events, perSecond, mode, workers = 2, workerConcurrency, shape = 'fixedWindow', bucket } = r.spec;
	const where = mode === 'queue' ? `queue mode, main + ${workers} workers (concurrency ${workerConcurrency ?? "n8n's default"})` : 'one n8n process';
	const limit = perSecond === undefined ? 'no limit' : `${perSecond}/s, ${bucket ? `token bucket holding ${bucket}` : SHAPES[shape]}`;
	const notOk = Object.entries(r.webhookStatuses).filter(([status]) => status !== '200');
	const notOkText = notOk.map(([status, n]) => `${int(n)} × ${status === '0' ? 'no answer' : `HTTP ${status}`}`).join(', ');
	return {
		leg: `${int(events)} one-item executions at once, ${where}, ${limit}`,
		where: `${where}, ${limit}`,
		client: CLIENTS[r.client],
		seconds: r.problem ? undefined : r.firstToLastMs / 1000,
		limit: perSecond, count: events, delivered: r.delivered, refused: r.rateLimited, twice: r.twice,
		failed: notOk.reduce((sum, [, n]) => sum + n, 0),
		failedNote: notOk.length ? ` (${notOkText})` : '',
		timeline: r.timeline && fromTimeline(r.timeline),
		goal: r.client === 'node' && perSecond !== undefined ? GOALS.burst[mode] : undefined,
		problem: r.problem,
	};
}

export const bulkOutcomes = (measured: LegFigures[]) => measured.filter((m) => m.rateLimit).map(bulkOutcome);
