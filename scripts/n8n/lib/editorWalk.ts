/**
 * The user paths of issue 20, walked in n8n's real editor as a no-code user walks them, each in
 * a fresh workflow (Manual Trigger → our node, created through the editor's REST API): paste
 * the template text, add Options → Dry Run and execute, add a second quick reply, failover with
 * a To outside +62, an error with several problems. Each step asserts what the panel shows and
 * what the sandbox received.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';

import type { CheckContext } from './check';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from './examples';
import type { N8nClient } from './n8n';
import type { Sandbox } from './sandbox';
import { step } from './stack';
import { templateParameters } from '../../../harness/templateParameters';

const NODE_TYPE = 'n8n-nodes-multichannel-notification.multiChannelNotification';
const NODE = 'Notify';
const TEMPLATE_TEXT = 'Hi {{1}}, your order {{2}} shipped';

export interface Walk {
	context: BrowserContext;
	url: string;
	client: N8nClient;
	sandbox: Sandbox;
	expect: CheckContext['expect'];
	screenshot(page: Page, file: string, scrollTo?: Locator): Promise<void>;
}

const template = templateParameters;

/** A fresh workflow with our node after a Manual Trigger, opened in a new tab with the node's panel. */
async function openFresh(walk: Walk, name: string, parameters: Record<string, unknown>): Promise<Page> {
	const created = await walk.client.request<{ id: string }>('POST', '/workflows', {
		name,
		active: false,
		settings: {},
		connections: { Trigger: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		nodes: [
			{ id: 'walk-trigger', name: 'Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'walk-node',
				name: NODE,
				type: NODE_TYPE,
				typeVersion: 1,
				position: [240, 0],
				parameters,
				credentials: { multiChannelNotificationApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			},
		],
	});
	const page = await walk.context.newPage();
	await page.goto(`${walk.url}/workflow/${created.id}`, { waitUntil: 'commit' });
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${NODE}"]`).dblclick({ timeout: 60_000 });
	await page.getByTestId('ndv').waitFor();
	await page.getByTestId('parameter-input-resource').waitFor();
	return page;
}

const item = (page: Page, label: string): Locator =>
	page.getByTestId('parameter-item').filter({ hasText: label }).first();

async function execute(page: Page): Promise<Locator> {
	await page.getByTestId('node-execute-button').click();
	const output = page.getByTestId('output-panel');
	await output.getByTestId('ndv-items-count').or(output.getByTestId('node-error-message')).first().waitFor({ timeout: 60_000 });
	return output;
}

async function typeInto(page: Page, testId: string, text: string, nth = 0): Promise<void> {
	await page.getByTestId(testId).nth(nth).click();
	await page.keyboard.type(text);
}

export async function walkUserPaths(walk: Walk): Promise<void> {
	const { sandbox, expect } = walk;
	await walk.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: walk.url });

	await step('paste the approved template text into Template Content', async () => {
		const page = await openFresh(walk, 'Walk: paste template text', template());
		await page.getByTestId('parameter-input-templateContent').click();
		// The browser's own clipboard and Ctrl+V: the paste n8n's input sees (a string, run in the page).
		await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(TEMPLATE_TEXT)})`);
		await page.keyboard.press('Control+V');
		const content = item(page, 'Template Content');
		await content.getByTestId('inline-expression-editor-input').waitFor();
		expect(
			!(await page.getByTestId('parameter-input-placeholder1').isVisible()),
			'pasting made n8n switch Template Content to Expression; no {{1}} input while it evaluates {{1}} to 1',
		);
		// n8n shows the evaluated text where the field's hint would be (so the hint is not seen).
		const preview = await page.getByTestId('parameter-expression-preview-templateContent').innerText();
		expect(
			preview.replace(/\s+/g, ' ').includes('Hi 1, your order 2 shipped'),
			'n8n previews the evaluated text "Hi 1, your order 2 shipped" under the field',
			preview,
		);
		await content.getByTestId('radio-button-fixed').click();
		await page.getByTestId('parameter-input-placeholder2').waitFor();
		expect(
			(await page.getByTestId('parameter-input-placeholder1').isVisible()) &&
				!(await page.getByTestId('parameter-input-placeholder3').isVisible()),
			'after Fixed: one input per placeholder, {{1}} and {{2}}, and no more',
		);
		await typeInto(page, 'parameter-input-placeholder1', 'Budi');
		await typeInto(page, 'parameter-input-placeholder2', 'A-1042');
		await walk.screenshot(page, 'editor-placeholder-inputs.png', page.getByTestId('parameter-input-placeholder1'));
		const before = sandbox.requests.length;
		const output = await execute(page);
		await output.getByText('Hi Budi, your order A-1042 shipped').first().waitFor();
		const body = sandbox.requests.slice(before).map((request) => request.body as { template?: { components?: unknown[] } });
		expect(
			JSON.stringify(body[0]?.template?.components?.[0]) ===
				JSON.stringify({ type: 'body', parameters: [{ type: 'text', text: 'Budi' }, { type: 'text', text: 'A-1042' }] }),
			'executed: the values of {{1}} and {{2}} were sent in order and the output shows the finished message',
			body,
		);
		await page.close();
	});

	await step('add Options → Dry Run and execute', async () => {
		const page = await openFresh(walk, 'Walk: dry run', template({ bodyParameters: { parameter: [{ text: 'Budi' }] } }));
		// The Options collection's "Add Option" select.
		await page.getByPlaceholder('Add Option').last().click();
		await page
			.locator('.el-select-dropdown__item, [role=option], [role=menuitem]')
			.filter({ hasText: /^\s*Dry Run\s*$/ })
			.first()
			.click();
		const dryRun = page.getByTestId('parameter-input-dryRun');
		await dryRun.waitFor();
		expect((await dryRun.locator('.is-checked').count()) > 0, 'Dry Run is on as soon as it is added');
		const before = sandbox.requests.length;
		const output = await execute(page);
		await output.getByText('dry run 1').first().waitFor();
		expect(sandbox.requests.length === before, 'executed: nothing reached the service; the run summary says "dry run 1"');
		await walk.screenshot(page, 'editor-dry-run.png', dryRun);
		await page.close();
	});

	await step('add two quick replies without touching Index', async () => {
		const page = await openFresh(walk, 'Walk: quick replies', template({ bodyParameters: { parameter: [{ text: 'Budi' }] } }));
		for (let added = 0; added < 2; added++) await page.getByRole('button', { name: 'Add Quick Reply Button' }).click();
		const buttons = page.getByTestId('fixed-collection-quickReplyButtons');
		const inputs = buttons.getByTestId('parameter-input-index').locator('input');
		const indexes: string[] = [];
		for (let at = 0; at < (await inputs.count()); at++) indexes.push(await inputs.nth(at).inputValue());
		expect(
			indexes.length === 2 && indexes.every((value) => value === 'Next Free Position'),
			'both new quick replies show Index "Next Free Position"',
			indexes,
		);
		await typeInto(page, 'parameter-input-payload', 'yes', 0);
		await typeInto(page, 'parameter-input-payload', 'no', 1);
		const before = sandbox.requests.length;
		const output = await execute(page);
		await output.getByText('success').first().waitFor();
		const components = (sandbox.requests[before]?.body as { template?: { components?: Array<{ index?: string }> } })?.template
			?.components;
		const sent = (components ?? []).filter((component) => component.index !== undefined).map((component) => component.index);
		expect(JSON.stringify(sent) === '["0","1"]', 'executed: the two quick replies went out at positions 0 and 1', sent);
		await page.close();
	});

	await step('Send with Failover with a To outside +62', async () => {
		const page = await openFresh(walk, 'Walk: failover', {
			resource: 'combined',
			operation: 'sendWithFailover',
			from: '+6281100000000',
			to: '+6591234567',
			templateName: 'otp',
			smsMessage: 'Your code is 123456',
		});
		const before = sandbox.requests.length;
		const output = await execute(page);
		const description = await output.getByTestId('node-error-description').innerText();
		expect(
			description.includes('SMS Phone Number') &&
				description.includes('It is the To number unless you set another one') &&
				sandbox.requests.length === before,
			'the panel says SMS Phone Number copies To and asks for a +62 number; nothing was sent',
			description,
		);
		await page.close();
	});

	await step('an item with several problems', async () => {
		const page = await openFresh(
			walk,
			'Walk: several problems',
			template({ to: 'not a number', templateContent: 'Hi {{1}}', bodyParameters: { parameter: [{ text: 'a' }, { text: 'b' }] } }),
		);
		const output = await execute(page);
		const title = await output.getByTestId('node-error-message').innerText();
		const lines = (await output.getByTestId('node-error-description').innerText()).split('\n').map((line) => line.trim());
		expect(title === 'Item 0: 2 problems (To, Body Parameters)', 'the title names both fields', title);
		expect(
			lines.some((line) => line.startsWith('• To must be an E.164 phone number')) &&
				lines.some((line) => line.startsWith('• Body Parameters must have 1 entry')) &&
				lines.includes('Nothing was sent for this item.'),
			'the panel shows one problem per line, then "Nothing was sent for this item."',
			lines,
		);
		await walk.screenshot(page, 'editor-error-panel.png');
		await page.close();
	});
}
