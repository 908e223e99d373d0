/**
 * n8n's editor in Debian's Chromium, headless, as the browser checks drive it: the launch
 * (CHROMIUM_PATH overrides /usr/bin/chromium), where screenshots go (SCREENSHOT_DIR overrides
 * docs/images/), and what a user does in a tab of the editor, one call a step: open a node's
 * panel, fill and select fields, execute, assert which fields show, take a screenshot.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { chromium, selectors } from 'playwright-core';

import type { CheckContext } from './check';
import { REPO_ROOT } from './config';
import type { ExampleWorkflow } from './examples';
import type { N8nClient } from './n8n';
import { OWNER } from './n8n';
import type { RecordedRequest } from './sandbox';
import { newRequests } from './sandbox';
import { step } from './stack';

export const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? join(REPO_ROOT, 'docs', 'images');

export async function launchChromium(): Promise<Browser> {
	const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'];
	// Without these Chromium keeps calling out, which this network refuses.
	const quiet = ['--disable-background-networking', '--disable-component-update', '--disable-sync'];
	return await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...args, ...quiet] });
}

type Check = Pick<CheckContext, 'sandbox' | 'expect'>;

/** Fixed collections render as `fixed-collection-<name>`, every other parameter as `parameter-input-<name>`. */
const FIXED_COLLECTIONS = new Set(['approvalOptions', 'limitWaitTime', 'bodyParameters', 'quickReplyButtons', 'urlButton', 'formFields', 'fieldOptions']);

/** Whether a switch (or a field holding one) is on. */
export const isOn = async (toggle: Locator): Promise<boolean> => (await toggle.locator('.is-checked').count()) > 0;

/** One step of a walk: opens a tab, walks it, closes it. */
export async function inTab(name: string, open: () => Promise<Tab>, walk: (tab: Tab) => Promise<void>): Promise<void> {
	await step(name, async () => {
		const tab = await open();
		await walk(tab);
		await tab.page.close();
	});
}

/**
 * n8n's editor in one browser context, signed in as the owner; every page opens in a fresh tab.
 * The check's sandbox is the service the nodes send to, so a step can tell what it received.
 */
export class Editor {
	private constructor(readonly browser: Browser, readonly context: BrowserContext, readonly url: string, readonly client: N8nClient, readonly check: Check) {}

	/** Starts Chromium and signs in to the stack's n8n. */
	static async start(stack: { n8n: { url: string }; client: N8nClient }, check: Check): Promise<Editor> {
		mkdirSync(SCREENSHOTS, { recursive: true });
		selectors.setTestIdAttribute('data-test-id');
		const browser = await launchChromium();
		const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
		context.setDefaultTimeout(30_000);
		const editor = new Editor(browser, context, stack.n8n.url, stack.client, check);
		const { page } = await editor.open('/signin');
		await page.locator('input[name=emailOrLdapLoginId]').fill(OWNER.email);
		await page.locator('input[name=password]').fill(OWNER.password);
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 60_000 });
		check.expect(true, `signed in as ${OWNER.email}`);
		await page.close();
		return editor;
	}

	/** Asserts that what the editor shows (any JSON value) is exactly what is wanted. */
	expectEqual(shown: unknown, wanted: unknown, what: string): void {
		this.check.expect(JSON.stringify(shown) === JSON.stringify(wanted), what, shown);
	}

	async open(path: string): Promise<Tab> {
		const page = await this.context.newPage();
		await page.goto(`${this.url}${path}`, { waitUntil: 'commit' });
		return new Tab(page, this);
	}

	/** Creates the workflow through the editor's REST API and opens it. */
	async create({ name, nodes, connections }: ExampleWorkflow): Promise<Tab> {
		const created = await this.client.request<{ id: string }>('POST', '/workflows', { name, active: false, settings: {}, connections, nodes });
		return await this.open(`/workflow/${created.id}`);
	}

	/** Opens a node's panel: in a stored workflow (by id) or in one created now. A fresh tab, so unsaved edits of the last one never prompt. */
	async openNode(workflow: string | ExampleWorkflow, node: string): Promise<Tab> {
		const tab = typeof workflow === 'string' ? await this.open(`/workflow/${workflow}`) : await this.create(workflow);
		await tab.page.locator(`[data-test-id="canvas-node"][data-node-name="${node}"]`).dblclick({ timeout: 60_000 });
		await tab.panelWith('resource');
		return tab;
	}
}

/** One tab of the editor: a node's panel, the node creator, the canvas. */
export class Tab {
	constructor(readonly page: Page, private readonly editor: Editor) {}

	/** Waits until the node's panel is open and shows this field. */
	async panelWith(field: string): Promise<void> {
		await this.page.getByTestId('ndv').waitFor();
		await this.field(field).waitFor();
	}

	field(name: string): Locator {
		return this.page.getByTestId(FIXED_COLLECTIONS.has(name) ? `fixed-collection-${name}` : `parameter-input-${name}`).first();
	}

	/**
	 * A field's input: its inputValue() is the text it shows (a select's option name); fill() is one
	 * input event, so n8n commits the whole value at once and "Execute step" right after uses it.
	 */
	input(name: string): Locator {
		return this.field(name).locator('input, textarea').first();
	}

	/** The text each field's input shows (a select's option name), by field name; waits for each field. */
	async values(...names: string[]): Promise<Record<string, string>> {
		const shown: Record<string, string> = {};
		for (const name of names) shown[name] = await this.input(name).inputValue();
		return shown;
	}

