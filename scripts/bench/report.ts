/**
 * Turns the bench's measurements into the console table and BENCHMARKS.md: machine facts, the
 * targets (met / missed, by how much), the per-item prepare cost, throughput with ratios, memory,
 * and what explains the misses.
 */
import type { LegResult, PrepareResult } from './common';
import { HTTP_BATCH, median } from './common';

export interface Facts {
	date: string;
	cpuModel: string;
	cores: number;
	memoryGb: number;
	node: string;
	kernel: string;
	loadBefore: number[];
	loadAfter: number[];
	/** Share of CPU time busy (any process) during 3 s just before the bench started. */
	busyBefore: number;
	commit: string;
	packageVersion: string;
	n8nCore: string;
	n8nWorkflow: string;
	n8nNodesBase: string;
	httpRequestVersion: number;
	nodeDefaultConcurrency: number;
	reps: number;
	seconds: number;
}

export interface Measured {
	latencyMs: number;
	result: LegResult;
}

const TARGETS = {
	rawRatio: 0.9,
	httpRatio: 3,
	prepareUs: 20,
	rssGrowthMb: 150,
};

function int(value: number): string {
	return Math.round(value).toLocaleString('en-US');
}

function ratio(value: number | undefined): string {
	return value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}×`;
}

function us(value: number): string {
	return value.toFixed(1);
}

function rate(measured: Measured | undefined): number | undefined {
	if (!measured || measured.result.problem || measured.result.reps.length === 0) return undefined;
	return median(measured.result.reps.map((rep) => rep.itemsPerSecond));
}

function table(header: string[], rows: string[][]): string {
	const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`];
	for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
	return lines.join('\n');
}

class Results {
	constructor(
		private readonly all: Measured[],
		private readonly nodeDefault: number,
	) {}

	concurrencyOf(measured: Measured): number | undefined {
		const { spec } = measured.result;
		return spec.concurrency ?? (spec.kind === 'node' ? this.nodeDefault : undefined);
	}

	throughput(latencyMs: number): Measured[] {
		return this.all.filter((m) => m.latencyMs === latencyMs && !m.result.spec.memory && !m.result.spec.profile);
	}

	memory(): Measured[] {
		return this.all.filter((m) => m.result.spec.memory);
	}

	profiles(): Measured[] {
		return this.all.filter((m) => m.result.spec.profile && m.result.profile);
	}

