/**
 * Turns the bench's measurements into the console table and BENCHMARKS.md: machine facts, the
 * targets (met / missed, by how much), the per-item prepare cost, throughput with ratios, memory,
 * and what explains the misses.
 */
import type { BurstResult, LegResult, PrepareResult, ServiceSpec } from './common';
import { bulkTable, bulkVerdicts, burstTable, burstVerdicts, limitsSection } from './reportLimits';
import { HTTP_BATCH, median } from './common';
import type { PacingVerdict, Verdict } from './format';
import { int, ratio, secs, shortfall, table, us, verdictText } from './format';

export interface Facts {
	date: string;
	cpuModel: string;
	cores: number;
	memoryGb: number;
	node: string;
	kernel: string;
	loadBefore: number[];
	loadAfter: number[];
	/** The 1-minute load average at the start of each leg. */
	loadDuring?: number[];
	/** Share of CPU time busy (any process) during 3 s just before the bench started. */
	busyBefore: number;
	commit: string;
	packageVersion: string;
	n8nCore: string;
	n8nWorkflow: string;
	n8nNodesBase: string;
	httpRequestVersion: number;
	/** The node's adaptive pacing at its defaults (no Concurrency set). */
	adaptive: { initial: number; ceiling: number };
	/** N of the rate-limited legs. */
	rateLimitPerSecond: number;
	reps: number;
	seconds: number;
}

export interface Measured {
	latencyMs: number;
	/** Set for the legs against the rate-limited sandbox. */
	rateLimit?: ServiceSpec['rateLimit'];
	result: LegResult;
}

/** `find`'s concurrency: a pinned value, the node at its defaults (adaptive), or any. */
type Concurrency = number | 'defaults' | undefined;

const TARGETS = {
	rawRatio: 0.9,
	prepareUs: 20,
	rssGrowthMb: 150,
};

/** The package's own pacing goals. */
const PACING = {
	/** (1) 0 ms: node defaults not slower than the HTTP Request node. */
	fasterThanHttp: 1,
	/** (2) 100 ms: node at Concurrency C ≥ 0.95× the raw client at C. */
	pinnedVsRaw: 0.95,
	/** (3) 100 ms: node defaults ≥ 0.8× the HTTP Request node's throughput. */
	defaultsVsHttp: 0.8,
	/** (4) rate limited: every item delivered once, none failed, in ≤ 1.15× items ÷ N. */
	idealFactor: 1.15,
	items: 2000,
};

function rate(measured: Measured | undefined): number | undefined {
	if (!measured || measured.result.problem || measured.result.reps.length === 0) return undefined;
	return median(measured.result.reps.map((rep) => rep.itemsPerSecond));
}

/** Median seconds of a leg (an n8n node: its own executionTime). */
function seconds(measured: Measured | undefined): number | undefined {
	if (!measured || measured.result.problem || measured.result.reps.length === 0) return undefined;
	return median(measured.result.reps.map((rep) => rep.ms / 1000));
}

class Results {
	constructor(private readonly all: Measured[]) {}

	concurrencyOf(measured: Measured): number | undefined {
		return measured.result.spec.concurrency;
	}

	isDefaults(measured: Measured): boolean {
		return measured.result.spec.kind === 'node' && measured.result.spec.concurrency === undefined;
	}

	throughput(latencyMs: number): Measured[] {
		return this.all.filter(
			(m) => m.latencyMs === latencyMs && !m.rateLimit && !m.result.spec.memory && !m.result.spec.profile,
		);
	}

	rateLimited(): Measured[] {
		return this.all.filter((m) => m.rateLimit !== undefined);
	}

	memory(): Measured[] {
		return this.all.filter((m) => m.result.spec.memory);
	}

	profiles(): Measured[] {
		return this.all.filter((m) => m.result.spec.profile && m.result.profile);
	}

	find(latencyMs: number, kind: string, items: number, concurrency?: Concurrency): Measured | undefined {
		return this.throughput(latencyMs).find(
			(m) =>
				m.result.spec.kind === kind &&
				m.result.spec.items === items &&
				(concurrency === undefined ||
					(concurrency === 'defaults' ? this.isDefaults(m) : this.concurrencyOf(m) === concurrency)),
		);
	}

	/** The engine legs' rows; sandbox-alone rows are the raw legs above the node's concurrencies. */
	isSandboxAlone(measured: Measured): boolean {
		return measured.result.spec.kind === 'raw' && (measured.result.spec.concurrency ?? 0) >= 50;
	}
}

function clientName(measured: Measured, results: Results): string {
	const { kind } = measured.result.spec;
	if (results.isSandboxAlone(measured)) return 'sandbox alone (raw keep-alive client)';
	if (results.isDefaults(measured)) return 'this node, defaults';
	return {
		node: 'this node',
		httpNode: 'HTTP Request node, defaults',
		httpNodeBatching: `HTTP Request node, batching ${HTTP_BATCH.batchSize} items / ${HTTP_BATCH.batchInterval} ms`,
		n8nHelper: "n8n's request helper alone",
		raw: 'raw keep-alive client',
		rawNoKeepAlive: 'raw client, new connection per request',
	}[kind];
}

function concurrencyLabel(measured: Measured, results: Results, adaptive: Facts['adaptive']): string {
	const { kind } = measured.result.spec;
	if (kind === 'httpNode') return 'unlimited';
	if (kind === 'httpNodeBatching') return `${HTTP_BATCH.batchSize} per ${HTTP_BATCH.batchInterval} ms`;
	if (results.isDefaults(measured)) return `adaptive ${adaptive.initial} → ${adaptive.ceiling}`;
	return String(results.concurrencyOf(measured));
}

