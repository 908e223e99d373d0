/**
 * Turns the summary of a bench run (summary.ts) into the console tables and BENCHMARKS.md: the package's own goals,
 * met or missed in this run; the rate-limited legs (reportLimits.ts); throughput beside n8n's HTTP
 * Request node and a raw keep-alive client; memory. Every figure comes from the results it is given.
 */
import type { LegKind } from './common';
import { median } from './common';
import type { Goal } from './format';
import { against, failed, goalTable, int, ratio, secs, table } from './format';
import { CHARTS_PAGE, chartsOf } from './reportCharts';
import { bulkTable, burstTable, limitGoals, limitsSection, versusHttpRows, versusHttpSummary } from './reportLimits';
import { sendOnceConsole, sendOnceSection } from './reportSendOnce';
import type { Facts } from './facts';
import type { BurstFigures, LegFigures, Summary } from './summary';

/** The package's own speed and memory goals (worded in speedGoals). */
const GOALS = { defaultsVsHttpAt0: 1, defaultsVsHttpAt100: 0.8, rssGrowthMb: 150 };

/** Items/s: one decimal below 100, where whole numbers would hide the differences the goals compare. */
const perSecond = (value: number) => (value < 100 ? value.toFixed(1) : int(value));
/** The throughput legs: neither rate limited nor a memory run. */
const plain = (m: LegFigures) => !m.rateLimit && !m.memoryLeg;
const ok = (m: LegFigures | undefined): m is LegFigures => m !== undefined && !m.problem && m.runs > 0;
/** Median items/s and seconds of a leg, undefined when it failed or is missing. */
const rate = (m: LegFigures | undefined) => (ok(m) ? m.itemsPerSecond?.median : undefined);
const time = (m: LegFigures | undefined) => (ok(m) ? m.seconds?.median : undefined);

/** A throughput leg by latency, client and items. */
function find(all: LegFigures[], latencyMs: number, kind: LegKind, items: number): LegFigures | undefined {
	return all.find((m) => plain(m) && m.latencyMs === latencyMs && m.kind === kind && m.items === items);
}

function clientName(m: LegFigures): string {
	return { node: 'this node, defaults', httpNode: 'HTTP Request node, defaults', raw: `raw keep-alive client, ${m.concurrency} at once` }[m.kind];
}

const KINDS: LegKind[] = ['node', 'httpNode', 'raw'];

