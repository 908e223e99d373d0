/**
 * Browser check: the node's panel in n8n's real editor, driven by Chromium (playwright-core).
 * For each operation it opens an example's node and asserts which fields show and hide, flips
 * the options that change the form (Define Components, Media Type), executes a step from the
 * panel and waits for its output, and saves screenshots for the docs. Then it walks the user
 * paths of lib/editorWalk.ts (paste template text, Dry Run, quick replies, failover, several
 * problems), each in a fresh workflow, asserting what the panel shows, and its Send and Wait
 * for Response walk: the node creator's actions and Human review sections, the SMS panel with
 * Approval and Free Text, a refused number, an executed step answered on the link's page, the
 * Chat Message and Combined variants, and an AI Agent's human-review step. Last, the credential
 * dialog with a service on plain http: Allow Plain HTTP off fails the test naming the switch, on
 * passes it.
 *
 *   npx tsx scripts/n8n/check-editor.ts     (after `npm run build`; needs Debian's chromium)
 *
 * CHROMIUM_PATH overrides /usr/bin/chromium; SCREENSHOT_DIR overrides docs/images/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { selectors } from 'playwright-core';

import type { CheckContext } from './lib/check';
import { runCheck } from './lib/check';
import type { Walk } from './lib/editorWalk';
import { walkCredentialSwitches, walkSendAndWait, walkUserPaths } from './lib/editorWalk';
import { startSandbox } from '../../sandbox/server';
import { loadExamples, MEDIA_RECIPIENT, sandboxCredential } from './lib/examples';
import { OWNER } from './lib/n8n';
import { startChat } from './lib/sandbox';
import { launch, step } from './lib/stack';
import { launchChromium, SCREENSHOTS } from './lib/browser';


/** Simple parameters render as `parameter-input-<name>`, fixed collections as `fixed-collection-<name>`. */
const FIXED_COLLECTIONS = new Set(['bodyParameters', 'quickReplyButtons', 'urlButton']);
const testId = (field: string): string =>
	FIXED_COLLECTIONS.has(field) ? `fixed-collection-${field}` : `parameter-input-${field}`;

const TEMPLATE_FIELDS = ['templateName', 'languageCode', 'componentsInputMode'];
const TEMPLATE_COMPONENT_FIELDS = ['bodyParameters', 'headerImageUrl', 'quickReplyButtons', 'urlButton'];
const MEDIA_FIELDS = ['mediaType', 'mediaUrl'];
const SMS_FIELDS = ['phoneNumber', 'message'];
const FAILOVER_SMS_FIELDS = ['smsPhoneNumber', 'smsMessage'];

class Editor {
	constructor(
		private readonly context: BrowserContext,
		private readonly url: string,
		private readonly expect: CheckContext['expect'],
	) {}