const KIND_ORDER = ['node', 'httpNode', 'httpNodeBatching', 'n8nHelper', 'rawNoKeepAlive', 'raw'];

function throughputTable(latencyMs: number, results: Results, adaptive: Facts['adaptive']): string {
	const legs = [...results.throughput(latencyMs)].sort(
		(a, b) =>
			a.result.spec.items - b.result.spec.items ||
			Number(results.isSandboxAlone(a)) - Number(results.isSandboxAlone(b)) ||
			KIND_ORDER.indexOf(a.result.spec.kind) - KIND_ORDER.indexOf(b.result.spec.kind) ||
			(results.concurrencyOf(a) ?? 0) - (results.concurrencyOf(b) ?? 0),
	);
	const rows = legs.map((measured) => {
		const { spec, reps, problem } = measured.result;
		const value = rate(measured);
		const c = results.concurrencyOf(measured);
		const raw = spec.kind !== 'raw' && c !== undefined ? rate(results.find(latencyMs, 'raw', spec.items, c)) : undefined;
		const http = spec.kind === 'node' ? rate(results.find(latencyMs, 'httpNode', spec.items)) : undefined;
		const maxInFlight = reps.length ? Math.max(...reps.map((rep) => rep.maxInFlight)) : undefined;
		return [
			int(spec.items),
			clientName(measured, results),
			concurrencyLabel(measured, results, adaptive),
			value === undefined ? `failed: ${(problem ?? 'no result').split('\n')[0]}` : `**${int(value)}**`,
			reps.map((rep) => int(rep.itemsPerSecond)).join(', '),
			value !== undefined && raw !== undefined ? ratio(value / raw) : '—',
			value !== undefined && http !== undefined ? ratio(value / http) : '—',
			latencyMs > 0 && maxInFlight !== undefined ? int(maxInFlight) : '—',
		];
	});
	return table(
		[
			'Items',
			'Client',
			'Concurrency',
			'Items/s (median)',
			'Runs (items/s)',
			'÷ raw, same concurrency',
			'÷ HTTP Request (defaults)',
			'Max in flight at the sandbox',
		],
		rows,
	);
}

function targets(prepare: PrepareResult[], results: Results): Verdict[] {
	const verdicts: Verdict[] = [];
	for (const latencyMs of [0, 100]) {
		const counts = [...new Set(results.throughput(latencyMs).map((m) => m.result.spec.items))].sort((a, b) => a - b);
		for (const items of counts) {
			const node = rate(results.find(latencyMs, 'node', items, 20));
			const raw = rate(results.find(latencyMs, 'raw', items, 20));
			if (node === undefined && raw === undefined) continue;
			const value = node !== undefined && raw !== undefined ? node / raw : undefined;
			verdicts.push({
				target: `Node at concurrency 20 ≥ ${TARGETS.rawRatio}× the raw client at 20 (${latencyMs} ms, ${int(items)} items)`,
				measured: value === undefined ? 'not measured' : `${ratio(value)} (${int(node ?? 0)} vs ${int(raw ?? 0)} items/s)`,
				met: value === undefined ? undefined : value >= TARGETS.rawRatio,
				detail:
					value === undefined
						? ''
						: value >= TARGETS.rawRatio
							? `${((value / TARGETS.rawRatio - 1) * 100).toFixed(0)} % above the target`
							: `${((1 - value / TARGETS.rawRatio) * 100).toFixed(0)} % below the target (${ratio(TARGETS.rawRatio - value)} short)`,
			});
		}
	}
	for (const result of prepare.filter((r) => r.mode === 'literal')) {
		const value = result.wall.prepareUs;
		verdicts.push({
			target: `Validation + build ≤ ${TARGETS.prepareUs} µs per item: ${result.operation}`,
			measured: `${us(value)} µs (node's own share ${us(result.wall.buildValidateUs)} µs; with expressions ${us(
				prepare.find((r) => r.operation === result.operation && r.mode === 'expressions')?.wall.prepareUs ?? NaN,
			)} µs)`,
			met: value <= TARGETS.prepareUs,
			detail:
				value <= TARGETS.prepareUs
					? `${us(TARGETS.prepareUs - value)} µs to spare`
					: `${us(value - TARGETS.prepareUs)} µs over (${ratio(value / TARGETS.prepareUs)} the budget)`,
		});
	}
	const memory = results.memory().find((m) => m.result.spec.kind === 'node' && m.latencyMs === 0);
	const growth = memory?.result.memory?.growthMb;
	verdicts.push({
		target: `Peak RSS of the 10,000-item run grows by ≤ ${TARGETS.rssGrowthMb} MB (node at its defaults, 0 ms)`,
		measured:
			growth === undefined || !memory?.result.memory
				? 'not measured'
				: `+${growth} MB (${memory.result.memory.baselineMb} → ${memory.result.memory.peakMb} MB; heap retained after a full GC +${memory.result.memory.retainedHeapMb} MB)`,
		met: growth === undefined ? undefined : growth <= TARGETS.rssGrowthMb,
		detail:
			growth === undefined
				? ''
				: growth <= TARGETS.rssGrowthMb
					? `${Math.round(TARGETS.rssGrowthMb - growth)} MB to spare`
					: `${Math.round(growth - TARGETS.rssGrowthMb)} MB over`,
	});
	return verdicts;
}