	find(latencyMs: number, kind: string, items: number, concurrency?: number): Measured | undefined {
		return this.throughput(latencyMs).find(
			(m) =>
				m.result.spec.kind === kind &&
				m.result.spec.items === items &&
				(concurrency === undefined || this.concurrencyOf(m) === concurrency),
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
	return {
		node: 'this node',
		httpNode: 'HTTP Request node, defaults',
		httpNodeBatching: `HTTP Request node, batching ${HTTP_BATCH.batchSize} items / ${HTTP_BATCH.batchInterval} ms`,
		n8nHelper: "n8n's request helper alone",
		raw: 'raw keep-alive client',
		rawNoKeepAlive: 'raw client, new connection per request',
	}[kind];
}

function concurrencyLabel(measured: Measured, results: Results, nodeDefault: number): string {
	const { kind, concurrency } = measured.result.spec;
	if (kind === 'httpNode') return 'unlimited';
	if (kind === 'httpNodeBatching') return `${HTTP_BATCH.batchSize} per ${HTTP_BATCH.batchInterval} ms`;
	if (kind === 'node' && concurrency === undefined) return `${nodeDefault} (default)`;
	return String(results.concurrencyOf(measured));
}

const KIND_ORDER = ['node', 'httpNode', 'httpNodeBatching', 'n8nHelper', 'rawNoKeepAlive', 'raw'];

function throughputTable(latencyMs: number, results: Results, nodeDefault: number): string {
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
			concurrencyLabel(measured, results, nodeDefault),
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

interface Verdict {
	target: string;
	measured: string;
	met: boolean | undefined;
	detail: string;
}

function verdictText(met: boolean | undefined): string {
	return met === undefined ? 'not measured' : met ? '**met**' : '**missed**';
}

function targets(prepare: PrepareResult[], results: Results, nodeDefault: number): Verdict[] {
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
	{
		// Compared at the item count the node's default ran with at 100 ms.
		const nodeLeg = results.throughput(100).find((m) => m.result.spec.kind === 'node' && results.concurrencyOf(m) === nodeDefault);
		const items = nodeLeg?.result.spec.items ?? 0;
		const node = rate(nodeLeg);
		const http = rate(results.find(100, 'httpNode', items));
		const value = node !== undefined && http !== undefined ? node / http : undefined;
		verdicts.push({
			target: `With 100 ms latency, node at its default (${nodeDefault}) ≥ ${TARGETS.httpRatio}× the HTTP Request node at its defaults (${int(items)} items)`,
			measured: value === undefined ? 'not measured' : `${ratio(value)} (${int(node ?? 0)} vs ${int(http ?? 0)} items/s)`,
			met: value === undefined ? undefined : value >= TARGETS.httpRatio,
			detail:
				value === undefined
					? ''
					: value >= TARGETS.httpRatio
						? `${ratio(value / TARGETS.httpRatio)} the target`
						: `${ratio(value / TARGETS.httpRatio)} of the target — the HTTP Request node is ${ratio(1 / value)} faster`,
		});
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
		target: `Peak RSS of the 10,000-item run grows by ≤ ${TARGETS.rssGrowthMb} MB (node at its default, 0 ms)`,
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

function memoryTable(results: Results, nodeDefault: number): string {
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
			const name = `${clientName(measured, results)}, concurrency ${concurrencyLabel(measured, results, nodeDefault)}`;
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

function profileTable(results: Results, nodeDefault: number): string {
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
					`${clientName(m, results)}, concurrency ${concurrencyLabel(m, results, nodeDefault)} (${int(m.result.spec.items)} items, ${m.latencyMs} ms)`,
			),
		],
		components.map((component) => [component, ...legs.map((m) => `${share(m, component).toFixed(1)} %`)]),
	);
}

function analysis(prepare: PrepareResult[], results: Results, nodeDefault: number): string[] {
	const lines: string[] = [];
	const sms = (mode: 'literal' | 'expressions') =>
		prepare.find((r) => r.operation.startsWith('SMS') && r.mode === mode)?.wall;
	const smsLiteral = sms('literal');
	const smsExpressions = sms('expressions');

	lines.push('### Node vs the raw client (target 1)', '');
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
			`  - this node: ${int(node)} items/s (${ratio(node / raw)}; ${ratio(node / helper)} of the helper alone), ` +
				`${us(Math.max(0, extraUs))} µs more per item than the helper alone` +
				(smsExpressions
					? `. \`prepare\` for SMS → Send with its two expressions, measured on its own, accounts for ` +
						`${us(smsExpressions.prepareUs)} µs/item of that (almost all of it n8n's expression engine); the ` +
						`rest is the node's per-item bookkeeping (request options, output items), the extra garbage ` +
						`collection that comes with it, and run-to-run noise.`
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
	if (smsLiteral && smsExpressions) {
		const perExpression = (smsExpressions.readUs - smsLiteral.readUs) / 2;
		lines.push(
			`- **n8n's expression engine.** The throughput legs read two \`{{ $json… }}\` parameters per item ` +
				`(phone number and message), as the HTTP Request node reads its two body parameters. Reading the SMS ` +
				`parameters costs ${us(smsLiteral.readUs)} µs/item with fixed values and ${us(smsExpressions.readUs)} µs/item ` +
				`with the two expressions: about ${us(perExpression)} µs per expression, all inside n8n-workflow (each ` +
				`evaluation builds a new WorkflowDataProxy and sandbox context, luxon DateTimes for \`$now\`/\`$today\`, ` +
				`and reads \`process.ppid\`). n8n also resolves the credential's \`={{$credentials.apiKey}}\` header ` +
				`expression for every request it authenticates (the bench's credential store does it as n8n's ` +
				`CredentialsHelper does), which is why the expression engine shows up for the helper alone too.`,
		);
	}
	lines.push(
		`- **In short:** reaching ${TARGETS.rawRatio}× the raw keep-alive client would need connection reuse (n8n-core's ` +
			`request helpers give nodes none: every call builds a new agent) and a much cheaper expression engine — both ` +
			`inside n8n, not in this node. The node's own code (options, building, zod validation, the worker pool) ` +
			`is a few per cent of the CPU time (see "Where the CPU time goes"); a node that must use ` +
			`\`httpRequestWithAuthentication\` (n8n's community-node rules) cannot get past the helper-alone row.`,
		'',
	);

	lines.push('### Node vs the HTTP Request node (target 2)', '');
	const httpMax = Math.max(
		0,
		...results
			.throughput(100)
			.filter((m) => m.result.spec.kind === 'httpNode')
			.flatMap((m) => m.result.reps.map((rep) => rep.maxInFlight)),
	);
	const httpMemory = results.memory().find((m) => m.result.spec.kind === 'httpNode' && m.latencyMs === 100);
	const node0 = rate(results.find(0, 'node', 10000, nodeDefault));
	const http0 = rate(results.find(0, 'httpNode', 10000));
	lines.push(
		`- **The HTTP Request node at its defaults has no concurrency limit.** Its execute starts every item's ` +
			`request before awaiting any (\`requestPromises.push(...)\`, then \`Promise.allSettled\`); the sandbox ` +
			`saw up to ${int(httpMax)} requests in flight at once` +
			(httpMemory?.result.reps[0] ? ` (${int(httpMemory.result.reps[0].maxInFlight)} in the 10,000-item run)` : '') +
			`. With 100 ms latency it finishes a run in about one round trip plus its CPU time, while this node keeps ` +
			`at most ${nodeDefault} requests in flight by default (Options → Concurrency, 1–100): at most ` +
			`${int((nodeDefault * 1000) / 100)} items/s at 100 ms. The 3× target assumed a sequential HTTP Request node; no ` +
			`bounded concurrency can meet it, and unbounded concurrency is what gets a workflow rate-limited or ` +
			`blocked by a service (and costs memory, below).`,
	);
	const helper0 = rate(results.find(0, 'n8nHelper', 10000, 20));
	if (node0 && http0) {
		lines.push(
			`- Without latency both are CPU-bound in the same engine: the node at its default does ${int(node0)} items/s ` +
				`against the HTTP Request node's ${int(http0)} (${ratio(node0 / http0)}, 10,000 items). The HTTP Request node ` +
				`reads the same two body expressions per item, but its request path is lighter: with Header Auth it sets ` +
				`the header itself and sends through n8n-core's older \`request\` helper, so no credential expression is ` +
				`resolved per request, whereas \`httpRequestWithAuthentication\`, which community nodes must use, does ` +
				`resolve one` +
				(helper0 ? ` (that helper alone, with no per-item parameters at all, did ${int(helper0)} items/s).` : '.'),
		);
	}
	lines.push('');

	lines.push('### Validation + build (target 3)', '');
	const literal = prepare.filter((r) => r.mode === 'literal');
	const within = literal.filter((r) => r.wall.prepareUs <= TARGETS.prepareUs).map((r) => r.operation);
	const over = literal.filter((r) => r.wall.prepareUs > TARGETS.prepareUs).map((r) => r.operation);
	lines.push(
		`- Within ${TARGETS.prepareUs} µs: ${within.length ? within.join(', ') : 'none'}; over: ${over.length ? over.join(', ') : 'none'}. ` +
			`With \`{{ }}\` expressions every kind is far over, and that part is n8n's (see target 1). ` +
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

	lines.push('### Memory (target 4)', '');
	const nodeMemory = results.memory().find((m) => m.result.spec.kind === 'node' && m.latencyMs === 0)?.result;
	const httpMemory0 = results.memory().find((m) => m.result.spec.kind === 'httpNode' && m.latencyMs === 0)?.result;
	if (nodeMemory?.memory) {
		const { growthMb, peakHeapMb, retainedHeapMb } = nodeMemory.memory;
		lines.push(
			`- The node's ${int(nodeMemory.spec.items)}-item run grew RSS by ${growthMb} MB at its peak, with up to ${peakHeapMb} MB of V8 heap ` +
				`in use; after a full garbage collection, with the run's data still referenced, the heap held only ` +
				`${retainedHeapMb} MB more than before the run (about ${us((retainedHeapMb * 1024) / nodeMemory.spec.items)} KB ` +
				`per item: the input items and the output items n8n keeps for the execution). The peak is garbage that ` +
				`V8 has not collected yet — short-lived request objects (axios configurations, sockets, buffers), ` +
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

export function renderReport(
	facts: Facts,
	prepare: PrepareResult[],
	measured: Measured[],
): { console: string; markdown: string } {
	const results = new Results(measured, facts.nodeDefaultConcurrency);
	const nodeDefault = facts.nodeDefaultConcurrency;
	const verdicts = targets(prepare, results, nodeDefault);
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
		'Targets',
		targetTable,
		'',
		'Validating and building one request (µs per item)',
		prepareTable(prepare),
		'',
		'Throughput, sandbox answering at once (0 ms)',
		throughputTable(0, results, nodeDefault),
		'',
		'Throughput, sandbox holding each response 100 ms',
		throughputTable(100, results, nodeDefault),
		'',
		'Memory',
		memoryTable(results, nodeDefault),
		'',
		'Where the CPU time goes (share of sampled CPU time)',
		profileTable(results, nodeDefault),
		'',
	].join('\n');

	const markdown = `# Benchmarks

Measured by \`npm run bench\` (scripts/bench/) on ${facts.date.slice(0, 10)}: one machine, one run, the
median of ${facts.reps} timed runs per figure unless stated. Everything runs against the local sandbox
(sandbox/server.ts) on 127.0.0.1, so these are the costs of the node and of n8n, not of a network.
Re-run it to get figures for your machine; the run took ${Math.floor(facts.seconds / 60)} min ${facts.seconds % 60} s here.

## Machine

| | |
| --- | --- |
| CPU | ${facts.cpuModel}, ${facts.cores} cores |
| Memory | ${facts.memoryGb} GB |
| Node.js | ${facts.node} (Linux ${facts.kernel}) |
| Date | ${facts.date} |
| Other load | CPU ${Math.round(facts.busyBefore * 100)} % busy in the 3 s before the start; load average (1 / 5 / 15 min) before ${load(facts.loadBefore)}, after ${load(facts.loadAfter)} |
| Code | ${facts.packageVersion}, commit ${facts.commit}, built dist/ |
| n8n | n8n-core ${facts.n8nCore} and n8n-workflow ${facts.n8nWorkflow} (the versions n8n 2.8.4 ships); HTTP Request node ${facts.httpRequestVersion} from n8n-nodes-base ${facts.n8nNodesBase} |
${facts.busyBefore > 0.2 ? `\n**Note:** other work was running on the machine when this run started (above). Throughput figures are lower and noisier than on an idle machine; ratios between legs are less affected than absolute numbers.\n` : ''}
## Targets

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
\`WorkflowExecute\` (the runner in scripts/bench/engine.ts mirrors test/helpers/workflowRunner.ts).
Every item is one SMS send (\`POST /v1/sms/notification\`, \`{ phone_number, message }\`, both taken
from the item by expression, the API key in the \`Authorization\` header). Items/s = items ÷ the
time of the whole workflow run. Each client configuration runs in a fresh process (its 1,000-item
runs first, then its 10,000-item runs) after an untimed warm-up run; the sandbox runs in its own
process and counts every run: each item delivered exactly once, no duplicates, or the leg is
reported as failed. Where "Runs" lists one figure, that 10,000-item leg ran once to keep the
bench within about 15 minutes (the legs the targets compare ran ${facts.reps} times).

- **this node**: SMS → Send from the built package (dist/), Options → Concurrency as shown.
- **HTTP Request node**: n8n's own (n8n-nodes-base ${facts.n8nNodesBase}, version ${facts.httpRequestVersion}), POST, Send Body as JSON
  with two body parameters, authentication "Generic Credential Type" → Header Auth (Authorization);
  at its defaults, and with Options → Batching of ${HTTP_BATCH.batchSize} items every ${HTTP_BATCH.batchInterval} ms (a fixed rate of
  ${int((HTTP_BATCH.batchSize * 1000) / HTTP_BATCH.batchInterval)} items/s whatever the latency, so it runs at 1,000 items only).
- **raw keep-alive client**: node:http with one keep-alive Agent and as many workers as the
  concurrency, same bodies, JSON-parsing each answer: the ceiling for that concurrency.
- **n8n's request helper alone**: a bare node in the same engine that POSTs ready-made bodies through
  n8n-core's \`httpRequestWithAuthentication\` with the same request options and worker pool as this
  node's transport — no parameters read per item, no expressions, no validation. The ceiling for
  any node built on n8n's helpers (diagnostic).
- **raw client, new connection per request**: the raw loop with a new Agent per request, as
  n8n-core's request helper does (diagnostic).
- **sandbox alone**: the raw keep-alive client at high concurrency — what the sandbox can serve.

### Sandbox answering at once (0 ms)

${throughputTable(0, results, nodeDefault)}

The sandbox alone served ${sandboxAlone(0)} (and up to ${int(fastestRaw(0))} items/s to the raw client
at lower concurrency); the fastest engine leg did ${int(fastestEngine(0))} items/s, so the sandbox is not what
limits the engine legs. (Without latency every request is answered
within one turn of the sandbox's event loop, so it never sees more than one request in flight.)

### Sandbox holding each response ~100 ms (\`latencyMs: 100\`)

A run is paced by concurrency ÷ latency here, so each leg's item count is chosen to take about
5 s (concurrency × 50 items, at most 1,000); ratios compare legs with the same item count.

${throughputTable(100, results, nodeDefault)}

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

${memoryTable(results, nodeDefault)}

## Where the CPU time goes

One run per column with V8's CPU profiler on (node:inspector, started just before the run and
stopped just after, so module loading is not counted), sampled CPU time summed by whose code it
was in; idle time excluded. The profiler slows the run down, so only the shares mean anything.

${profileTable(results, nodeDefault)}

## What explains the misses

${analysis(prepare, results, nodeDefault).join('\n')}

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
only, several minutes), and takes about ${Math.round(facts.seconds / 60)} minutes on this machine. Raw figures of the
last run: \`.cache/bench/results.json\`. \`npm run bench -- --quick\` is a two-minute smoke run (a tenth of
the items, one run each) that leaves BENCHMARKS.md alone and writes \`.cache/bench/BENCHMARKS.quick.md\`;
\`npx tsx scripts/bench/run.ts --render\` rewrites BENCHMARKS.md from the last full run's figures.
`;
	return { console: consoleText, markdown };
}
