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

interface AssertionResult {
	fullName: string;
	status: string;
	failureMessages: string[];
}

interface FileResult {
	name: string;
	status: string;
	startTime: number;
	endTime: number;
	assertionResults: AssertionResult[];
}

interface JestResults {
	numTotalTests: number;
	numPassedTests: number;
	numFailedTests: number;
	testResults: FileResult[];
}

function readJson<T>(file: string): T | undefined {
	return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

function num(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function obj(value: unknown): Json {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

const fmt = (value: number) => value.toLocaleString('en');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const cell = (text: unknown) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function versionOf(pkg: string): string {
	const json = readJson<{ version?: string }>(path.join(ROOT, 'node_modules', pkg, 'package.json'));
	return json?.version ?? '?';
}

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
	const figures: Record<string, Json> = {};
	if (existsSync(FIGURES_DIR)) {
		for (const file of readdirSync(FIGURES_DIR)) {
			if (file.endsWith('.json') && file !== 'jest-results.json') {
				figures[file.replace(/\.json$/, '')] = readJson<Json>(path.join(FIGURES_DIR, file)) ?? {};
			}
		}
	}
	const invalid = obj(figures['invalid-inputs']);
	const valid = obj(figures['valid-inputs']);
	const faults = obj(figures.faults);
	const secrets = obj(figures.secrets);
	const load = obj(figures.load);
	const faultyLoad = obj(load.faultyRun);
	const validPerSend = Object.entries(obj(valid.perSend)).map(([send, value]) => [send, obj(value)] as const);

	const validInputs = validPerSend.reduce((sum, [, value]) => sum + num(value.inputs), 0);
	const validReceived = validPerSend.reduce((sum, [, value]) => sum + num(value.received), 0);
	const validDelivered = validPerSend.reduce((sum, [, value]) => sum + num(value.delivered), 0);
	const itemsSent =
		num(invalid.requestsReceived) +
		validReceived +
		num(faults.requestsReceived) +
		num(secrets.requestsReceived) +
		num(load.requestsReceived) +
		num(faultyLoad.requestsReceived);
	const duplicates =
		validPerSend.reduce((sum, [, value]) => sum + num(value.duplicateBodies), 0) +
		num(faults.duplicateDeliveries) +
		num(faults.resentAfterUnsafeFault) +
		num(load.duplicateBodies) +
		num(faultyLoad.duplicateBodies) +
		num(faultyLoad.itemsReceivedMoreThanOnce);
	const leaks = num(faults.leaks) + num(secrets.leaks);
	const faultsInjected = num(faults.faultsInjected) + num(faultyLoad.faultsInjected);

	const failed = (results?.testResults ?? []).flatMap((file) =>
		file.assertionResults
			.filter((test) => test.status === 'failed')
			.map((test) => ({ file: path.relative(ROOT, file.name), name: test.fullName, why: firstLine(test.failureMessages.join('\n')) })),
	);

	const out: string[] = [];
	out.push('# Reliability');
	out.push('');
	out.push(
		'Notifications cost money and reach real people. This report comes from the reliability suite in `test/reliability/`, which drives the node through n8n\'s own engine (n8n-core `WorkflowExecute`) against the local sandbox of the service over real https on 127.0.0.1 (a throwaway CA per run), every send through n8n\'s request helper (`httpRequestWithAuthentication`), as for users. It checks that a bad input never turns into a send, that a fault never loses an item or sends a message twice, and that the API key never leaks.',
	);
	out.push('');
	out.push(
		`Generated by \`npm run reliability\` on ${new Date().toISOString().slice(0, 10)} — Node ${process.version}, ${os.cpus().length} CPU cores, n8n-core ${versionOf('n8n-core')}, n8n-workflow ${versionOf('n8n-workflow')}, fast-check ${versionOf('fast-check')}; fuzz seed **${String(invalid.seed ?? valid.seed ?? '?')}** (reproduce with \`RELIABILITY_SEED=<seed> npm run reliability\`). Every figure below is from that run.`,
	);
	out.push('');
	out.push(measuredLine(measured, 'RELIABILITY.json'));
	out.push('');
	out.push('## Summary');
	out.push('');
	out.push('| Figure | Value |');
	out.push('|---|---|');
	out.push(`| Tests | ${fmt(results?.numPassedTests ?? 0)} passed, ${fmt(results?.numFailedTests ?? 0)} failed, of ${fmt(results?.numTotalTests ?? 0)} (wall time ${seconds(wallMs)}) |`);
	out.push(`| Invalid inputs tried | ${fmt(num(invalid.invalidInputs))} in ${fmt(Object.keys(obj(invalid.categories)).length)} categories, ${fmt(num(invalid.executions))} executions (${seconds(num(invalid.durationMs))}), plus ${fmt(num(invalid.failFastRuns))} runs without continue-on-fail |`);
	out.push(`| Requests caused by invalid inputs | ${fmt(num(invalid.requestsReceived))} |`);
	out.push(`| Invalid inputs not refused with their field's name | ${fmt(num(invalid.failures) + num(invalid.failFastFailures))} |`);
	out.push(`| Valid generated inputs | ${fmt(validInputs)} sent, ${fmt(validDelivered)} accepted and delivered by the sandbox |`);
	out.push(`| Faults injected | ${fmt(faultsInjected)} (${fmt(num(faults.faultsInjected))} across ${fmt((faults.scenarios as unknown[] | undefined)?.length ?? 0)} scenarios on the 4 sends, ${fmt(num(faultyLoad.faultsInjected))} during a 10,000-item run), plus ${fmt(num(secrets.echoScenarios))} hostile answers echoing the key |`);
	out.push(`| Items sent (requests received by the sandbox or the hostile stand-in) | ${fmt(itemsSent)} |`);
	out.push(`| Messages sent twice (duplicate deliveries or resends after a 5xx, timeout or reset) | ${fmt(duplicates)} |`);
	out.push(`| API-key leaks found | ${fmt(leaks)} (scanned ${fmt(num(faults.textsScanned) + num(secrets.textsScanned))} outputs, errors and serialised runs, and ${fmt(num(faults.logLinesScanned) + num(secrets.logLinesScanned))} captured log lines) |`);
	out.push(`| Load: 10,000 items in one execution | ${fmt(num(load.outputItems))} output items, ${fmt(num(load.delivered))} delivered, ${fmt(num(load.uniqueIds))} distinct ids, in ${seconds(num(load.durationMs))} |`);
	out.push(`| Base URLs refused / connections made to them | ${fmt(num(secrets.baseUrlsRefused))} / ${fmt(num(secrets.connectionsToRefusedUrls))} |`);
	out.push('');

	out.push('## Open findings');
	out.push('');
	if (failed.length === 0) {
		out.push('None: every test passed.');
	} else {
		out.push(`${failed.length} test${failed.length === 1 ? '' : 's'} failed in this run:`);
		out.push('');
		for (const failure of failed) out.push(`- \`${failure.file}\` — ${failure.name}: ${failure.why}`);
	}
	out.push('');

	out.push('## 1. Invalid inputs');
	out.push('');
	out.push(
		'Generated with fast-check and batched as the items of one execution per parameter shape (values reach the node through expressions, as per-item data does in a workflow), with continue-on-fail on: each item must yield its own error item, `pairedItem` intact, whose text starts with `Item <n>: <UI label>`; the sandbox must receive nothing. Each input is first confirmed invalid without the node: by the sandbox\'s own validator (`sandbox/validate.ts`, a second reading of the spec) or, where the node is deliberately stricter (a blank required text, a link not starting with `https://`), by that rule. A sample also runs without continue-on-fail, behind three valid items: the run must fail with a `NodeOperationError` naming the field and send nothing. Numbers are tested both with `phoneNumberFormat: strict` and with the default (normalizing) setting, using shapes that stay invalid after normalizing.',
	);
	out.push('');
	out.push('| Category | Field named | Inputs | Not refused correctly | Example error |');
	out.push('|---|---|---:|---:|---|');
	for (const [name, value] of Object.entries(obj(invalid.categories))) {
		const category = obj(value);
		const example = obj(category.example);
		out.push(`| ${cell(name)} | ${cell(category.label)} | ${fmt(num(category.inputs))} | ${fmt(num(category.failures))} | ${cell(example.error ?? '')} |`);
	}
	out.push('');

	out.push('## 2. Valid inputs');
	out.push('');
	out.push(
		'Generated valid parameter sets (Unicode and emoji text, padding the node trims, numbers where text is expected, messages up to ~40,000 characters, every combination of header, body parameters, quick-reply and URL buttons, JSON mode as text or as a value with numeric indexes). Numbers are already E.164 and sent with `phoneNumberFormat: strict`. Each delivered body must equal the request the fields describe, and the output item must carry the id of its own delivery.',
	);
	out.push('');
	out.push('| Send | Inputs | Executions | Received | Delivered | Duplicates | Problems |');
	out.push('|---|---:|---:|---:|---:|---:|---:|');
	for (const [send, value] of validPerSend) {
		out.push(`| ${send} | ${fmt(num(value.inputs))} | ${fmt(num(value.executions))} | ${fmt(num(value.received))} | ${fmt(num(value.delivered))} | ${fmt(num(value.duplicateBodies))} | ${fmt(num(value.problems))} |`);
	}
	out.push('');

	out.push('## 3. Faults');
	out.push('');
	out.push(
		'Each scenario runs on all four sends twice — with continue-on-fail (an invalid item first, then the faulted item, then two good ones: one output item per input item, right `pairedItem`, the faulted one a `NodeApiError` item with the HTTP code and the service\'s text) and without (the run stops with that `NodeApiError`; nothing after it is sent) — and once on SMS with 5 requests in flight. The sandbox\'s records decide how often each body was received and delivered. A separate run sets Rate Limit Max Wait (Seconds) to 60, so a 429 would be resent, and checks that a 5xx, a timeout and a reset are still never resent.',
	);
	out.push('');
	for (const scenario of (faults.scenarios as string[] | undefined) ?? []) out.push(`- ${scenario}`);
	out.push('');
	out.push(`Runs: ${fmt(num(faults.runs))}; items in: ${fmt(num(faults.itemsIn))}; with continue-on-fail ${fmt(num(faults.continueOnFailItemsIn))} items in → ${fmt(num(faults.continueOnFailItemsOut))} items out; requests received: ${fmt(num(faults.requestsReceived))}; delivered: ${fmt(num(faults.delivered))}; duplicate deliveries: ${fmt(num(faults.duplicateDeliveries))}; resends after an unsafe fault: ${fmt(num(faults.resentAfterUnsafeFault))}; key leaks: ${fmt(num(faults.leaks))}.`);
	out.push('');

	out.push('## 4. Secrets');
	out.push('');
	out.push(
		'The API key is a distinctive random value per run. After every fault run and every hostile answer the suite scans the output items, the error (message and description), `JSON.stringify` of the whole run, and everything logged — n8n\'s `LoggerProxy` and n8n-core\'s injected logger at every level, `console.*`, raw stdout/stderr — for any 12 consecutive characters of the key, so a key cut short by truncation still counts. A hostile stand-in echoes the key back in JSON messages, other JSON fields, non-JSON pages (also cut exactly where the node shortens long pages), and headers.',
	);
	out.push('');
	out.push(`Hostile answers: ${fmt(num(secrets.echoScenarios))}; leaks found: ${fmt(num(secrets.leaks))}.`);
	for (const report of [...((faults.leakReports as string[] | undefined) ?? []), ...((secrets.leakReports as string[] | undefined) ?? [])].slice(0, 10)) {
		out.push(`- ${cell(maskKey(report))}`);
	}
	out.push('');
	out.push(
		`With Allow Plain HTTP off (the default), the credential's Base URL must be https, even to this machine: ${fmt(num(secrets.baseUrlsRefused))} refused runs (\`http://example.com\`, \`http://10.255.255.1:9\`, \`ftp://…\`, plain http to 127.0.0.1${secrets.lanAddressProbed ? ' and to this machine\'s own LAN address ' + String(secrets.lanAddressProbed) : ''}, where a listener counted connections) made ${fmt(num(secrets.connectionsToRefusedUrls))} connections; https (to a listener on this machine, and to the sandbox on 127.0.0.1 and localhost) was accepted in ${fmt(num(secrets.baseUrlsAccepted))} runs.`,
	);
	out.push('');

	out.push('## 5. Load');
	out.push('');
	out.push(`- ${fmt(num(load.items))} SMS items in one execution (default concurrency): ${fmt(num(load.outputItems))} output items; the sandbox received ${fmt(num(load.requestsReceived))} requests and delivered ${fmt(num(load.delivered))} with ${fmt(num(load.uniqueIds))} distinct ids; every item's text received exactly once; ${fmt(num(load.outputItemsNotMatchingTheirDelivery))} output items not matching their own delivery; ${seconds(num(load.durationMs))}.`);
	out.push(`- The same with ${fmt(num(faultyLoad.faultsInjected))} faults (500, 502, reset, 2xx error, 500 after delivery, 429) injected while the run was under way, continue-on-fail on, Rate Limit Max Wait (Seconds) 0 (a 429 is not resent): ${fmt(num(faultyLoad.outputItems))} output items, ${fmt(num(faultyLoad.errorItems))} error items for ${fmt(num(faultyLoad.faultsTaken))} faults taken, ${fmt(num(faultyLoad.requestsReceived))} requests received, ${fmt(num(faultyLoad.itemsReceivedMoreThanOnce))} items received more than once, ${fmt(num(faultyLoad.itemsWithWrongOutcome))} items with the wrong outcome; ${seconds(num(faultyLoad.durationMs))}.`);
	out.push('');

	out.push('## Durations');
	out.push('');
	out.push('| Test file | Tests | Time |');
	out.push('|---|---:|---:|');
	for (const file of results?.testResults ?? []) {
		out.push(`| \`${path.relative(ROOT, file.name)}\` | ${file.assertionResults.length} | ${seconds(file.endTime - file.startTime)} |`);
	}
	out.push('');
	out.push('Raw figures: [RELIABILITY.json](RELIABILITY.json) (and `.cache/reliability/*.json` after a run).');
	out.push('');

	// The "Service boundary" section is kept from the file as it is: its figures come from the
	// boundary engine tests (test/nodes/MultiChannelNotification/transport), not from this run.
	const previous = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '';
	const boundary = previous.indexOf('\n## Service boundary');
	if (boundary !== -1) out.push(previous.slice(boundary + 1).trimEnd(), '');

	writeFileSync(REPORT, out.join('\n'));
	const tests = { total: results?.numTotalTests ?? 0, passed: results?.numPassedTests ?? 0, failed: results?.numFailedTests ?? 0 };
	writeFileSync(path.join(ROOT, 'RELIABILITY.json'), `${JSON.stringify({ measured, wallMs, tests, figures }, null, 1)}\n`);
	process.stdout.write(`\nWrote ${path.relative(ROOT, REPORT)} (${failed.length} failing test${failed.length === 1 ? '' : 's'}).\n`);
	return jest.status ?? 1;
}

process.exitCode = main();