function prepareTable(prepare: PrepareResult[]): string {
	return table(
		[
			'Operation',
			'Parameters',
			'`prepare` µs/item (median)',
			'of which n8n `getNodeParameter`',
			"node's own build + validate",
			'`prepare` CPU µs/item',
			'Runs (µs/item)',
		],
		prepare.map((r) => [
			r.operation,
			r.mode === 'literal' ? 'fixed values' : '`{{ $json… }}` expressions',
			`**${us(r.wall.prepareUs)}**`,
			us(r.wall.readUs),
			us(r.wall.buildValidateUs),
			us(r.cpu.prepareUs),
			r.wall.reps.map(us).join(', '),
		]),
	);
}

function memoryTable(results: Results, adaptive: Facts['adaptive']): string {
	return table(
		[
			'Run (fresh process)',
			'Items',
			'Latency',
			'Baseline RSS',
			'Peak RSS',
			'Growth',
			'Peak heap in use',
			'Retained after full GC',
			'Items/s',
			'Max in flight',
			'Samples',
		],
		results.memory().map((measured) => {
			const { memory, reps, problem, spec } = measured.result;
			const name = `${clientName(measured, results)}, concurrency ${concurrencyLabel(measured, results, adaptive)}`;
			const where = [name, int(spec.items), `${measured.latencyMs} ms`];
			if (!memory) return [...where, `failed: ${(problem ?? '').split('\n')[0]}`, '', '', '', '', '', '', ''];
			return [
				...where,
				`${memory.baselineMb} MB`,
				`${memory.peakMb} MB`,
				`**+${memory.growthMb} MB**`,
				`${memory.peakHeapMb} MB`,
				`+${memory.retainedHeapMb} MB`,
				reps[0] ? int(reps[0].itemsPerSecond) : '—',
				reps[0] ? int(reps[0].maxInFlight) : '—',
				int(memory.samples),
			];
		}),
	);
}

function profileTable(results: Results, adaptive: Facts['adaptive']): string {
	const legs = results.profiles();
	const components = [...new Set(legs.flatMap((m) => (m.result.profile ?? []).map((share) => share.component)))];
	const share = (m: Measured, component: string) =>
		m.result.profile?.find((entry) => entry.component === component)?.percent ?? 0;
	components.sort((a, b) => share(legs[0], b) - share(legs[0], a));
	return table(
		[
			'Component',
			...legs.map(
				(m) =>
					`${clientName(m, results)}, concurrency ${concurrencyLabel(m, results, adaptive)} (${int(m.result.spec.items)} items, ${m.latencyMs} ms)`,
			),
		],
		components.map((component) => [component, ...legs.map((m) => `${share(m, component).toFixed(1)} %`)]),
	);
}

