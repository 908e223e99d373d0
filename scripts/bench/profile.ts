/**
 * CPU profile of one measured run, taken in-process with V8's profiler (node:inspector) so only
 * the run is sampled, then summed by component: whose code the CPU time was spent in.
 */
import type { Profiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';

const COMPONENTS: Array<[string, RegExp]> = [
	['this node (dist/)', /^(?!.*node_modules).*\/dist\/(nodes|credentials)\//],
	['n8n-nodes-base (HTTP Request node)', /node_modules\/n8n-nodes-base\//],
	['zod (this node\'s validation)', /node_modules\/zod\//],
	[
		"n8n's expression engine (n8n-workflow, luxon, tournament)",
		/node_modules\/(n8n-workflow|luxon|@n8n\/tournament|recast|esprima-next|ast-types|jmespath|lodash)\//,
	],
	["n8n-core (engine, request helper)", /node_modules\/(n8n-core|@n8n\/[^/]+)\//],
	['axios, follow-redirects, proxy-from-env', /node_modules\/(axios|follow-redirects|proxy-from-env|form-data)\//],
	['Node.js http, net, streams (JavaScript)', /^node:/],
	['bench harness', /scripts\/bench\//],
];

function componentOf(node: Profiler.ProfileNode): string | undefined {
	const { url, functionName } = node.callFrame;
	if (functionName === '(idle)') return undefined;
	if (functionName === '(garbage collector)') return 'garbage collection';
	if (url === '') return 'Node.js / V8 native (sockets, JSON, timers, …)';
	for (const [name, pattern] of COMPONENTS) if (pattern.test(url)) return name;
	return 'other';
}

/** Shares of the run's sampled CPU time (idle excluded) by component, in percent, largest first. */
export async function profileRun(run: () => Promise<void>) {
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 250 });
	await session.post('Profiler.start');
	let profile: Profiler.Profile;
	try {
		await run();
	} finally {
		// Always stop, so a failed run does not leave the profiler sampling.
		profile = (await session.post('Profiler.stop')).profile;
		session.disconnect();
	}
	// Each sample's time goes to the component of the function it caught running.
	const componentById = new Map(profile.nodes.map((node) => [node.id, componentOf(node)]));
	const byComponent = new Map<string, number>();
	(profile.samples ?? []).forEach((id, index) => {
		const component = componentById.get(id);
		if (component !== undefined) byComponent.set(component, (byComponent.get(component) ?? 0) + (profile.timeDeltas?.[index] ?? 0));
	});
	const total = [...byComponent.values()].reduce((sum, time) => sum + time, 0);
	return [...byComponent.entries()]
		.filter(([, time]) => time > 0)
		.map(([component, time]) => ({ component, percent: Math.round((time / total) * 1000) / 10 }))
		.sort((a, b) => b.percent - a.percent);
}

export type ProfileShare = Awaited<ReturnType<typeof profileRun>>[number];
