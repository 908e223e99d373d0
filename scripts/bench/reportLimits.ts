/**
 * The rate-limit part of the bench's report: the bulk legs (one execution, 2,000 items, three
 * limiter shapes × three Retry-After styles) and the burst legs (one-item executions through
 * real n8n's production webhooks), with their targets, tables and per-second timelines.
 */
import type { BurstResult, BurstSpec, LimiterShape, RetryAfterStyle, SecondCount } from './common';
import { timelineText } from './common';
import type { PacingVerdict } from './format';
import type { Series } from './chart';
import { timelineChart } from './chart';
import { int, ratio, secs, table } from './format';
import type { Facts, Measured } from './report';

/** The package's goals under a rate limit: bulk ≤ 1.15× the ideal time; bursts ≤ 1.15× (regular) and ≤ 1.3× (queue) ideal, and at most so many 429s per message. */
export const LIMITS = {
	bulkIdeal: 1.15,
	burst: { regular: { ideal: 1.15, refusedPerMessage: 0.2 }, queue: { ideal: 1.3, refusedPerMessage: 0.5 } },
};

const SHAPES: Record<LimiterShape, string> = {
	fixedWindow: 'fixed 1 s window',
	tokenBucket: 'token bucket holding N/10',
	slidingWindow: 'sliding 1 s window',
};
const STYLES: Record<RetryAfterStyle, string> = { seconds: 'in seconds', date: 'as an HTTP date', none: 'absent' };

interface BulkFigures {
	count: number;
	ideal: number;
	seconds: number;
	delivered: number;
	twice: number;
	failed: number;
	refused: number;
	met: boolean;
}

function bulkLegs(measured: Measured[]): Measured[] {
	return measured.filter((m) => m.rateLimit && m.result.spec.kind === 'node' && m.result.spec.concurrency === undefined);
}

function figures(m: Measured, facts: Facts): BulkFigures | undefined {
	const rep = m.result.reps[0];
	if (!rep) return undefined;
	const count = m.result.spec.items;
	const ideal = count / (m.rateLimit?.perSecond ?? facts.rateLimitPerSecond);
	const seconds = rep.ms / 1000;
	const lossless = rep.delivered === count && rep.failedItems === 0 && rep.duplicates === 0;
	return {
		count,
		ideal,
		seconds,
		delivered: rep.delivered,
		twice: rep.duplicates,
		failed: rep.failedItems,
		refused: rep.rateLimited,
		met: lossless && seconds <= LIMITS.bulkIdeal * ideal,
	};
}

function limitName(m: Measured): string {
	return m.rateLimit ? `${m.rateLimit.perSecond}/s, ${SHAPES[m.rateLimit.shape]}, Retry-After ${STYLES[m.rateLimit.retryAfter]}` : '—';
}

export function bulkVerdicts(measured: Measured[], facts: Facts): PacingVerdict[] {
	return bulkLegs(measured).map((m) => {
		const f = figures(m, facts);
		const count = m.result.spec.items;
		const ideal = count / (m.rateLimit?.perSecond ?? facts.rateLimitPerSecond);
		const target = `(B) ${limitName(m)}: ${int(count)} items in one execution, each delivered once, in ≤ ${LIMITS.bulkIdeal}× ${int(count)} ÷ N = ${(LIMITS.bulkIdeal * ideal).toFixed(1)} s`;
		if (!f) return { target, measured: `failed: ${(m.result.problem ?? 'no result').split('\n')[0]}`, met: false, detail: '' };
		const lossless = f.delivered === count && f.failed === 0 && f.twice === 0;
		return {
			target,
			measured: `${secs(f.seconds)} = ${ratio(f.seconds / f.ideal)} ideal; ${int(f.delivered)} delivered, ${f.twice} twice, ${f.failed} failed; ${(f.refused / count).toFixed(3)} × 429 per message`,
			met: f.met,
			detail: !lossless ? 'items lost, failed or sent twice' : f.met ? `${((1 - f.seconds / (LIMITS.bulkIdeal * f.ideal)) * 100).toFixed(0)} % to spare` : `${(f.seconds - LIMITS.bulkIdeal * f.ideal).toFixed(1)} s over`,
		};
	});
}

