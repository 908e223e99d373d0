/**
 * Installed-package check: the package as a user gets it. `npm pack` → installed into a fresh
 * n8n user folder the way n8n installs a community package → real n8n started → the example
 * workflows (one per operation) run through it. The compatibility check: it runs on n8n 2.8.4,
 * and on any other version `N8N_VERSION` names (CI: `1.123.x`, the newest 1.123 patch).
 *
 * Asserts: the node and credential load under the package's type names; nothing but the
 * package itself was installed (no dev or peer dependencies, no zod copy); zod is resolved from
 * n8n's own node_modules (seen by a resolve hook preloaded into n8n); the sandbox received the
 * exact request bodies; every example did what it should.
 *
 *   npx tsx scripts/n8n/check-installed-package.ts                        (after `npm run build`)
 *   N8N_VERSION=1.123.x npx tsx scripts/n8n/check-installed-package.ts
 */
import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { makeTempDir } from './lib/process';
import { CREDENTIAL_TYPE, N8N_DIR, N8N_VERSION, NODE_TYPE, PACKAGE_NAME, REPO_ROOT } from './lib/config';
import { loadExamples, MEDIA_RECIPIENT, runExample } from './lib/examples';
import { installedN8nVersion } from './lib/install';
import { COMBINED_PATH, requestsTo, smsOf, WA_MESSAGE_PATH } from './lib/sandbox';
import { step } from './lib/stack';

/** Logs every `require('zod')` or `require('zod/…')` made from inside our installed package, with where it resolved. */
const ZOD_PROBE = `'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const original = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
	const resolved = original.call(this, request, parent, ...rest);
	if ((request === 'zod' || request.startsWith('zod/')) && parent && typeof parent.filename === 'string' &&
		parent.filename.includes('/node_modules/${PACKAGE_NAME}/')) {
		fs.appendFileSync(process.env.MCN_ZOD_PROBE_LOG, JSON.stringify({ from: parent.filename, resolved }) + '\\n');
	}
	return resolved;
};
`;

const EXPECTED_TEMPLATE_BODY = {
	from: '+6280011112222',
	to: '+6281234567890',
	type: 'template',
	template: {
		name: 'order_update',
		language: { policy: 'deterministic', code: 'id' },
		components: [
			{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/banners/order-shipped.jpg' } }] },
			{ type: 'body', parameters: ['Budi Santoso', 'INV-1042', 'Rp 250.000'].map((text) => ({ type: 'text', text })) },
			{ type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'track:INV-1042' }] },
			{ type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'help:INV-1042' }] },
		],
	},
};

