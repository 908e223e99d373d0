/**
 * The end-to-end checks in real n8n, several on one n8n: the single-instance checks named share
 * one n8n, the queue checks one queue-mode set-up (Postgres, Redis, main + 2 workers), each n8n
 * started once. Every check still passes or fails on its own; the exit code is 0 only if all
 * passed. scripts/ci-e2e.sh runs them this way on each n8n version.
 *
 *   npx tsx scripts/n8n/run-checks.ts installed-package send-and-wait     (after `npm run build`)
 *   N8N_VERSION=2.41.1 npx tsx scripts/n8n/run-checks.ts queue-mode send-and-wait-queue
 *
 * The names are those below; they run in that order whatever the order given. Each check file
 * also runs alone (`npx tsx scripts/n8n/check-<name>.ts`).
 */
import { aiAgentCheck } from './check-ai-agent';
import { askTwiceCheck } from './check-ask-twice';
import { credentialCheck } from './check-credential-test';
import { editorCheck } from './check-editor';
import { formParityCheck } from './check-form-parity';
import { humanReviewCheck } from './check-human-review';
import { installedPackageCheck } from './check-installed-package';
import { keyDestinationCheck } from './check-key-destination';
import { phonePageCheck } from './check-phone-page';
import { queueModeCheck } from './check-queue-mode';
import { selfHostedCheck } from './check-self-hosted';
import { sendAndWaitCheck } from './check-send-and-wait';
import { sendAndWaitQueueCheck } from './check-send-and-wait-queue';
import { sendOnceCheck, sendOnceQueueCheck } from './check-send-once';
import type { Check } from './lib/check';
import { runChecks } from './lib/check';

const CHECKS: Record<string, Check> = {
	'installed-package': installedPackageCheck,
	'credential-test': credentialCheck,
	'key-destination': keyDestinationCheck,
	'self-hosted': selfHostedCheck,
	'ai-agent': aiAgentCheck,
	'human-review': humanReviewCheck,
	'send-and-wait': sendAndWaitCheck,
	'form-parity': formParityCheck,
	'ask-twice': askTwiceCheck,
	'send-once': sendOnceCheck,
	editor: editorCheck,
	'phone-page': phonePageCheck,
	'queue-mode': queueModeCheck,
	// It restarts n8n; the one after it swaps the workers for a fresh one.
	'send-and-wait-queue': sendAndWaitQueueCheck,
	'send-once-queue': sendOnceQueueCheck,
};

const names = process.argv.slice(2);
const unknown = names.filter((name) => !(name in CHECKS));
if (names.length === 0 || unknown.length > 0) {
	console.error(`${unknown.length ? `Unknown: ${unknown.join(', ')}. ` : ''}Name the checks to run: ${Object.keys(CHECKS).join(', ')}`);
	process.exit(2);
}
void runChecks(Object.keys(CHECKS).filter((name) => names.includes(name)).map((name) => CHECKS[name]));