function analysis(prepare: PrepareResult[], results: Results): string[] {
	const lines: string[] = [];
	const sms = (mode: 'literal' | 'expressions') =>
		prepare.find((r) => r.operation.startsWith('SMS') && r.mode === mode)?.wall;
	const smsExpressions = sms('expressions');

	lines.push('### Node vs the raw client (goal 1)', '');
	for (const latencyMs of [0, 100]) {
		const counts = [...new Set(results.throughput(latencyMs).map((m) => m.result.spec.items))];
		const items = Math.max(...counts);
		const raw = rate(results.find(latencyMs, 'raw', items, 20));
		const fresh = rate(results.find(latencyMs, 'rawNoKeepAlive', items, 20));
		const helper = rate(results.find(latencyMs, 'n8nHelper', items, 20));
		const node = rate(results.find(latencyMs, 'node', items, 20));
		if (!raw || !fresh || !helper || !node) continue;
		const extraUs = (1 / node - 1 / helper) * 1e6;
		lines.push(
			`- **Where the gap goes at ${latencyMs} ms** (${int(items)} items, concurrency 20; raw keep-alive client ` +
				`${int(raw)} items/s = 1.00×):`,
			`  - opening a new connection for every request, as n8n-core does: ${int(fresh)} items/s (${ratio(fresh / raw)});`,
			`  - n8n-core's \`httpRequestWithAuthentication\` in n8n's engine with nothing else per item: ${int(helper)} ` +
				`items/s (${ratio(helper / raw)}) — per request a new http agent and connection, axios and ` +
				`follow-redirects, the proxy-environment look-up, and the credential's header expression;`,
			`  - this node (its sends go through that same helper): ${int(node)} ` +
				`items/s (${ratio(node / raw)}; ${ratio(node / helper)} of the helper alone)` +
				(extraUs > 0
					? `, ${us(extraUs)} µs more per item than the helper alone`
					: `, ${us(-extraUs)} µs less per item than the helper alone`) +
				(smsExpressions
					? `. \`prepare\` for SMS → Send with the legs' two \`{{ $json… }}\` parameters, measured on its ` +
						`own, costs ${us(smsExpressions.prepareUs)} µs/item (n8n's \`getNodeParameter\` and the node's ` +
						`build and validation), which the helper-alone leg does not pay; the rest is the node's per-item ` +
						`bookkeeping (options, output items), the garbage collection that comes with it, and run-to-run noise.`
					: '.'),
		);
		if (latencyMs > 0) {
			const node0 = rate(results.find(0, 'node', 10000, 20)) ?? rate(results.find(0, 'node', 1000, 20));
			if (node0) {
				const cpuMs = 1000 / node0;
				lines.push(
					`  - Latency does not hide the CPU cost, because all 20 workers share one JavaScript thread: at 0 ms ` +
						`the node needs about ${cpuMs.toFixed(1)} ms of CPU per item (1 ÷ ${int(node0)} items/s), so a round ` +
						`of 20 requests holds the thread for about ${Math.round(20 * cpuMs)} ms next to the ${latencyMs} ms ` +
						`wait — roughly ${int((20 * 1000) / (latencyMs + 20 * cpuMs))} items/s instead of ` +
						`${int((20 * 1000) / latencyMs)}. The raw client needs a small fraction of a millisecond per request.`,
				);
			}
		}
	}
	const media = (mode: 'literal' | 'expressions') =>
		prepare.find((r) => r.operation.startsWith('Chat → Send Media') && r.mode === mode)?.wall;
	const mediaLiteral = media('literal');
	const mediaExpressions = media('expressions');
	if (mediaLiteral && mediaExpressions) {
		lines.push(
			`- **n8n's expression engine.** The throughput legs write both parameters as \`{{ $json.phone }}\` and ` +
				`\`{{ $json.message }}\`, as the HTTP Request node's two body parameters are; both nodes read every ` +
				`parameter through n8n's \`getNodeParameter\`, so n8n's expression engine evaluates them. What that ` +
				`engine costs shows with a longer expression: Send Media's link written as ` +
				`\`{{ "https://…" + $json.order + ".pdf" }}\` costs ${us(mediaExpressions.readUs)} µs/item to read against ` +
				`${us(mediaLiteral.readUs)} µs with a fixed link: about ${us(mediaExpressions.readUs - mediaLiteral.readUs)} µs ` +
				`for one expression, all inside n8n-workflow (each evaluation builds a new WorkflowDataProxy and sandbox ` +
				`context, luxon DateTimes for \`$now\`/\`$today\`, and reads \`process.ppid\`).`,
		);
	}
	lines.push(
		`- **In short:** without latency the gap to the raw keep-alive client is n8n's request helper's: every ` +
			`call builds a new agent and a new TLS connection (axios, follow-redirects, the proxy look-up), so no ` +
			`node built on it gets past the helper-alone row. The node's own code (options, building, zod ` +
			`validation, the scheduler) is a few per cent of the CPU time (see "Where the CPU time goes").`,
		'',
	);

	lines.push('### Node vs the HTTP Request node without latency', '');
	const node0 = rate(results.find(0, 'node', 10000, 'defaults'));
	const http0 = rate(results.find(0, 'httpNode', 10000));
	const helper0 = rate(results.find(0, 'n8nHelper', 10000, 20));
	if (node0 && http0) {
		lines.push(
			`- Without latency both are CPU-bound in the same engine: the node at its defaults does ${int(node0)} items/s ` +
				`against the HTTP Request node's ${int(http0)} (${ratio(node0 / http0)}, 10,000 items). Both read the same two ` +
				`body expressions per item, and both send through n8n-core's request helpers (axios, a new https ` +
				`connection per request): the HTTP Request node all items at once, this node through its pacing. ` +
				`The ceiling for either is the helper-alone row` +
				(helper0 ? ` (${int(helper0)} items/s with no per-item parameters at all).` : '.'),
		);
	}
	lines.push('');

	lines.push('### Validation + build (goal 3)', '');
	const literal = prepare.filter((r) => r.mode === 'literal');
	const within = literal.filter((r) => r.wall.prepareUs <= TARGETS.prepareUs).map((r) => r.operation);
	const over = literal.filter((r) => r.wall.prepareUs > TARGETS.prepareUs).map((r) => r.operation);
	lines.push(
		`- Within ${TARGETS.prepareUs} µs: ${within.length ? within.join(', ') : 'none'}; over: ${over.length ? over.join(', ') : 'none'}. ` +
			`With \`{{ }}\` expressions every kind is far over, and that part is n8n's (see goal 1). ` +
			`A sampling heap profile of Send Template's ` +
			`\`prepare\` (taken while writing this bench, not re-run by it) showed about 63 KB allocated per item: ` +
			`about half in zod 3's object and effects parsing (the nested template message, its \`superRefine\` over ` +
			`the components, the https-URL refinements), about a quarter in n8n's \`getNodeParameter\` (deep copies ` +
			`of collection parameters and of the node for \`getNode()\`), the rest in the node's building, the ` +
			`placeholder check and the preview. That allocation rate makes garbage collection a large part of the ` +
			`time. The node's own share (the column "node's own build + validate") is what a leaner validator ` +
			`could reduce; the bench measures and does not tune.`,
		'',
	);

	lines.push('### Memory (goal 4)', '');
	const nodeMemory = results.memory().find((m) => m.result.spec.kind === 'node' && m.latencyMs === 0)?.result;
	const httpMemory0 = results.memory().find((m) => m.result.spec.kind === 'httpNode' && m.latencyMs === 0)?.result;
	if (nodeMemory?.memory) {
		const { growthMb, peakHeapMb, retainedHeapMb } = nodeMemory.memory;
		lines.push(
			`- The node's ${int(nodeMemory.spec.items)}-item run grew RSS by ${growthMb} MB at its peak, with up to ${peakHeapMb} MB of V8 heap ` +
				`in use; after a full garbage collection, with the run's data still referenced, the heap held only ` +
				`${retainedHeapMb} MB more than before the run (about ${us((retainedHeapMb * 1024) / nodeMemory.spec.items)} KB ` +
				`per item: the input items and the output items n8n keeps for the execution). The peak is garbage that ` +
				`V8 has not collected yet — short-lived request and answer objects, streams and buffers, ` +
				`expression proxies and validation results, promoted to the old generation while requests are in ` +
				`flight — not data the node holds on to, so it depends on V8's heap sizing more than on the node.`,
		);
	}
	if (httpMemory0?.memory) {
		lines.push(
			`- The HTTP Request node at its defaults grew by ${httpMemory0.memory.growthMb} MB in the same run: it ` +
				`builds every request (and, with latency, holds every socket) at once.`,
		);
	}
	return lines;
}