	async signIn(): Promise<void> {
		const page = await this.context.newPage();
		await page.goto(`${this.url}/signin`, { waitUntil: 'commit' });
		await page.locator('input[name=emailOrLdapLoginId]').fill(OWNER.email);
		await page.locator('input[name=password]').fill(OWNER.password);
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 60_000 });
		this.expect(true, `signed in as ${OWNER.email}`);
		await page.close();
	}

	/** A fresh tab per node, so unsaved edits of the last one never prompt. */
	async openNode(workflowId: string, nodeName: string): Promise<Page> {
		const page = await this.context.newPage();
		await page.goto(`${this.url}/workflow/${workflowId}`, { waitUntil: 'commit' });
		await page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`).dblclick({ timeout: 60_000 });
		await page.getByTestId('ndv').waitFor();
		await page.getByTestId('parameter-input-resource').waitFor();
		return page;
	}

	async fields(page: Page, label: string, shown: string[], hidden: string[]): Promise<void> {
		for (const field of shown) await page.getByTestId(testId(field)).first().waitFor({ state: 'visible', timeout: 30_000 });
		const wronglyShown: string[] = [];
		for (const field of hidden) if (await page.getByTestId(testId(field)).first().isVisible()) wronglyShown.push(field);
		const said = [shown.length > 0 ? `shows ${shown.join(', ')}` : '', hidden.length > 0 ? `hides ${hidden.join(', ')}` : ''];
		this.expect(wronglyShown.length === 0, `${label}: ${said.filter(Boolean).join('; ')}`, { wronglyShown });
	}

	async choose(page: Page, field: string, option: string): Promise<void> {
		await page.getByTestId(testId(field)).click();
		await page.getByRole('option', { name: option }).first().click();
	}

	async executeStep(page: Page, outputText: string[]): Promise<void> {
		await page.getByTestId('node-execute-button').click();
		const output = page.getByTestId('output-panel');
		for (const text of outputText) await output.getByText(text).first().waitFor({ timeout: 60_000 });
	}

	async screenshot(page: Page, file: string, scrollTo?: string | Locator): Promise<void> {
		if (typeof scrollTo === 'string') await page.getByTestId(testId(scrollTo)).first().scrollIntoViewIfNeeded();
		else if (scrollTo) await scrollTo.scrollIntoViewIfNeeded();
		// Close the "Node executed successfully" toasts and let transitions settle, so the
		// picture shows the panel rather than an animation.
		for (const close of await page.locator('.el-notification__closeBtn').all()) {
			if (await close.isVisible()) await close.click();
		}
		await page.waitForTimeout(800);
		await page.screenshot({ path: join(SCREENSHOTS, file) });
		console.log(`    screenshot ${join(SCREENSHOTS, file)}`);
	}
}

runCheck('browser check (n8n editor)', async ({ sandbox, expect }) => {
	mkdirSync(SCREENSHOTS, { recursive: true });
	const examples = loadExamples();
	// A second service, on plain http, for the credential dialog's Allow Plain HTTP.
	const plain = await startSandbox({ port: 0, quiet: true, plainHttp: true });
	const stack = await launch({
		label: 'editor',
		credentials: [sandboxCredential(sandbox.url, sandbox.apiKey)],
		workflows: examples.map((example) => example.workflow),
	});
	await startChat(sandbox.url, MEDIA_RECIPIENT);

	selectors.setTestIdAttribute('data-test-id');
	let browser: Browser | undefined;
	try {
		browser = await step('start Chromium and sign in', async () => {
			const started = await launchChromium();
			return started;
		});
		const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
		context.setDefaultTimeout(30_000);
		const editor = new Editor(context, stack.n8n.url, expect);
		await editor.signIn();

		await step('Chat Message → Send Template', async () => {
			const page = await editor.openNode('mcnExTemplate001', 'Send order update');
			await editor.fields(
				page,
				'Send Template (fields mode)',
				['from', 'to', ...TEMPLATE_FIELDS, ...TEMPLATE_COMPONENT_FIELDS],
				[...MEDIA_FIELDS, 'caption', ...SMS_FIELDS, ...FAILOVER_SMS_FIELDS, 'componentsJson'],
			);
			const before = sandbox.requests.length;
			await editor.executeStep(page, ['success']);
			const sent = sandbox.requests.slice(before);
			expect(
				sent.length === 1 && (sent[0].body as { type?: string }).type === 'template' && sent[0].status === 200,
				'"Execute step" sent the template and the output panel shows "success"',
				sent.map((request) => request.body),
			);
			await editor.screenshot(page, 'editor-template-send.png', 'bodyParameters');
			await editor.choose(page, 'componentsInputMode', 'Using JSON');
			await editor.fields(page, 'Send Template (JSON mode)', ['componentsJson'], TEMPLATE_COMPONENT_FIELDS);
			await editor.screenshot(page, 'editor-template-json.png', 'componentsJson');
			await page.close();
		});

		await step('Chat Message → Send Media', async () => {
			const page = await editor.openNode('mcnExMedia000001', 'Send image');
			await editor.fields(
				page,
				'Send Media (image)',
				['from', 'to', ...MEDIA_FIELDS, 'caption'],
				[...TEMPLATE_FIELDS, ...TEMPLATE_COMPONENT_FIELDS, ...SMS_FIELDS, ...FAILOVER_SMS_FIELDS],
			);
			await editor.screenshot(page, 'editor-media-image.png');
			for (const type of ['Video', 'Audio', 'Document']) {
				await editor.choose(page, 'mediaType', type);
				await editor.fields(page, `Send Media (${type.toLowerCase()})`, MEDIA_FIELDS, ['caption']);
			}
			await editor.choose(page, 'mediaType', 'Image');
			await editor.fields(page, 'Send Media (back to image)', ['caption'], []);
			await page.close();
		});

		await step('SMS → Send SMS', async () => {
			const page = await editor.openNode('mcnExBulkSms0001', 'Send reminder SMS');
			await editor.fields(
				page,
				'SMS Send',
				SMS_FIELDS,
				['from', 'to', ...TEMPLATE_FIELDS, ...TEMPLATE_COMPONENT_FIELDS, ...MEDIA_FIELDS, 'caption', ...FAILOVER_SMS_FIELDS],
			);
			const before = sandbox.requests.length;
			await editor.executeStep(page, ['success', '+62']);
			const sent = sandbox.requests.slice(before);
			expect(
				sent.length === 3 && sent.every((request) => request.path === '/v1/sms/notification' && request.status === 200),
				'"Execute step" ran the Code node and the SMS node: 3 SMS sent, the bad number shown as an error item',
				sent.map((request) => request.body),
			);
			// The JSON view shows the refused item's "error" next to the sent items' "success".
			const output = page.getByTestId('output-panel');
			await output.getByTestId('radio-button-json').click();
			const refused = output.getByText('Indonesian').first();
			await refused.scrollIntoViewIfNeeded();
			expect(await refused.isVisible(), 'the output panel shows the refused item next to the sent ones');
			await editor.screenshot(page, 'editor-bulk-sms-output.png');
			await page.close();
		});

		await step('Combined Notification → Send with Failover', async () => {
			const page = await editor.openNode('mcnExFailover001', 'Send code (chat, SMS failover)');
			await editor.fields(
				page,
				'Send with Failover',
				['from', 'to', ...TEMPLATE_FIELDS, ...TEMPLATE_COMPONENT_FIELDS, ...FAILOVER_SMS_FIELDS],
				[...MEDIA_FIELDS, 'caption', ...SMS_FIELDS, 'componentsJson'],
			);
			await editor.screenshot(page, 'editor-failover.png', 'smsMessage');
			await page.close();
		});

		const walk: Walk = {
			context,
			url: stack.n8n.url,
			client: stack.client,
			sandbox,
			expect,
			screenshot: async (page, file, scrollTo) => await editor.screenshot(page, file, scrollTo),
		};
		await walkUserPaths(walk);
		await walkSendAndWait(walk);
		await walkCredentialSwitches(walk, plain);
	} finally {
		await browser?.close();
		await plain.stop();
	}
});