function speedTable(all: LegFigures[], latencyMs: number): string {
	const legs = all.filter((m) => plain(m) && m.latencyMs === latencyMs).map((m) => ({ m, items: m.items, kind: m.kind }));
	legs.sort((a, b) => a.items - b.items || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
	return table(
		['Items', 'Client', 'Runs', 'Time (median)', 'Items/s', '÷ raw keep-alive client', '÷ HTTP Request node', 'Most in flight'],
		legs.map(({ m, items, kind }) => {
			const where = [int(items), clientName(m), String(m.runs)];
			const value = rate(m);
			if (value === undefined) return [...where, failed(m.problem), '', '', '', ''];
			const raw = kind === 'raw' ? undefined : rate(find(all, latencyMs, 'raw', items));
			const http = kind === 'node' ? rate(find(all, latencyMs, 'httpNode', items)) : undefined;
			return [...where, secs(time(m)), `**${perSecond(value)}**`, ratio(raw && value / raw), ratio(http && value / http), int(m.maxInFlight ?? 0)];
		}),
	);
}

/** A goal on two legs' items/s: `leg` ÷ `base` ≥ `target`. */
function ratioGoal(goal: string, leg: LegFigures | undefined, base: LegFigures | undefined, target: number): Goal {
	const [a, b] = [rate(leg), rate(base)];
	if (a === undefined || b === undefined) return { goal, run: 'not measured', met: undefined };
	return { goal, run: `${(a / b).toFixed(3)}× (${perSecond(a)} vs ${perSecond(b)} items/s; ${secs(time(leg))} vs ${secs(time(base))})`, ...against(a / b, target) };
}

function speedGoals(all: LegFigures[]): Goal[] {
	const goals: Goal[] = [];
	const nodeLegs = all.filter((m) => plain(m) && m.kind === 'node');
	const vsHttp: Array<[number, number, string]> = [
		[0, GOALS.defaultsVsHttpAt0, 'at least as fast as the HTTP Request node'],
		[100, GOALS.defaultsVsHttpAt100, `≥ ${GOALS.defaultsVsHttpAt100}× the HTTP Request node's items/s`],
	];
	for (const [latencyMs, target, what] of vsHttp) {
		// The pacing legs: the fewest items this node ran at its defaults (those ran the most times).
		const counts = nodeLegs.filter((m) => m.latencyMs === latencyMs).map((m) => m.items);
		if (!counts.length) continue;
		const items = Math.min(...counts);
		const goal = `${latencyMs} ms, ${int(items)} items: this node at its defaults ${what}`;
		goals.push(ratioGoal(goal, find(all, latencyMs, 'node', items), find(all, latencyMs, 'httpNode', items), target));
	}
	const memory = all.find((m) => m.memoryLeg && m.kind === 'node' && m.latencyMs === 0);
	if (memory) {
		const goal = `0 ms, ${int(memory.items)} items: peak RSS of this node at its defaults grows by ≤ ${GOALS.rssGrowthMb} MB`;
		const { baselineMb, peakMb, growthMb } = memory.memory ?? {};
		const run = memory.memory ? `+${growthMb} MB (${baselineMb} → ${peakMb} MB)` : failed(memory.problem);
		goals.push({ goal, run, ...against(growthMb, GOALS.rssGrowthMb, true) });
	}
	return goals;
}

/**
 * BENCHMARKS.md's opening: this node against n8n's HTTP Request node, the choice a user makes,
 * on every leg both ran; with the chart of the first rate-limited leg that shows both.
 */
function versusHttpSection(all: LegFigures[], bursts: BurstFigures[], facts: Facts): string {
	const speed = [0, 100].flatMap((latencyMs) => {
		const counts = all.filter((m) => plain(m) && m.latencyMs === latencyMs && m.kind === 'node').map((m) => m.items);
		if (!counts.length) return [];
		const items = Math.min(...counts);
		const [node, http] = [find(all, latencyMs, 'node', items), find(all, latencyMs, 'httpNode', items)];
		const brief = (m: LegFigures | undefined) => (rate(m) === undefined ? failed(m?.problem) : `${perSecond(rate(m) as number)} items/s (${secs(time(m))})`);
		return [[`${int(items)} items in one execution, no rate limit, the service answering after ${latencyMs} ms`, brief(node), brief(http)]];
	});
	const rows = [...speed, ...versusHttpRows(all, bursts)];
	const chart = chartsOf(all, bursts, facts).find((candidate) => candidate.clients > 1 && /one n8n process/.test(candidate.title));
	return `## This node or n8n's HTTP Request node

What you choose between when you send these notifications from n8n: this node at its defaults, or n8n's own HTTP Request node
with the same JSON body and a Header Auth credential, in the same n8n and against the same sandbox. ${versusHttpSummary(all, bursts)}
The sections further down give every figure.

${table(['Run', 'This node, defaults', 'HTTP Request node'], rows)}
${chart ? `
![${chart.title}: admitted and refused requests a second, both clients](${chart.file})
` : ''}`;
}

function memoryTable(all: LegFigures[]): string {
	return table(
		['Run (fresh process)', 'Items', 'Latency', 'Items/s', 'Most in flight', 'Baseline RSS', 'Peak RSS', 'Growth', 'Peak heap in use', 'Heap retained'],
		all
			.filter((m) => m.memoryLeg)
			.map((m) => {
				const { memory, itemsPerSecond, maxInFlight, problem, items } = m;
				const where = [clientName(m), int(items), `${m.latencyMs} ms`];
				if (!memory || !itemsPerSecond || maxInFlight === undefined) return [...where, failed(problem), '', '', '', '', '', ''];
				const mb = [`${memory.baselineMb} MB`, `${memory.peakMb} MB`, `**+${memory.growthMb} MB**`, `${memory.peakHeapMb} MB`, `+${memory.retainedHeapMb} MB`];
				return [...where, int(itemsPerSecond.median), int(maxInFlight), ...mb];
			}),
	);
}

function loadText(facts: Facts): string {
	const during = facts.loadDuring.length ? `; at the start of each leg median ${median(facts.loadDuring).toFixed(2)}, highest ${Math.max(...facts.loadDuring).toFixed(2)}` : '';
	const busy = facts.busyBefore > 0.2 ? ' Other work was running: absolute figures are lower and noisier than on an idle machine, ratios between legs less so.' : '';
	return `CPU ${Math.round(facts.busyBefore * 100)} % busy in the 3 s before the start; 1-minute load average ${facts.loadBefore[0]?.toFixed(2)} before, ${facts.loadAfter[0]?.toFixed(2)} after${during}.${busy}`;
}

const goalCount = (goals: Goal[], met: boolean) => goals.filter((goal) => goal.met === met).length;

export function renderReport({ facts, legs: measured, bursts, sendOnce }: Summary): { console: string; markdown: string } {
	const goalList = [...limitGoals(measured, bursts), ...speedGoals(measured)];
	const goals = goalTable(goalList);
	// Title, what was measured (true whatever the figures), table.
	const sections: Array<[string, string, string]> = [
		[
			'Throughput, sandbox answering at once (0 ms)',
			`n8n-core's \`WorkflowExecute\` runs a source node, then the client measured; every item is one SMS send, its two fields read by expression.
**This node**: SMS → Send SMS from dist/, at its defaults (adaptive, ${facts.adaptive.initial} → ${facts.adaptive.ceiling} in flight).
**HTTP Request node**: n8n's own, in the same engine, with the same JSON body and a Header Auth credential. **Raw keep-alive client**:
node:https with one keep-alive agent, the ceiling. A leg whose items were not each delivered exactly once shows as failed.`,
			speedTable(measured, 0),
		],
		['Throughput, sandbox holding each answer 100 ms', '', speedTable(measured, 100)],
		[
			'Memory',
			`One run per row in a fresh process. Peak RSS is the higher of 20 ms samples and the kernel's high-water mark for the run; the baseline
is taken after a warm-up run and a full garbage collection. "Heap retained" is the heap in use after another full collection once the
run is over, its result still referenced, minus the same before.`,
			memoryTable(measured),
		],
	];
	const limits: Array<[string, string]> = [['Rate limited: one execution', bulkTable(measured)], ['Rate limited: bursts through real n8n', burstTable(bursts)]];
	const tables = [['Goals', goals], ...limits, ...sections.map(([title, , figures]) => [title, figures])].map(([title, figures]) => `${title}\n${figures}\n`);
	const consoleText = [...tables, sendOnceConsole(sendOnce)].filter(Boolean).join('\n');
	const sendOnceText = sendOnceSection(sendOnce, facts);
	const markdown = `# Benchmarks

Measured by \`npm run bench\` (scripts/bench/) on ${facts.date.slice(0, 10)} in ${Math.floor(facts.seconds / 60)} min ${facts.seconds % 60} s: one machine, one run, and every figure below is from it.

| | |
| --- | --- |
| Machine | ${facts.cpuModel}, ${facts.cores} cores, ${facts.memoryGb} GB; Node.js ${facts.node} (Linux ${facts.kernel}) |
| Load | ${loadText(facts)} |
| Code | package ${facts.packageVersion}, built dist/ |
| n8n | ${facts.n8n}: n8n-core ${facts.n8nCore}, n8n-workflow ${facts.n8nWorkflow}; HTTP Request node ${facts.httpRequestVersion} from n8n-nodes-base ${facts.n8nNodesBase} |

Each leg runs in a fresh process against the local sandbox (sandbox/) on 127.0.0.1 over https, and this node sends through n8n's
request helper as it does for users: these are the costs of the node and of n8n, not of a network. A figure is the median of the
leg's timed runs (BENCHMARKS.json keeps their smallest, median and largest); an n8n node is timed by its own \`executionTime\`, a raw client by the wall-clock time of its loop.

${versusHttpSection(measured, bursts, facts)}
## The package's own goals

Stretch targets the package sets itself, apart from the comparison above: how close to the service's limit it keeps, how few 429s
it draws, how its memory grows. Each is checked against this run's figures: ${goalCount(goalList, true)} met, ${goalCount(goalList, false)} missed.

${goals}

${limitsSection(measured, bursts, facts)}
${sections.map(([title, text, figures]) => `## ${title}\n\n${text ? `${text}\n\n` : ''}${figures}\n`).join('\n')}${sendOnceText ? `\n${sendOnceText}` : ''}
## Reproduce

\`npm run bench\` builds the package, installs n8n into \`.cache/\` if missing, measures everything and rewrites this file, its charts
(and their page, ${CHARTS_PAGE}) and BENCHMARKS.json (the figures shown here; every run and sample stays in \`.cache/bench/results.json\`). \`npm run bench -- --quick\` is a smaller smoke run that writes only \`.cache/bench/\`;
\`npx tsx scripts/bench/run.ts --render\` rewrites this file and its charts from BENCHMARKS.json.
`;
	return { console: consoleText, markdown };
}