/** The item count of the pacing legs in this run (2,000; a tenth in a quick run). */
function pacingItems(results: Results): number {
	const counts = results.throughput(0).filter((m) => results.isDefaults(m)).map((m) => m.result.spec.items);
	return counts.length ? Math.min(...counts) : PACING.items;
}

function pacingTargets(results: Results): PacingVerdict[] {
	const verdicts: PacingVerdict[] = [];
	const items = pacingItems(results);
	{
		const node = seconds(results.find(0, 'node', items, 'defaults'));
		const http = seconds(results.find(0, 'httpNode', items));
		const value = node !== undefined && http !== undefined ? http / node : undefined;
		verdicts.push({
			target: `(1) 0 ms: node at its defaults not slower than the HTTP Request node (${int(items)} items)`,
			measured: value === undefined ? 'not measured' : `${secs(node)} vs ${secs(http)}: the node ${ratio(value)} the HTTP Request node's speed`,
			met: value === undefined ? undefined : value >= PACING.fasterThanHttp,
			detail: value === undefined ? '' : shortfall(value, PACING.fasterThanHttp),
		});
	}
	const pinned = results
		.throughput(100)
		.filter((m) => m.result.spec.kind === 'node' && m.result.spec.concurrency !== undefined)
		.sort((a, b) => (a.result.spec.concurrency ?? 0) - (b.result.spec.concurrency ?? 0));
	for (const leg of pinned) {
		const c = leg.result.spec.concurrency as number;
		const node = rate(leg);
		const raw = rate(results.find(100, 'raw', leg.result.spec.items, c));
		const value = node !== undefined && raw !== undefined ? node / raw : undefined;
		// n8n's request helper alone at the same concurrency (the node's only client), where measured.
		const helper = rate(results.find(100, 'n8nHelper', leg.result.spec.items, c));
		const helperNote =
			helper !== undefined && raw !== undefined
				? `; n8n's request helper alone at ${c}: ${(helper / raw).toFixed(3)}× the raw client, the node ${((node ?? 0) / helper).toFixed(3)}× the helper`
				: '';
		verdicts.push({
			target: `(2) 100 ms: node at Concurrency ${c} ≥ ${PACING.pinnedVsRaw}× the raw client at ${c} (${int(leg.result.spec.items)} items)`,
			measured:
				value === undefined
					? 'not measured'
					: `${value.toFixed(3)}× (${(node ?? 0).toFixed(1)} vs ${(raw ?? 0).toFixed(1)} items/s)${helperNote}`,
			met: value === undefined ? undefined : value >= PACING.pinnedVsRaw,
			detail: value === undefined ? '' : shortfall(value, PACING.pinnedVsRaw),
		});
	}
	{
		const nodeLeg = results.find(100, 'node', items, 'defaults');
		const httpLeg = results.find(100, 'httpNode', items);
		const node = rate(nodeLeg);
		const http = rate(httpLeg);
		const value = node !== undefined && http !== undefined ? node / http : undefined;
		verdicts.push({
			target: `(3) 100 ms: node at its defaults ≥ ${PACING.defaultsVsHttp}× the HTTP Request node's throughput (${int(items)} items)`,
			measured:
				value === undefined
					? 'not measured'
					: `${ratio(value)} (${secs(seconds(nodeLeg))} vs ${secs(seconds(httpLeg))}; ${int(node ?? 0)} vs ${int(http ?? 0)} items/s)`,
			met: value === undefined ? undefined : value >= PACING.defaultsVsHttp,
			detail: value === undefined ? '' : shortfall(value, PACING.defaultsVsHttp),
		});
	}
	return verdicts;
}

function pacingTable(results: Results, facts: Facts): string {
	const items = pacingItems(results);
	const service = (m: Measured) =>
		m.rateLimit
			? `${m.rateLimit.perSecond}/s, Retry-After ${m.rateLimit.retryAfter}`
			: `${m.latencyMs} ms`;
	const compared = (m: Measured) =>
		['node', 'httpNode', 'raw'].includes(m.result.spec.kind) && !results.isSandboxAlone(m);
	const legs = [
		...results.throughput(0).filter((m) => compared(m) && m.result.spec.items === items && [undefined, 20].includes(m.result.spec.concurrency)),
		...results.throughput(100).filter(
			(m) => compared(m) && (m.result.spec.items === items || m.result.spec.concurrency !== undefined) && !(m.result.spec.kind === 'httpNode' && m.result.spec.items !== items),
		),
	];
	const order = (m: Measured) =>
		(m.rateLimit ? 2 : m.latencyMs === 0 ? 0 : 1) * 1000 +
		(m.result.spec.concurrency ?? 0) * 2 +
		(['node', 'httpNode', 'raw'].indexOf(m.result.spec.kind) === 2 ? 1 : 0) +
		(m.result.spec.kind === 'httpNode' ? 0.5 : 0);
	legs.sort((a, b) => order(a) - order(b));
	return table(
		[
			'Service',
			'Client',
			'Concurrency',
			'Items',
			'Time (median)',
			'Runs (s)',
			'Items/s',
			'Requests',
			'429s',
			'Delivered',
			'Failed',
			'Twice',
			'Max in flight',
		],
		legs.map((m) => {
			const { reps, spec, problem } = m.result;
			const pick = (f: (rep: LegResult['reps'][number]) => number) => reps.map(f).join(', ');
			const time = reps.length ? median(reps.map((rep) => rep.ms / 1000)) : undefined;
			return [
				service(m),
				clientName(m, results),
				concurrencyLabel(m, results, facts.adaptive),
				int(spec.items),
				time === undefined ? `failed: ${(problem ?? '').split('\n')[0]}` : `**${secs(time)}**`,
				reps.map((rep) => (rep.ms / 1000).toFixed(2)).join(', '),
				time === undefined ? '—' : int(spec.items / time),
				pick((rep) => rep.received),
				pick((rep) => rep.rateLimited),
				pick((rep) => rep.delivered),
				pick((rep) => rep.failedItems),
				pick((rep) => rep.duplicates),
				m.latencyMs > 0 || m.rateLimit ? pick((rep) => rep.maxInFlight) : '—',
			];
		}),
	);
}