async function body({ sandbox, stack, expect }: CheckContext, probeLog: string): Promise<void> {
	const examples = loadExamples();

	await step('n8n version', async () => {
		const version = installedN8nVersion();
		expect(N8N_VERSION.endsWith('.x') ? version.startsWith(N8N_VERSION.slice(0, -1)) : version === N8N_VERSION, `n8n ${version} is running (asked for ${N8N_VERSION})`);
	});

	await step('package installed like a community package', async () => {
		const installed = JSON.parse(readFileSync(join(stack.packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
		expect(installed.name === PACKAGE_NAME, `installed at ${stack.packageDir}`);
		expect(
			installed.dependencies === undefined && installed.devDependencies === undefined && installed.peerDependencies === undefined,
			'its package.json has no dependencies left to install (dev and peer ones stripped, as n8n does)',
		);
		const nodesDir = join(stack.userFolder, '.n8n', 'nodes');
		const modules = readdirSync(join(nodesDir, 'node_modules')).filter((entry) => !entry.startsWith('.'));
		expect(isDeepStrictEqual(modules, [PACKAGE_NAME]), 'nothing else was installed next to it', modules);
		const zodCopies = readdirSync(nodesDir, { recursive: true, encoding: 'utf8' }).filter((entry) => entry.split(sep).slice(-2).join('/') === 'zod/package.json');
		expect(zodCopies.length === 0, 'no copy of zod under .n8n/nodes', zodCopies);
		expect(!stack.userFolder.startsWith(REPO_ROOT + sep), 'the user folder is outside the repository (its node_modules cannot leak in)');
	});

	await step('node and credential types known to n8n', async () => {
		const types = await stack.client.types('nodes');
		const names = types.map((type) => type.name).filter((name) => name.includes('multiChannelNotification')).sort();
		// n8n 2.x also makes a human-review tool of every node with a Send and Wait operation.
		const expected = [NODE_TYPE, ...(N8N_VERSION.startsWith('1.') ? [] : [`${NODE_TYPE}HitlTool`]), `${NODE_TYPE}Tool`];
		expect(isDeepStrictEqual(names, expected), `the editor lists the node as ${NODE_TYPE} (and, being usable as a tool, ${expected.slice(1).join(' and ')})`, names);
		// What n8n's AI workflow builder (2.29 and newer) reads; older n8n passes it on unused.
		const node = types.find((type) => type.name === NODE_TYPE) as { builderHint?: { searchHint?: unknown } } | undefined;
		expect(typeof node?.builderHint?.searchHint === 'string', 'n8n hands on the node\'s builderHint (what the AI workflow builder reads)', node?.builderHint);
		const credentialTypes = await stack.client.types('credentials');
		expect(credentialTypes.some((type) => type.name === CREDENTIAL_TYPE), `n8n knows the credential type ${CREDENTIAL_TYPE}`);
	});

	sandbox.startChat(MEDIA_RECIPIENT);
	for (const example of examples) {
		const result = await step(`run ${example.file} through the installed package`, async () => await runExample(stack.client, example));
		expect(result.passed, `${example.file}: ${result.rows.filter((row) => row.ok).length} sent, ${example.expectedErrors} refused as expected`, result.problem ?? result.rows);
		if (example.file === 'bulk-sms.json') {
			const costs = result.rows.filter((row) => row.ok).map((row) => row.result.replace(/^.* · /, ''));
			expect(isDeepStrictEqual(costs, ['GSM-7, 1 segment', 'GSM-7, 1 segment', 'GSM-7, 1 segment']), 'each SMS sent says what it cost in its output (sms: GSM-7, 1 segment)', result.rows);
		}
	}

	await step('what the sandbox received', async () => {
		const templates = requestsTo(sandbox, WA_MESSAGE_PATH).filter((request) => (request.body as { type?: string }).type === 'template');
		expect(templates.length === 1, 'one template request');
		expect(isDeepStrictEqual(templates[0].body, EXPECTED_TEMPLATE_BODY), 'the template request body is exactly the expected one', templates[0].body);
		expect(templates[0].headers.authorization === sandbox.apiKey, 'Authorization header is the API key itself');
		const media = requestsTo(sandbox, WA_MESSAGE_PATH).filter((request) => request !== templates[0]);
		expect(
			isDeepStrictEqual(media.map((request) => (request.body as { type: string }).type).sort(), ['audio', 'document', 'image', 'video']),
			'one media request of each type',
		);
		const sms = requestsTo(sandbox).map((request) => smsOf(request).phone_number).sort();
		expect(isDeepStrictEqual(sms, ['+6281234567890', '+6281298765432', '+6285711223344']), 'three SMS sent; the non-+62 number never reached the service');
		const combined = requestsTo(sandbox, COMBINED_PATH);
		expect(combined.length === 1 && combined[0].status === 200, 'one combined failover request, accepted');
	});

	await step('zod resolved from n8n', async () => {
		const lines = readFileSync(probeLog, 'utf8').trim().split('\n').filter(Boolean);
		const resolutions = lines.map((line) => JSON.parse(line) as { from: string; resolved: string });
		expect(resolutions.length > 0, `the package required zod ${resolutions.length} times inside n8n`);
		const n8nModules = join(realpathSync(N8N_DIR), 'node_modules') + sep;
		expect(
			resolutions.every((entry) => entry.resolved.startsWith(n8nModules)),
			`every require of zod resolved into n8n's own node_modules (${resolutions[0]?.resolved})`,
			resolutions,
		);
		const zodVersion = (JSON.parse(readFileSync(join(N8N_DIR, 'node_modules', 'zod', 'package.json'), 'utf8')) as { version: string }).version;
		console.log(`    n8n's zod is ${zodVersion}`);
	});
}

export const installedPackageCheck: Check = {
	name: `installed-package check, n8n ${N8N_VERSION}`,
	prepare: () => {
		// A resolve hook preloaded into n8n logs where each require of zod from the package lands.
		const probeDir = makeTempDir('zod-probe');
		const probeFile = join(probeDir, 'zod-probe.cjs');
		const probeLog = join(probeDir, 'zod-resolutions.jsonl');
		writeFileSync(probeFile, ZOD_PROBE);
		writeFileSync(probeLog, '');
		return {
			workflows: loadExamples().map((example) => example.workflow),
			env: { NODE_OPTIONS: `--require ${probeFile}`, MCN_ZOD_PROBE_LOG: probeLog },
			run: async (context) => await body(context, probeLog),
		};
	},
};

runIfMain(module, installedPackageCheck);
