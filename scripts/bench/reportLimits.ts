/**
 * The rate-limited part of the bench's report: the bulk legs (one execution of many items, three
 * limiter shapes × three Retry-After styles) and the burst legs (one-item executions through real
 * n8n's production webhooks), with their goals and tables, the comparison with n8n's HTTP Request
 * node, and a burst's console line. Their charts are in reportCharts.ts.
 */
import type { BurstResult, BurstSpec } from './common';
import { timelineText } from './common';
import type { Facts } from './facts';
import type { Goal } from './format';
import { against, failed, int, ratio, secs, table } from './format';
import type { Outcome } from './outcomes';
import { bulkOutcomes, burstOutcome, CLIENTS, ideal, lossless, perDelivered, STYLES } from './outcomes';
import { CHARTS_PAGE } from './reportCharts';
import type { BurstFigures, LegFigures } from './summary';
import { burstFigures } from './summary';

const COLUMNS = ['Client', 'Time', 'Ideal', '÷ ideal', '429s', '429s per delivered', 'Delivered', 'Twice', 'Failed'];

/** An outcome under COLUMNS: "÷ ideal" only when every item was delivered. */
function cells(o: Outcome): string[] {
	const least = ideal(o);
	const figures =
		o.seconds === undefined
			? [failed(o.problem), '', '']
			: [secs(o.seconds), least === undefined ? 'no limit' : secs(least), least !== undefined && o.delivered === o.count ? ratio(o.seconds / least) : '—'];
	return [o.client, ...figures, int(o.refused), o.delivered ? perDelivered(o).toFixed(3) : '—', `${int(o.delivered)} / ${int(o.count)}`, int(o.twice), `${int(o.failed)}${o.failedNote}`];
}

const outcomeTable = (where: string, outcomes: Outcome[]) => table([where, ...COLUMNS], outcomes.map((o) => [o.where, ...cells(o)]));
export const bulkTable = (measured: LegFigures[]) => outcomeTable('Limit', bulkOutcomes(measured));
export const burstTable = (bursts: BurstFigures[]) => outcomeTable('n8n', bursts.map(burstOutcome));

/** The goals of this node at its defaults on each leg: every item delivered once within the time, and 429s per message where set. */
export function limitGoals(measured: LegFigures[], bursts: BurstFigures[]): Goal[] {
	return [...bulkOutcomes(measured), ...bursts.map(burstOutcome)].flatMap((o): Goal[] => {
		const least = ideal(o);
		if (!o.goal || least === undefined) return [];
		const goal = `${o.leg}: each delivered once, in ≤ ${o.goal.ideal}× the ideal time (${secs(o.goal.ideal * least)})`;
		if (o.seconds === undefined) return [{ goal, run: failed(o.problem), met: false }];
		const run = `${secs(o.seconds)} = ${ratio(o.seconds / least)} the ideal; ${int(o.delivered)} / ${int(o.count)} delivered, ${o.twice} twice, ${o.failed} failed`;
		const goals: Goal[] = [lossless(o) ? { goal, run, ...against(o.seconds / least, o.goal.ideal, true) } : { goal, run, met: false, margin: 'not each delivered once' }];
		if (o.goal.refusedPerMessage === undefined) return goals;
		const refused = `${o.leg}: ≤ ${o.goal.refusedPerMessage} × 429 per delivered message`;
		return [...goals, { goal: refused, run: `${perDelivered(o).toFixed(3)} (${int(o.refused)} × 429)`, ...against(perDelivered(o), o.goal.refusedPerMessage, true) }];
	});
}

/** One client's run against a limit in a few words: delivered, failed, 429s, time. */
function inBrief(o: Outcome): string {
	if (o.seconds === undefined) return failed(o.problem);
	const failures = o.failed ? `, ${int(o.failed)} failed${o.failedNote}` : '';
	return `${int(o.delivered)} / ${int(o.count)} delivered${o.twice ? `, ${o.twice} twice` : ''}${failures}; ${int(o.refused)} × 429; ${secs(o.seconds)}`;
}

/** The legs both this node and n8n's HTTP Request node ran, each client's outcome. */
function versusHttp(measured: LegFigures[], bursts: BurstFigures[]): Array<{ leg: string; node: Outcome; http: Outcome }> {
	const legs = new Map<string, Outcome[]>();
	for (const o of [...bulkOutcomes(measured), ...bursts.map(burstOutcome)]) legs.set(o.leg, [...(legs.get(o.leg) ?? []), o]);
	return [...legs].flatMap(([leg, runs]) => {
		const node = runs.find((o) => o.client === CLIENTS.node);
		const http = runs.find((o) => o.client !== CLIENTS.node);
		return node && http ? [{ leg, node, http }] : [];
	});
}

/** Those legs as rows [leg, this node, HTTP Request node]: what a user chooses between. */
export function versusHttpRows(measured: LegFigures[], bursts: BurstFigures[]): string[][] {
	return versusHttp(measured, bursts).map(({ leg, node, http }) => [`${leg} (HTTP Request node: ${http.client.replace(/^HTTP Request node, /, '')})`, inBrief(node), inBrief(http)]);
}