function pacingAnalysis(results: Results, facts: Facts): string[] {
	const lines: string[] = [];
	const items = pacingItems(results);
	const defaults100 = results.find(100, 'node', items, 'defaults');
	if (defaults100?.result.reps.length) {
		lines.push(
			`- **Adapting upward:** with 100 ms latency the node at its defaults reached ` +
				`${int(Math.max(...defaults100.result.reps.map((rep) => rep.maxInFlight)))} requests in flight (ceiling ` +
				`${facts.adaptive.ceiling}) from ${facts.adaptive.initial}; the HTTP Request node at its defaults had ` +
				`${int(Math.max(0, ...(results.find(100, 'httpNode', items)?.result.reps.map((rep) => rep.maxInFlight) ?? [])))} in flight — every item at once.`,
		);
	}
	const httpLimited = results.rateLimited().find((m) => m.result.spec.kind === 'httpNode');
	const rep = httpLimited?.result.reps[0];
	if (httpLimited && rep) {
		lines.push(
			`- **A client without pacing against the same limit:** the HTTP Request node at its defaults sent all ` +
				`${int(httpLimited.result.spec.items)} requests at once; the service delivered ${int(rep.delivered)} and ` +
				`refused ${int(rep.rateLimited)} with 429` +
				(rep.runError ? `, and the node failed the run ("${rep.runError.split('\n')[0]}")` : '') +
				` — unless a workflow adds its own retry and batching, the rest are lost.`,
		);
	}
	const none = results.rateLimited().find((m) => results.isDefaults(m) && m.rateLimit?.retryAfter === 'none');
	const noneRep = none?.result.reps[0];
	if (none && noneRep && noneRep.ms / 1000 > PACING.idealFactor * (none.result.spec.items / facts.rateLimitPerSecond)) {
		lines.push(
			`- **Without Retry-After** the run took ${(noneRep.ms / 1000).toFixed(2)} s. A refused item waits 1 s while ` +
				`others get through and backs off exponentially only when nothing does; the virtual-clock tests ` +
				`(test/nodes/MultiChannelNotification/helpers/scheduler.test.ts) replay this case deterministically.`,
		);
	}
	const verdicts = pacingTargets(results);
	const speedMissed = verdicts.some((v) => /^\((1|2|3)\)/.test(v.target) && v.met === false);
	const node0 = rate(results.find(0, 'node', items, 'defaults'));
	if (speedMissed && node0) {
		const perItemMs = 1000 / node0;
		const c = 100;
		const rawAt = rate(results.find(100, 'raw', items, c));
		const helperAt = rate(results.find(100, 'n8nHelper', items, c));
		const nodeAt = rate(results.find(100, 'node', items, c));
		const ceiling =
			rawAt && helperAt && nodeAt
				? ` Measured in this run at ${c} in flight and 100 ms latency: n8n's request helper alone (no ` +
					`parameters, no validation) reached ${(helperAt / rawAt).toFixed(3)}× the keep-alive raw client, and ` +
					`the node ${(nodeAt / helperAt).toFixed(3)}× the helper alone.`
				: '';
		lines.push(
			`- **Why a speed target is missed: the HTTP client's CPU per request.** Without latency the node completes ` +
				`an item every ${perItemMs.toFixed(2)} ms (${int(node0)} items/s at its defaults) on one JavaScript ` +
				`thread, the sandbox taking part of the other core; most of it is n8n's request helper (a new agent ` +
				`and TLS connection per request, axios), the only HTTP client a community node may use (n8n's lint for ` +
				`community nodes forbids \`node:http\` and globals). With 100 ms latency that cost caps throughput once ` +
				`many requests are in flight: answers arrive in bursts and each waits for the thread while the ones ` +
				`before it are processed.${ceiling}`,
		);
	}
	lines.push(
		`- **Where these figures hold:** the sandbox speaks https only (a throwaway CA per run, trusted through ` +
			`\`NODE_EXTRA_CA_CERTS\`), like every real Base URL; the node sends every request through n8n's request ` +
			`helper, as it does for users. Plain-http Base URLs are refused.`,
	);
	return lines;
}