	/** Asserts that the panel shows every field of `shown` (waiting for each) and none of `hidden`. */
	async fields(label: string, shown: string[], hidden: string[] = []): Promise<void> {
		for (const name of shown) await this.field(name).waitFor({ state: 'visible', timeout: 30_000 });
		const wronglyShown: string[] = [];
		for (const name of hidden) if (await this.field(name).isVisible()) wronglyShown.push(name);
		const said = [shown.length > 0 ? `shows ${shown.join(', ')}` : '', hidden.length > 0 ? `hides ${hidden.join(', ')}` : ''];
		this.editor.check.expect(wronglyShown.length === 0, `${label}: ${said.filter(Boolean).join('; ')}`, { wronglyShown });
	}

	/** Clicks into the `nth` input of that name and types the text key by key. */
	async type(name: string, text: string, nth = 0): Promise<void> {
		await this.page.getByTestId(`parameter-input-${name}`).nth(nth).click();
		await this.page.keyboard.type(text);
	}

	/**
	 * Opens a select (a field, by name, or any opener), picks `option` and waits for the dropdown to
	 * close; returns the names of the options it listed (without their descriptions).
	 */
	async select(opener: string | Locator, option: string): Promise<string[]> {
		await (typeof opener === 'string' ? this.field(opener) : opener).click();
		const options = this.page.locator('.el-select-dropdown__item:visible');
		await options.first().waitFor();
		const names: string[] = [];
		for (const item of await options.all()) {
			const headline = item.locator('[class*="option-headline"], [class*="optionHeadline"]');
			names.push(((await headline.count()) > 0 ? await headline.first().textContent() : await item.textContent())?.trim() ?? '');
		}
		await options.filter({ hasText: option }).first().click();
		await options.first().waitFor({ state: 'hidden' });
		return names;
	}

	/** Adds an option through the Options collection's "Add Option"; returns the options it offered. */
	async addOption(option: string): Promise<string[]> {
		return await this.select(this.page.getByPlaceholder('Add Option').last(), option);
	}

	/**
	 * Clicks "Execute step" and waits for each text in the output panel (with none, for its items
	 * count or an error); returns the panel and the requests the sandbox received meanwhile.
	 */
	async execute(...texts: string[]): Promise<{ output: Locator; sent: RecordedRequest[] }> {
		const sent = newRequests(this.editor.check.sandbox);
		await this.page.getByTestId('node-execute-button').click();
		const output = this.page.getByTestId('output-panel');
		const done = output.getByTestId('ndv-items-count').or(output.getByTestId('node-error-message'));
		for (const shown of texts.length > 0 ? texts.map((text) => output.getByText(text)) : [done]) await shown.first().waitFor({ timeout: 60_000 });
		return { output, sent: sent() };
	}

	/** Saves a screenshot of the tab, scrolled to a field (by name) or any locator first. */
	async screenshot(file: string, scrollTo?: string | Locator): Promise<void> {
		if (scrollTo !== undefined) await (typeof scrollTo === 'string' ? this.field(scrollTo) : scrollTo).scrollIntoViewIfNeeded();
		// Close the "Node executed successfully" toasts and let transitions settle, so the
		// picture shows the panel rather than an animation.
		for (const close of await this.page.locator('.el-notification__closeBtn').all()) {
			if (await close.isVisible()) await close.click();
		}
		await this.page.waitForTimeout(800);
		await this.page.screenshot({ path: join(SCREENSHOTS, file) });
		console.log(`    screenshot ${join(SCREENSHOTS, file)}`);
	}

	get creator(): Locator {
		return this.page.getByTestId('node-creator');
	}

	/** A node, action or section of the node creator, by its name. */
	creatorItem(name: string | RegExp): Locator {
		return this.page.getByTestId('node-creator-item-name').filter({ hasText: name });
	}

	/** The node names the node creator lists, read once n8n's own WhatsApp Business Cloud is among them. */
	async listedNodes(): Promise<string[]> {
		await this.creatorItem('WhatsApp Business Cloud').waitFor();
		return (await this.page.getByTestId('node-creator-item-name').allTextContents()).map((name) => name.trim());
	}

	/** Opens a node's details in the node creator; returns its action rows grouped under their "<Resource> Actions" headings. */
	async nodeActions(node: string): Promise<Record<string, string[]>> {
		await this.creatorItem(node).first().click();
		await this.creator.getByTestId('node-creator-category-item').filter({ hasText: /^\s*Actions \(\d+\)/ }).waitFor();
		const groups: Record<string, string[]> = {};
		let current: string[] | undefined;
		for (const row of await this.creator.getByTestId('item-iterator-item').allTextContents()) {
			const text = row.replace(/\s+/g, ' ').trim();
			const heading = /^(.+) Actions$/.exec(text);
			if (heading) groups[heading[1]] = current = [];
			else if (text) current?.push(text);
		}
		return groups;
	}

	/**
	 * Points at a quarter of an SVG path's length (a connection's middle may sit under a handle's
	 * "+") until `shown` appears: the canvas may still be fitting the view when the tab opens.
	 */
	async hoverUntilShown(pathSelector: string, shown: Locator, timeoutMs = 60_000): Promise<void> {
		for (const deadline = Date.now() + timeoutMs; ; ) {
			const point = (await this.page.evaluate(`(() => {
				const path = document.querySelector(${JSON.stringify(pathSelector)});
				const at = path.getPointAtLength(path.getTotalLength() * 0.25);
				const m = path.getScreenCTM();
				return { x: at.x * m.a + at.y * m.c + m.e, y: at.x * m.b + at.y * m.d + m.f };
			})()`)) as { x: number; y: number };
			await this.page.mouse.move(point.x, point.y);
			if (await shown.first().waitFor({ timeout: 2_000 }).then(() => true, () => false)) return;
			if (Date.now() > deadline) throw new Error(`hovering ${pathSelector} did not show ${String(shown)}`);
			// Off the path, so the next move is a fresh hover.
			await this.page.mouse.move(0, 0);
		}
	}
}