export function bulkTable(measured: Measured[], facts: Facts): string {
	const legs = measured.filter((m) => m.rateLimit);
	return table(
		['Limiter (N = 100/s)', 'Retry-After', 'Client', 'Delivered', 'Twice', 'Failed items', '429s', '429s per message', 'Time', '÷ ideal (2,000 ÷ N)'],
		legs.map((m) => {
			const rep = m.result.reps[0];
			const count = m.result.spec.items;
			const ideal = count / (m.rateLimit?.perSecond ?? facts.rateLimitPerSecond);
			const client = m.result.spec.kind === 'node' ? 'this node, defaults' : 'HTTP Request node, defaults';
			const where = [SHAPES[m.rateLimit?.shape ?? 'fixedWindow'], STYLES[m.rateLimit?.retryAfter ?? 'seconds'], client];
			if (!rep) return [...where, `failed: ${(m.result.problem ?? '').split('\n')[0]}`, '', '', '', '', '', ''];
			return [
				...where,
				`${int(rep.delivered)} / ${int(count)}`,
				String(rep.duplicates),
				int(rep.failedItems),
				int(rep.rateLimited),
				(rep.rateLimited / count).toFixed(3),
				secs(rep.ms / 1000),
				m.result.spec.kind === 'node' ? `**${ratio(rep.ms / 1000 / ideal)}**` : '—',
			];
		}),
	);
}

function burstTarget(spec: BurstSpec): { ideal: number; refusedPerMessage: number } {
	return LIMITS.burst[spec.mode];
}

export function burstVerdicts(bursts: BurstResult[]): PacingVerdict[] {
	const verdicts: PacingVerdict[] = [];
	for (const r of bursts.filter((burst) => burst.client === 'node')) {
		const { spec } = r;
		const where = `${spec.mode === 'queue' ? `queue mode (main + ${spec.workers ?? 2} workers, concurrency ${spec.workerConcurrency ?? 50})` : 'regular mode'}, ${int(spec.events)} webhook executions at once, ${spec.perSecond}/s`;
		const goal = burstTarget(spec);
		const ideal = spec.events / spec.perSecond;
		if (r.problem) {
			verdicts.push({ target: `(W) ${where}`, measured: `failed: ${r.problem.split('\n')[0]}`, met: false, detail: '' });
			continue;
		}
		const factor = r.firstToLastMs / 1000 / ideal;
		const perMessage = r.delivered ? r.rateLimited / r.delivered : Infinity;
		verdicts.push(
			{
				target: `(W) ${where}: every message delivered, none twice`,
				measured: `${int(r.delivered)} / ${int(spec.events)} delivered, ${r.twice} twice`,
				met: r.delivered === spec.events && r.twice === 0,
				detail: '',
			},
			{
				target: `(W) ${where}: first-to-last delivery ≤ ${goal.ideal}× ideal (${secs(ideal)})`,
				measured: `${secs(r.firstToLastMs / 1000)} = ${ratio(factor)}`,
				met: factor <= goal.ideal,
				detail: factor <= goal.ideal ? `${((1 - factor / goal.ideal) * 100).toFixed(0)} % to spare` : `${(r.firstToLastMs / 1000 - goal.ideal * ideal).toFixed(1)} s over`,
			},
			{
				target: `(W) ${where}: ≤ ${goal.refusedPerMessage} × 429 per delivered message`,
				measured: `${perMessage.toFixed(2)} (${int(r.rateLimited)} × 429 for ${int(r.delivered)})`,
				met: perMessage <= goal.refusedPerMessage,
				detail: perMessage <= goal.refusedPerMessage ? '' : `${ratio(perMessage / goal.refusedPerMessage)} the allowance`,
			},
		);
	}
	return verdicts;
}