export function renderReport(
	facts: Facts,
	prepare: PrepareResult[],
	measured: Measured[],
	bursts: BurstResult[],
): { console: string; markdown: string } {
	const results = new Results(measured);
	const { adaptive } = facts;
	const verdicts = targets(prepare, results);
	const pacing = [...pacingTargets(results), ...bulkVerdicts(measured, facts), ...burstVerdicts(bursts)];
	const pacingTargetTable = table(
		['Goal', 'This run', 'Verdict', ''],
		pacing.map((v) => [v.target, v.measured, verdictText(v.met), v.detail]),
	);
	const targetTable = table(
		['Target', 'Measured', 'Verdict', ''],
		verdicts.map((v) => [v.target, v.measured, verdictText(v.met), v.detail]),
	);
	const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(' / ');
	const sandboxAlone = (latencyMs: number) =>
		results
			.throughput(latencyMs)
			.filter((m) => results.isSandboxAlone(m))
			.map((m) => `${int(rate(m) ?? 0)} items/s at concurrency ${m.result.spec.concurrency}`)
			.join(', ');
	const fastestRaw = (latencyMs: number) =>
		Math.max(
			0,
			...results
				.throughput(latencyMs)
				.filter((m) => m.result.spec.kind === 'raw')
				.map((m) => rate(m) ?? 0),
		);
	const fastestEngine = (latencyMs: number) =>
		Math.max(
			0,
			...results
				.throughput(latencyMs)
				.filter((m) => m.result.spec.kind === 'node' || m.result.spec.kind === 'httpNode')
				.map((m) => rate(m) ?? 0),
		);

	const consoleText = [
		'Pacing goals',
		pacingTargetTable,
		'',
		'Pacing legs',
		pacingTable(results, facts),
		'',
		'Rate limited: one execution of 2,000 items',
		bulkTable(measured, facts),
		'',
		'Bursts of one-item executions through real n8n',
		burstTable(bursts),
		'',
		'Throughput, cost and memory goals',
		targetTable,
		'',
		'Validating and building one request (µs per item)',
		prepareTable(prepare),
		'',
		'Throughput, sandbox answering at once (0 ms)',
		throughputTable(0, results, adaptive),
		'',
		'Throughput, sandbox holding each response 100 ms',
		throughputTable(100, results, adaptive),
		'',
		'Memory',
		memoryTable(results, adaptive),
		'',
		'Where the CPU time goes (share of sampled CPU time)',
		profileTable(results, adaptive),
		'',
	].join('\n');

	const markdown = `# Benchmarks

Measured by \`npm run bench\` (scripts/bench/) on ${facts.date.slice(0, 10)}: one machine, one run, the
median of ${facts.reps} timed runs per figure (5 for the 2,000-item legs the pacing targets compare)
unless stated. Everything runs against the local sandbox
(sandbox/server.ts) on 127.0.0.1 over https (a throwaway CA per run, scripts/with-tls.ts), and every
send of the node goes through n8n's request helper, so these are the costs of the node and of n8n,
not of a network.
Re-run it to get figures for your machine; the run took ${Math.floor(facts.seconds / 60)} min ${facts.seconds % 60} s here.

## Machine

| | |
| --- | --- |
| CPU | ${facts.cpuModel}, ${facts.cores} cores |
| Memory | ${facts.memoryGb} GB |
| Node.js | ${facts.node} (Linux ${facts.kernel}) |
| Date | ${facts.date} |
| Other load | CPU ${Math.round(facts.busyBefore * 100)} % busy in the 3 s before the start; load average (1 / 5 / 15 min) before ${load(facts.loadBefore)}, after ${load(facts.loadAfter)}${facts.loadDuring?.length ? `; 1-minute load average at the start of each leg: median ${median(facts.loadDuring).toFixed(2)}, lowest ${Math.min(...facts.loadDuring).toFixed(2)}, highest ${Math.max(...facts.loadDuring).toFixed(2)} (${facts.cores} cores)` : ''} |
| Code | ${facts.packageVersion}, commit ${facts.commit}, built dist/ |
| n8n | n8n-core ${facts.n8nCore} and n8n-workflow ${facts.n8nWorkflow} (the versions n8n 2.8.4 ships); HTTP Request node ${facts.httpRequestVersion} from n8n-nodes-base ${facts.n8nNodesBase} |
${facts.busyBefore > 0.2 ? `\n**Note:** other work was running on the machine when this run started (above). Throughput figures are lower and noisier than on an idle machine; ratios between legs are less affected than absolute numbers.\n` : ''}
## Pacing goals

The node's pacing at its defaults: ${adaptive.initial} requests in flight, one more per answer that comes back about as fast as the quickest of the last second (growth stops, and backs off, when answers slow down) up to
${adaptive.ceiling}; after the first HTTP 429 a request rate (what the service delivered in the last second, probed
upward by 10 % every clean half second; a 429 when nothing got through pauses sends for the Retry-After); a refused item
waits its Retry-After, else 1 s while others get through (1 s, 2 s, 4 s … when nothing does). Every
figure is from this run. Each n8n node is timed by its own
\`executionTime\` from the run data; ratios compare legs of this run. (B) and (W) rows: see "Rate limits" below.

${pacingTargetTable}

### Pacing legs (${int(pacingItems(results))} SMS items, except the pinned concurrencies at 100 ms: concurrency × 50)

${pacingTable(results, facts)}

${pacingAnalysis(results, facts).join('\n')}

${limitsSection(measured, bursts, facts)}

## Throughput, cost and memory goals

${targetTable}

## 1. Validating and building a request

Per-item cost of each operation's \`prepare(itemIndex)\`: read the parameters with n8n's real
\`getNodeParameter\` (expressions resolved by n8n), build the request body and validate it with zod.
Nothing is sent. A probe node with this node's exact description runs inside n8n's engine over
2,000 items (1,000 with expressions), so \`this\` is n8n-core's real ExecuteContext; it calls the
operation's \`prepare\` for every item and times the loop, then replays only the \`getNodeParameter\`
calls \`prepare\` made (recorded on item 0) to split n8n's share from the node's own. The first of
${(prepare[0]?.wall.reps.length ?? 0) + 1} passes is a warm-up; the median is over the other ${prepare[0]?.wall.reps.length ?? 0}.

${prepareTable(prepare)}

## 2. Throughput through n8n's engine

A workflow of two nodes — a source emitting the items, then the node measured — run by n8n-core's
\`WorkflowExecute\` (harness/workflowRunner.ts, the runner the tests use too).
Every item is one SMS send (\`POST /v1/sms/notification\`, \`{ phone_number, message }\`, both taken
from the item by expression, the API key in the \`Authorization\` header). Items/s = items ÷ the
measured node's own \`executionTime\` from the run data (what n8n records and shows for the node; the
raw clients: the wall-clock time of their loop). Each client configuration runs in a fresh process (its
2,000-item runs first, then its 10,000-item runs) after an untimed warm-up run; the sandbox runs in its own
process and counts every run: each item delivered exactly once, no duplicates, or the leg is
reported as failed. Where "Runs" lists one figure, that 10,000-item leg ran once to keep the
bench's run time down (the legs the targets compare ran ${facts.reps} times).

- **this node**: SMS → Send SMS from the built package (dist/), Options → Concurrency as shown;
  "adaptive ${adaptive.initial} → ${adaptive.ceiling}" is the node at its defaults (no Concurrency set).
- **HTTP Request node**: n8n's own (n8n-nodes-base ${facts.n8nNodesBase}, version ${facts.httpRequestVersion}), POST, Send Body as JSON
  with two body parameters, authentication "Generic Credential Type" → Header Auth (Authorization);
  at its defaults, and with Options → Batching of ${HTTP_BATCH.batchSize} items every ${HTTP_BATCH.batchInterval} ms (a fixed rate of
  ${int((HTTP_BATCH.batchSize * 1000) / HTTP_BATCH.batchInterval)} items/s whatever the latency, so it runs at 1,000 items only).
- **raw keep-alive client**: node:https with one keep-alive Agent and as many workers as the
  concurrency, same bodies, JSON-parsing each answer: the ceiling for that concurrency.
- **n8n's request helper alone**: a bare node in the same engine that POSTs ready-made bodies through
  n8n-core's \`httpRequestWithAuthentication\` with the same request options and worker pool as this
  node's transport — no parameters read per item, no expressions, no validation. The ceiling for
  any node built on n8n's helpers (diagnostic).
- **raw client, new connection per request**: the raw loop with a new Agent per request, as
  n8n-core's request helper does (diagnostic).
- **sandbox alone**: the raw keep-alive client at high concurrency — what the sandbox can serve.

### Sandbox answering at once (0 ms)

${throughputTable(0, results, adaptive)}

The sandbox alone served ${sandboxAlone(0)} (and up to ${int(fastestRaw(0))} items/s to the raw client
at lower concurrency); the fastest engine leg did ${int(fastestEngine(0))} items/s, so the sandbox is not what
limits the engine legs. (Without latency every request is answered
within one turn of the sandbox's event loop, so it never sees more than one request in flight.)

### Sandbox holding each response ~100 ms (\`latencyMs: 100\`)

A run is paced by concurrency ÷ latency here, so each leg's item count is chosen to take about
5 s (concurrency × 50 items, at most 1,000), the pacing legs (the node at its defaults and at 100, the
raw client at 100, the HTTP Request node) 2,000; ratios compare legs with the same item count.

${throughputTable(100, results, adaptive)}

The sandbox alone served ${sandboxAlone(100)}.

## 3. Memory

One 10,000-item run in a fresh process per row (started with \`--expose-gc\`). RSS and V8's heap in
use are sampled every 20 ms (\`process.memoryUsage()\`); the baseline is taken after n8n, the node
and a 20-item warm-up run are loaded and a full garbage collection, just before the measured run.
Peak RSS is the higher of the samples and the kernel's own high-water mark for the run (VmHWM,
reset through \`/proc/self/clear_refs\` just before it), because a node that builds all its
requests without yielding — the HTTP Request node at its defaults — keeps the sampling timer from
firing for most of the run (the "Samples" column); growth = peak RSS − baseline RSS. "Retained" is the heap in use after another full collection half
a second after the run (so closing sockets are done), with the run's result still referenced (n8n
keeps an execution's data until it is saved), minus the same before the run. The source node's input items and the engine's run data
are part of what is measured.

${memoryTable(results, adaptive)}

## Where the CPU time goes

One run per column with V8's CPU profiler on (node:inspector, started just before the run and
stopped just after, so module loading is not counted), sampled CPU time summed by whose code it
was in; idle time excluded. The profiler slows the run down, so only the shares mean anything.

${profileTable(results, adaptive)}

## What explains the misses

${analysis(prepare, results).join('\n')}

## How the HTTP Request node is run

It is loaded in-process from the n8n 2.8.4 install that scripts/n8n/lib/install.ts keeps in
\`.cache/n8n-2.8.4/\` (\`n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js\`). Its own
\`require('n8n-workflow')\` resolves to that install's copy (the same version, ${facts.n8nWorkflow}, as this
repository's), while the engine that runs it is this repository's n8n-core ${facts.n8nCore} — the same
version n8n 2.8.4 ships. The two copies of n8n-workflow only meet through plain objects and
functions on the successful path, so no child process with a separate module root was needed. n8n-core
grants the HTTP Request node type access to any credential, and the Header Auth credential's
name/value are set on the request by the node itself, exactly as in n8n.

## Reproduce

\`npm run bench\` builds the package, installs n8n 2.8.4 into \`.cache/\` if it is missing (first time
only, several minutes), and takes about ${Math.round(facts.seconds / 60)} minutes on this machine. Raw figures of this
run: [BENCHMARKS.json](BENCHMARKS.json). \`npm run bench -- --quick\` is a two-minute smoke run (a tenth of
the items, one run each) that leaves BENCHMARKS.md alone and writes \`.cache/bench/BENCHMARKS.quick.md\`;
\`npx tsx scripts/bench/run.ts --render\` rewrites BENCHMARKS.md from BENCHMARKS.json.
`;
	return { console: consoleText, markdown };
}
