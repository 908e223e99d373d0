/**
 * Runs the reliability suite (test/reliability) and renders RELIABILITY.md from what it measured.
 *
 *   npm run reliability                       # fixed default seed
 *   RELIABILITY_SEED=123 npm run reliability  # another seed
 *
 * The tests write their figures to .cache/reliability/*.json; this script clears that folder,
 * runs jest, reads the figures and jest's own results, and writes RELIABILITY.md. The exit code
 * is jest's, so a failing test fails the command even though the report is still written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { measuredLine, measuredNow } from './release/measured';

const ROOT = path.resolve(__dirname, '..');
const FIGURES_DIR = path.join(ROOT, '.cache', 'reliability');
const JEST_RESULTS = path.join(FIGURES_DIR, 'jest-results.json');
const REPORT = path.join(ROOT, 'RELIABILITY.md');

type Json = Record<string, unknown>;

/** The part of jest's --json results this report reads. */
interface JestResults {
	numTotalTests: number;
	numPassedTests: number;
	numFailedTests: number;
	testResults: Array<{
		name: string;
		startTime: number;
		endTime: number;
		assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }>;
	}>;
}

function readJson<T>(file: string): T | undefined {
	return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const obj = (value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const fmt = (value: number) => value.toLocaleString('en');
/** A figure that may be missing from the results, formatted (missing: 0). */
const n = (value: unknown) => fmt(num(value));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const cell = (text: unknown) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const versionOf = (pkg: string) => readJson<{ version?: string }>(path.join(ROOT, 'node_modules', pkg, 'package.json'))?.version ?? '?';
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The random test key shown only as how much of it leaked. */
function maskKey(text: string): string {
	return text.replace(/mcn-live-([0-9a-f]+)/g, (_match, hex: string) => `mcn-live-⟨${hex.length} hex characters of the key⟩`);
}

function firstLine(message: string): string {
	// Jest failure messages carry ANSI colours, a diff and a stack; keep the assertion and what was received.
	const plain = message.replace(ANSI_COLOUR, '');
	const lines = plain.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('at '));
	const received =
		lines.find((line) => line.startsWith('Received string') || line.startsWith('Received:')) ??
		lines.find((line) => line.startsWith('+ ') && !/^\+ (Received|Array \[|Object \{|\]|\})/.test(line))?.replace(/^\+\s*/, '');
	return maskKey([lines[0], received].filter(Boolean).join(' — ')).slice(0, 400);
}

function main(): number {
	rmSync(FIGURES_DIR, { recursive: true, force: true });
	const measured = measuredNow();
	const started = Date.now();
	const jest = spawnSync(
		process.execPath,
		[require.resolve('jest/bin/jest'), 'test/reliability', '--json', `--outputFile=${JEST_RESULTS}`],
		{ cwd: ROOT, stdio: 'inherit', env: process.env },
	);
	const wallMs = Date.now() - started;

	const results = readJson<JestResults>(JEST_RESULTS);
	const files = results?.testResults ?? [];
	const figures: Record<string, Json> = {};
	for (const file of existsSync(FIGURES_DIR) ? readdirSync(FIGURES_DIR) : []) {
		if (file.endsWith('.json') && file !== 'jest-results.json') {
			figures[file.replace(/\.json$/, '')] = readJson<Json>(path.join(FIGURES_DIR, file)) ?? {};
		}
	}
	const [invalid, valid, faults, secrets, load, edges] = ['invalid-inputs', 'valid-inputs', 'faults', 'secrets', 'load', 'edges'].map((name) => obj(figures[name]));
	const faultyLoad = obj(load.faultyRun);
	const validPerSend = Object.entries(obj(valid.perSend)).map(([send, value]) => [send, obj(value)] as const);
	const validSum = (key: string) => validPerSend.reduce((sum, [, value]) => sum + num(value[key]), 0);
	const sum = (...values: unknown[]) => values.reduce((total: number, value) => total + num(value), 0);

	const itemsSent = sum(
		invalid.requestsReceived,
		validSum('received'),
		faults.requestsReceived,
		secrets.requestsReceived,
		load.requestsReceived,
		faultyLoad.requestsReceived,
	);
	const duplicates =
		validSum('duplicateBodies') +
		sum(faults.duplicateDeliveries, faults.resentAfterUnsafeFault, load.duplicateBodies, faultyLoad.duplicateBodies, faultyLoad.itemsReceivedMoreThanOnce);
	const scenarios = (faults.scenarios as string[] | undefined) ?? [];
	const leakReports = [...((faults.leakReports as string[] | undefined) ?? []), ...((secrets.leakReports as string[] | undefined) ?? [])];
	const lanAddress = secrets.lanAddressProbed ? ` and to this machine's own LAN address ${String(secrets.lanAddressProbed)}` : '';
	const failed = files.flatMap((file) =>
		file.assertionResults
			.filter((test) => test.status === 'failed')
			.map((test) => ({ file: path.relative(ROOT, file.name), name: test.fullName, why: firstLine(test.failureMessages.join('\n')) })),
	);
	const findings =
		failed.length === 0
			? 'None: every test passed.'
			: `${failed.length} test${failed.length === 1 ? '' : 's'} failed in this run:\n\n${failed
					.map((failure) => `- \`${failure.file}\` — ${failure.name}: ${failure.why}`)
					.join('\n')}`;
	const rows = (lines: string[]) => lines.map((line) => `${line}\n`).join('');
	const categories = Object.entries(obj(invalid.categories)).map(([name, value]) => {
		const category = obj(value);
		return `| ${cell(name)} | ${cell(category.label)} | ${n(category.inputs)} | ${n(category.failures)} | ${cell(obj(category.example).error ?? '')} |`;
	});
	const sends = validPerSend.map(
		([send, value]) =>
			`| ${send} | ${n(value.inputs)} | ${n(value.executions)} | ${n(value.received)} | ${n(value.delivered)} | ${n(value.duplicateBodies)} | ${n(value.problems)} |`,
	);
	const durations = files.map(
		(file) => `| \`${path.relative(ROOT, file.name)}\` | ${file.assertionResults.length} | ${seconds(file.endTime - file.startTime)} |`,
	);

	let report = `# Reliability

Notifications cost money and reach real people. This report comes from the reliability suite in \`test/reliability/\`, which drives the node through n8n's own engine (n8n-core \`WorkflowExecute\`) against the local sandbox of the service over real https on 127.0.0.1 (a throwaway CA per run), every send through n8n's request helper (\`httpRequestWithAuthentication\`), as for users. It checks that a bad input never turns into a send, that a fault never loses an item or sends a message twice, and that the API key never leaks.

Generated by \`npm run reliability\` on ${new Date().toISOString().slice(0, 10)} — Node ${process.version}, ${os.cpus().length} CPU cores, n8n-core ${versionOf('n8n-core')}, n8n-workflow ${versionOf('n8n-workflow')}, fast-check ${versionOf('fast-check')}; fuzz seed **${String(invalid.seed ?? valid.seed ?? '?')}** (reproduce with \`RELIABILITY_SEED=<seed> npm run reliability\`). Every figure below is from that run.

${measuredLine(measured, 'RELIABILITY.json')}

## Summary

| Figure | Value |
|---|---|
| Tests | ${fmt(results?.numPassedTests ?? 0)} passed, ${fmt(results?.numFailedTests ?? 0)} failed, of ${fmt(results?.numTotalTests ?? 0)} (wall time ${seconds(wallMs)}) |
| Invalid inputs tried | ${n(invalid.invalidInputs)} in ${fmt(Object.keys(obj(invalid.categories)).length)} categories, ${n(invalid.executions)} executions (${seconds(num(invalid.durationMs))}), plus ${n(invalid.failFastRuns)} runs without continue-on-fail |
| Requests caused by invalid inputs | ${n(invalid.requestsReceived)} |
| Invalid inputs not refused with their field's name | ${fmt(sum(invalid.failures, invalid.failFastFailures))} |
| Valid generated inputs | ${fmt(validSum('inputs'))} sent, ${fmt(validSum('delivered'))} accepted and delivered by the sandbox |
| Faults injected | ${fmt(sum(faults.faultsInjected, faultyLoad.faultsInjected))} (${n(faults.faultsInjected)} across ${fmt(scenarios.length)} scenarios on the 4 sends, ${n(faultyLoad.faultsInjected)} during a 10,000-item run), plus ${n(secrets.echoScenarios)} hostile answers echoing the key |
| Items sent (requests received by the sandbox or the hostile stand-in) | ${fmt(itemsSent)} |
| Messages sent twice (duplicate deliveries or resends after a 5xx, timeout or reset) | ${fmt(duplicates)} |
| API-key leaks found | ${fmt(sum(faults.leaks, secrets.leaks))} (scanned ${fmt(sum(faults.textsScanned, secrets.textsScanned))} outputs, errors and serialised runs, and ${fmt(sum(faults.logLinesScanned, secrets.logLinesScanned))} captured log lines) |
| Load: 10,000 items in one execution | ${n(load.outputItems)} output items, ${n(load.delivered)} delivered, ${n(load.uniqueIds)} distinct ids, in ${seconds(num(load.durationMs))} |
| Base URLs refused / connections made to them | ${n(secrets.baseUrlsRefused)} / ${n(secrets.connectionsToRefusedUrls)} |

## Open findings

${findings}

## 1. Invalid inputs

Generated with fast-check and batched as the items of one execution per parameter shape (values reach the node through expressions, as per-item data does in a workflow), with continue-on-fail on: each item must yield its own error item, \`pairedItem\` intact, whose text starts with \`Item <n>: <UI label>\`; the sandbox must receive nothing. Each input is first confirmed invalid without the node: by the sandbox's own validator (\`sandbox/validate.ts\`, a second reading of [the spec](docs/service-api.md)) or, where the node is deliberately stricter (a blank required text, a link not starting with \`https://\`), by that rule. A sample also runs without continue-on-fail, behind three valid items: the run must fail with a \`NodeOperationError\` naming the field and send nothing. Numbers are tested both with \`phoneNumberFormat: strict\` and with the default (normalizing) setting, using shapes that stay invalid after normalizing.

| Category | Field named | Inputs | Not refused correctly | Example error |
|---|---|---:|---:|---|
${rows(categories)}
## 2. Valid inputs

Generated valid parameter sets (Unicode and emoji text, padding the node trims, numbers where text is expected, messages up to ~40,000 characters, every combination of header, body parameters, quick-reply and URL buttons, JSON mode as text or as a value with numeric indexes). Numbers are already E.164 and sent with \`phoneNumberFormat: strict\`. Each delivered body must equal the request the fields describe, and the output item must carry the id of its own delivery.

| Send | Inputs | Executions | Received | Delivered | Duplicates | Problems |
|---|---:|---:|---:|---:|---:|---:|
${rows(sends)}
## 3. Faults

Each scenario runs on all four sends twice — with continue-on-fail (an invalid item first, then the faulted item, then two good ones: one output item per input item, right \`pairedItem\`, the faulted one a \`NodeApiError\` item with the HTTP code and the service's text) and without (the run stops with that \`NodeApiError\`; nothing after it is sent) — and once on SMS with 5 requests in flight. The sandbox's records decide how often each body was received and delivered. A separate run sets Rate Limit Max Wait (Seconds) to 60, so a 429 would be resent, and checks that a 5xx, a timeout and a reset are still never resent.

${rows(scenarios.map((scenario) => `- ${scenario}`))}
Runs: ${n(faults.runs)}; items in: ${n(faults.itemsIn)}; with continue-on-fail ${n(faults.continueOnFailItemsIn)} items in → ${n(faults.continueOnFailItemsOut)} items out; requests received: ${n(faults.requestsReceived)}; delivered: ${n(faults.delivered)}; duplicate deliveries: ${n(faults.duplicateDeliveries)}; resends after an unsafe fault: ${n(faults.resentAfterUnsafeFault)}; key leaks: ${n(faults.leaks)}.

## 4. Secrets

The API key is a distinctive random value per run. After every fault run and every hostile answer the suite scans the output items, the error (message and description), \`JSON.stringify\` of the whole run, and everything logged — n8n's \`LoggerProxy\` and n8n-core's injected logger at every level, \`console.*\`, raw stdout/stderr — for any 12 consecutive characters of the key, so a key cut short by truncation still counts. A hostile stand-in echoes the key back in JSON messages, other JSON fields, non-JSON pages (also cut exactly where the node shortens long pages), and headers.

Hostile answers: ${n(secrets.echoScenarios)}; leaks found: ${n(secrets.leaks)}.
${rows(leakReports.slice(0, 10).map((leak) => `- ${cell(maskKey(leak))}`))}
With Allow Plain HTTP off (the default), the credential's Base URL must be https, even to this machine: ${n(secrets.baseUrlsRefused)} refused runs (\`http://example.com\`, \`http://10.255.255.1:9\`, \`ftp://…\`, plain http to 127.0.0.1${lanAddress}, where a listener counted connections) made ${n(secrets.connectionsToRefusedUrls)} connections; https (to a listener on this machine, and to the sandbox on 127.0.0.1 and localhost) was accepted in ${n(secrets.baseUrlsAccepted)} runs.

## 5. Load

- ${n(load.items)} SMS items in one execution (default concurrency): ${n(load.outputItems)} output items; the sandbox received ${n(load.requestsReceived)} requests and delivered ${n(load.delivered)} with ${n(load.uniqueIds)} distinct ids; every item's text received exactly once; ${n(load.outputItemsNotMatchingTheirDelivery)} output items not matching their own delivery; ${seconds(num(load.durationMs))}.
- The same with ${n(faultyLoad.faultsInjected)} faults (500, 502, reset, 2xx error, 500 after delivery, 429) injected while the run was under way, continue-on-fail on, Rate Limit Max Wait (Seconds) 0 (a 429 is not resent): ${n(faultyLoad.outputItems)} output items, ${n(faultyLoad.errorItems)} error items for ${n(faultyLoad.faultsTaken)} faults taken, ${n(faultyLoad.requestsReceived)} requests received, ${n(faultyLoad.itemsReceivedMoreThanOnce)} items received more than once, ${n(faultyLoad.itemsWithWrongOutcome)} items with the wrong outcome; ${seconds(num(faultyLoad.durationMs))}.

## 6. Edges

Where the two promises (never twice; an answer counts only for its question) and the key's (only to the Base URL) could break, each tried through n8n's engine against the sandbox (\`test/reliability/edges.test.ts\`); the outcome is read from the sandbox's records.

| Edge | Tried | Outcome |
|---|---|---|
${rows(((edges.rows as Json[] | undefined) ?? []).map((row) => `| ${cell(obj(row).edge)} | ${cell(obj(row).tried)} | ${cell(obj(row).outcome)} |`))}
## Durations

| Test file | Tests | Time |
|---|---:|---:|
${rows(durations)}
Raw figures: [RELIABILITY.json](RELIABILITY.json) (and \`.cache/reliability/*.json\` after a run).
`;
	// The "Service boundary" section is kept from the file as it is: its figures come from the
	// boundary engine tests (test/nodes/MultiChannelNotification/transport), not from this run.
	const previous = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '';
	const boundary = previous.indexOf('\n## Service boundary');
	if (boundary !== -1) report += `\n${previous.slice(boundary + 1).trimEnd()}\n`;

	writeFileSync(REPORT, report);
	const tests = { total: results?.numTotalTests ?? 0, passed: results?.numPassedTests ?? 0, failed: results?.numFailedTests ?? 0 };
	writeFileSync(path.join(ROOT, 'RELIABILITY.json'), `${JSON.stringify({ measured, wallMs, tests, figures }, null, 1)}\n`);
	process.stdout.write(`\nWrote ${path.relative(ROOT, REPORT)} (${failed.length} failing test${failed.length === 1 ? '' : 's'}).\n`);
	return jest.status ?? 1;
}

process.exitCode = main();