const CLIENTS: Record<BurstResult['client'], string> = {
	node: 'this node, defaults',
	nodePinned: 'this node, Concurrency 1 (diagnostic)',
	httpNode: 'HTTP Request node, Retry On Fail (5 tries × 1 s)',
};

function answers(statuses: Record<string, number>): string {
	return Object.entries(statuses)
		.map(([status, count]) => `${int(count)} × ${status === '0' ? 'no answer' : status}`)
		.join(', ');
}

export function burstTable(bursts: BurstResult[]): string {
	return table(
		['Mode', 'Client', 'Webhook answers', 'Delivered', 'Twice', 'Requests', '429s', '429s per delivered', 'First → last delivery', '÷ ideal', 'First POST → last delivery', 'Load (1 min)'],
		bursts.map((r) => {
			const ideal = r.spec.events / r.spec.perSecond;
			const client = CLIENTS[r.client];
			if (r.problem) return [r.spec.mode, client, `failed: ${r.problem.split('\n')[0]}`, '', '', '', '', '', '', '', '', r.load.toFixed(2)];
			return [
				r.spec.mode,
				client,
				answers(r.webhookStatuses),
				`**${int(r.delivered)}** / ${int(r.spec.events)}`,
				String(r.twice),
				int(r.requests),
				int(r.rateLimited),
				r.delivered ? (r.rateLimited / r.delivered).toFixed(2) : '—',
				secs(r.firstToLastMs / 1000),
				ratio(r.firstToLastMs / 1000 / ideal),
				secs(r.startToLastMs / 1000),
				r.load.toFixed(2),
			];
		}),
	);
}

/** One line per run: delivered/refused in each second from its first request. */
export function timelineLines(measured: Measured[], bursts: BurstResult[]): string[] {
	const line = (name: string, timeline: SecondCount[] | undefined) =>
		timeline?.length ? `- ${name}: \`${timelineText(timeline)}\`` : undefined;
	return [
		...measured.filter((m) => m.rateLimit).map((m) =>
			line(`${m.result.spec.kind === 'node' ? 'this node' : 'HTTP Request node'}, ${limitName(m)}`, m.result.reps[0]?.timeline),
		),
		...bursts.map((r) => line(`burst, ${r.spec.mode} mode, ${CLIENTS[r.client]}`, r.timeline)),
	].filter((entry): entry is string => entry !== undefined);
}

export function burstLine(r: BurstResult): string {
	if (r.problem) return `${r.client}: PROBLEM ${r.problem.split('\n')[0]}`;
	const ideal = r.spec.events / r.spec.perSecond;
	return (
		`${CLIENTS[r.client]}: delivered ${r.delivered}/${r.spec.events}, twice ${r.twice}, ` +
		`${r.rateLimited} × 429 (${r.delivered ? (r.rateLimited / r.delivered).toFixed(2) : '—'} per delivered), first→last ` +
		`${(r.firstToLastMs / 1000).toFixed(2)} s = ${(r.firstToLastMs / 1000 / ideal).toFixed(2)}× ideal ${ideal} s, webhooks ${answers(r.webhookStatuses)}, ` +
		`load ${r.load.toFixed(2)} · delivered/429 per second: ${timelineText(r.timeline)}`
	);
}

export function failedBurst(spec: BurstSpec, problem: string): BurstResult {
	return {
		spec,
		client: 'node',
		webhookStatuses: {},
		requests: 0,
		delivered: 0,
		twice: 0,
		rateLimited: 0,
		firstToLastMs: 0,
		startToLastMs: 0,
		allAnsweredMs: 0,
		timeline: [],
		load: 0,
		problem,
	};
}