/** One sentence on the rate-limited legs of both clients: how many each delivered whole, and the 429s each drew. */
export function versusHttpSummary(measured: LegFigures[], bursts: BurstFigures[]): string {
	const limited = versusHttp(measured, bursts).filter(({ node }) => node.limit !== undefined);
	if (limited.length === 0) return '';
	const whole = (pick: 'node' | 'http') => limited.filter((pair) => lossless(pair[pick])).length;
	const refused = (pick: 'node' | 'http') => limited.reduce((sum, pair) => sum + pair[pick].refused, 0);
	return (
		`Against a rate limit, in the ${limited.length} legs both ran, this node delivered every message exactly once in ${whole('node')} and drew ` +
		`${int(refused('node'))} × 429 in all; the HTTP Request node in ${whole('http')} (it lost messages in the others), with ${int(refused('http'))} × 429.`
	);
}

/** A burst's console line while the bench runs. */
export function burstLine(r: BurstResult): string {
	const o = burstOutcome(burstFigures(r));
	if (o.seconds === undefined) return `${o.client}: ${failed(o.problem)}`;
	const [client, ...figures] = cells(o);
	const labelled = figures.map((cell, index) => `${COLUMNS[index + 1]} ${cell}`);
	const senders = Object.entries(r.senders ?? {}).filter(([name]) => name !== 'main' || r.spec.mode === 'regular');
	const each = r.spec.mode === 'queue' ? senders.map(([name, timeline]) => `\n    ${name}: ${timelineText(timeline)}`).join('') : '';
	return `${client}: ${labelled.join(', ')}, load ${r.load.toFixed(2)} · delivered/429 per second: ${timelineText(r.timeline)}${each}`;
}

/** The result of a burst leg whose process failed: no figures, its problem. */
export function failedBurst(spec: BurstSpec, problem: string): BurstResult {
	const none = { requests: 0, delivered: 0, twice: 0, rateLimited: 0, firstToLastMs: 0, startToLastMs: 0, allAnsweredMs: 0, load: 0 };
	return { spec, client: 'node', webhookStatuses: {}, timeline: [], problem, ...none };
}

/**
 * What n8n's queue costs by itself, from the queue legs against no limit: how fast it delivered the
 * burst with nothing holding it back, against the limit of the limited legs. Empty without them.
 */
function queueCost(bursts: BurstFigures[]): string {
	const free = bursts.filter((r) => r.spec.mode === 'queue' && r.spec.perSecond === undefined && r.delivered > 1);
	const limit = bursts.find((r) => r.spec.mode === 'queue' && r.spec.perSecond !== undefined)?.spec.perSecond;
	if (free.length === 0 || limit === undefined) return '';
	const perSecond = (r: BurstFigures) => (r.delivered - 1) / (r.firstToLastMs / 1000);
	const span = (client: BurstFigures['client']) => {
		const rates = free.filter((r) => r.client === client).map(perSecond);
		return rates.length ? `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)} a second with ${client === 'node' ? 'this node' : "n8n's HTTP Request node"}` : '';
	};
	const slowest = Math.min(...free.map(perSecond));
	const verdict =
		slowest > limit
			? `faster than the ${limit}/s the limited legs allow, so their time over the ideal is the clients' pacing, not n8n's queue`
			: `not faster than the ${limit}/s the limited legs allow in every set-up: there part of their time over the ideal is n8n's queue`;
	return `\n\nn8n's queue by itself (the rows with no limit): first to last delivery ran at ${[span('node'), span('httpNode')].filter(Boolean).join(' and ')}, ${verdict}.`;
}

/** BENCHMARKS.md's section on rate limits: what the legs do, their tables, and where their charts are. */
export function limitsSection(measured: LegFigures[], bursts: BurstFigures[], facts: Facts): string {
	const bulk = bulkOutcomes(measured)[0];
	const burst = bursts[0]?.spec;
	return `## Rate limits

This node at its defaults (no Concurrency set) starts with ${facts.adaptive.initial} requests in flight and adapts up to ${facts.adaptive.ceiling}; after a 429 it
paces by the rate the service accepts ([Rate limits](docs/rate-limits.md#rate-limits)). "Ideal" is the least time the limit allows: items ÷ limit.

### One execution of ${bulk ? int(bulk.count) : 'N'} SMS items, N = ${facts.rateLimitPerSecond} requests a second

The sandbox (sandbox/rateLimit.ts) admits N a second as a **fixed window** (each clock second admits the first N), a **token bucket**
holding N/10 (refilled at N a second) or a **sliding window** (at most N in any 1,000 ms), and refuses the rest with HTTP 429, its
\`Retry-After\` in seconds, as an HTTP date, or absent. Time is the node's own \`executionTime\`. The HTTP Request node at its defaults
(no retry) shows a client without pacing.

${bulkTable(measured)}

### Bursts of one-item executions through real n8n${burst ? '' : ' (not run)'}

The packed package is installed into n8n ${facts.n8n} as a community package. An active workflow Webhook → client gets ${burst ? int(burst.events) : 'N'} POSTs to its
production webhook at once, one item each; the webhook answers when its execution is over ("Failed" counts answers other than 200).
The sandbox admits ${burst?.perSecond ?? 'N'} a second by the limiter each row names (or has no limit: what n8n's own queue costs), answers after
${burst?.latencyMs ?? '?'} ms, its \`Retry-After\` ${burst ? STYLES[burst.retryAfter] : ''}. Time runs from the first to the last delivered request. In queue mode n8n
runs on Postgres and Redis; each worker process keeps its own pace (the run's raw results, \`.cache/bench/results.json\`, hold each worker's requests per second).${queueCost(bursts)}

${burstTable(bursts)}

### Per second: admitted and refused (429)

One chart per rate-limited leg, each client's requests admitted and refused in each second: [${CHARTS_PAGE}](${CHARTS_PAGE}).
`;
}