export interface Chart {
	/** Path from the repository root, where run.ts writes it and BENCHMARKS.md shows it. */
	file: string;
	title: string;
	svg: string;
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** One chart per rate-limited leg: this node beside the HTTP Request node on the same limit. */
export function chartsOf(measured: Measured[], bursts: BurstResult[]): Chart[] {
	const groups = new Map<string, { limit: number; series: Series[] }>();
	const add = (title: string, limit: number, name: string, timeline: SecondCount[] | undefined) => {
		if (!timeline?.length) return;
		const group = groups.get(title) ?? { limit, series: [] };
		group.series.push({ name, timeline });
		groups.set(title, group);
	};
	for (const m of measured.filter((leg) => leg.rateLimit)) {
		const client = m.result.spec.kind === 'node' ? 'this node' : 'HTTP Request node';
		add(`${int(m.result.spec.items)} items in one execution, ${limitName(m)}`, m.rateLimit?.perSecond ?? 0, client, m.result.reps[0]?.timeline);
	}
	for (const r of bursts) {
		const where = r.spec.mode === 'queue' ? `queue mode, ${r.spec.workers} workers` : 'one n8n process';
		add(`${int(r.spec.events)} one-item executions at once, ${where}, ${r.spec.perSecond}/s`, r.spec.perSecond, CLIENTS[r.client], r.timeline);
	}
	return [...groups].map(([title, group]) => ({
		file: `docs/images/bench/${slug(title)}.svg`,
		title,
		svg: timelineChart(title, group.limit, group.series),
	}));
}

/** BENCHMARKS.md's section on rate limits: what the legs do, their tables and timelines. */
export function limitsSection(measured: Measured[], bursts: BurstResult[], facts: Facts): string {
	const burst = bursts[0]?.spec;
	return `## Rate limits

### One execution, 2,000 SMS items, N = ${facts.rateLimitPerSecond} requests a second

The sandbox (sandbox/rateLimit.ts) admits N a second in one of three shapes — a **fixed window**
(each clock second admits the first N), a **token bucket** holding N/10 (refilled at N a second),
a **sliding window** (at most N admitted in any 1,000 ms) — and refuses the rest with HTTP 429,
whose \`Retry-After\` is the limiter's own wait in whole seconds, that moment as an HTTP date, or
absent. The node runs at its defaults; the time is its own \`executionTime\`, the ideal is
2,000 ÷ N = ${int(2000 / facts.rateLimitPerSecond)} s. The HTTP Request node at its defaults runs once against the fixed
window to show what a client without pacing gets (its run fails; it has no retry of its own here).

${bulkTable(measured, facts)}

### Bursts of one-item executions through real n8n ${burst ? '' : '(not run)'}

The commonest real shape: one execution per event. The packed package is installed into a fresh
n8n 2.8.4 user folder the way n8n installs a community package, and an **active** workflow
Webhook → this node (SMS → Send, at its defaults) gets ${burst ? int(burst.events) : 'N'} POSTs to its production webhook at
once, one item each (the webhook answers when its execution is over). The sandbox admits
${burst ? burst.perSecond : 'N'} a second (fixed window), answers after ${burst ? burst.latencyMs : '?'} ms and sends \`Retry-After\` in seconds (\`1\`),
over https. The same then for this node with Concurrency 1 and a credential of its own, so a fresh
pace (a diagnostic: each execution's one request is then not held by the window the executions
share; the rate and pauses still are shared)
and for n8n's HTTP Request node with Retry On Fail at its most (5 tries, 1 s apart). One untimed call warms each workflow first; the node's pace is then at its start (no rate
learnt: the warm-up saw no 429). "First → last delivery" is between the arrivals
of the first and the last delivered request at the sandbox; the ideal is events ÷ N. In queue mode
n8n runs on Postgres and Redis (scripts/n8n/lib/queue.ts) with a main instance and workers
(\`n8n worker --concurrency\`), which run the executions; each worker keeps its own pace of the
service, so the limit is shared out by what each worker learns from its 429s.

${burstTable(bursts)}

### Per second: admitted and refused (429)

Counted at the sandbox from each run's first request; the dashed line is the service's limit.

${chartsOf(measured, bursts).map((chart) => `![${chart.title}](${chart.file})`).join('\n\n')}

The same as text, admitted/refused per second:

${timelineLines(measured, bursts).join('\n')}
`;
}
