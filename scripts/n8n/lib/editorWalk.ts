/**
 * The paths a no-code user takes, walked in n8n's real editor as such a user walks them, each in
 * a fresh workflow (Manual Trigger → our node, created through the editor's REST API): paste
 * the template text, add Options → Dry Run and execute, add a second quick reply, failover with
 * a To outside +62, an error with several problems. Each step asserts what the panel shows and
 * what the sandbox received. walkSendAndWait does the same for Send and Wait for Response, from
 * the node creator (and its Human review sections) to the person's answer.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';

import type { CheckContext } from './check';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from './examples';
import type { N8nClient } from './n8n';
import type { Sandbox } from './sandbox';
import { step } from './stack';
import { templateParameters } from '../../../harness/templateParameters';
import { findAnswerLink } from '../../../sandbox/server';

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

const TRIGGER = { id: 'walk-trigger', name: 'Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };

/** Creates a workflow through the editor's REST API and opens it in a new tab. */
async function openWorkflow(walk: Walk, name: string, nodes: unknown[], connections: Record<string, unknown>): Promise<Page> {
	const created = await walk.client.request<{ id: string }>('POST', '/workflows', { name, active: false, settings: {}, connections, nodes });
	const page = await walk.context.newPage();
	await page.goto(`${walk.url}/workflow/${created.id}`, { waitUntil: 'commit' });
	return page;
}

/** A fresh workflow with our node after a Manual Trigger, opened in a new tab with the node's panel. */
async function openFresh(walk: Walk, name: string, parameters: Record<string, unknown>): Promise<Page> {
	const page = await openWorkflow(
		walk,
		name,
		[
			TRIGGER,
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
		{ Trigger: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
	);
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

/** What n8n's node creator lists under each resource of the node: every operation's `action` text. */
const ACTIONS: Record<string, string[]> = {
	'Chat Message': ['Send a template message', 'Send a media message', 'Send a template message and wait for response'],
	SMS: ['Send an SMS', 'Send an SMS and wait for response'],
	'Combined Notification': ['Send a notification with failover', 'Send a notification with failover and wait for response'],
};
const WAIT_ACTIONS: Record<string, string[]> = Object.fromEntries(
	Object.entries(ACTIONS).map(([resource, actions]) => [resource, actions.filter((action) => action.endsWith('and wait for response'))]),
);
const SMS_WAIT_ACTION = WAIT_ACTIONS.SMS[0];
/** Shown on the answer page and expected back in the node's output once the person answers. */
const QUESTION = 'Refund order A-1042 (Rp 250.000)?';
const FREE_TEXT_ANSWER = 'Yes, refund it to the card';

/** Fixed collections render as `fixed-collection-<name>`, every other parameter as `parameter-input-<name>`. */
const FIXED_COLLECTIONS = new Set(['approvalOptions', 'limitWaitTime', 'bodyParameters', 'quickReplyButtons', 'urlButton']);
const field = (page: Page, name: string): Locator =>
	page.getByTestId(FIXED_COLLECTIONS.has(name) ? `fixed-collection-${name}` : `parameter-input-${name}`).first();

async function expectFields(walk: Walk, page: Page, label: string, shown: string[], hidden: string[]): Promise<void> {
	for (const name of shown) await field(page, name).waitFor({ state: 'visible', timeout: 30_000 });
	const wronglyShown: string[] = [];
	for (const name of hidden) if (await field(page, name).isVisible()) wronglyShown.push(name);
	walk.expect(wronglyShown.length === 0, `${label}: shows ${shown.join(', ')}; hides ${hidden.join(', ')}`, { wronglyShown });
}

/** The text a parameter's input shows: the value of a text field, the option name of a select. */
async function shownValue(page: Page, name: string): Promise<string> {
	return await field(page, name).locator('input, textarea').first().inputValue();
}

async function fill(page: Page, name: string, text: string): Promise<void> {
	// One input event: n8n commits the whole value at once, so "Execute step" right after uses it.
	await field(page, name).locator('input, textarea').first().fill(text);
}

/** Opens a select and returns the names in its open dropdown (an option's description is not part of its name). */
async function openDropdown(page: Page, opener: Locator): Promise<string[]> {
	await opener.click();
	const options = page.locator('.el-select-dropdown__item:visible');
	await options.first().waitFor();
	const names: string[] = [];
	for (const option of await options.all()) {
		const name = option.locator('[class*="option-headline"], [class*="optionHeadline"]');
		names.push(((await name.count()) > 0 ? await name.first().textContent() : await option.textContent())?.trim() ?? '');
	}
	return names;
}

/** Picks an option of the open dropdown and waits until the dropdown has closed. */
async function pick(page: Page, name: string): Promise<void> {
	const options = page.locator('.el-select-dropdown__item:visible');
	await options.filter({ hasText: name }).first().click();
	await options.first().waitFor({ state: 'hidden' });
}

/** The node creator's rows (headings, nodes, actions) as text, in the order shown. */
async function creatorRows(creator: Locator): Promise<string[]> {
	const texts = await creator.getByTestId('item-iterator-item').allTextContents();
	return texts.map((text) => text.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

/** Groups action rows under their "<Resource> Actions" headings, as n8n shows them. */
function actionsByResource(rows: string[]): Record<string, string[]> {
	const groups: Record<string, string[]> = {};
	let current: string[] | undefined;
	for (const row of rows) {
		const heading = /^(.+) Actions$/.exec(row);
		if (heading) groups[heading[1]] = current = [];
		else current?.push(row);
	}
	return groups;
}

/** A workflow with only a Manual Trigger; returns the node creator opened from the trigger's "+" ("What happens next?"). */
async function openCreatorAfterTrigger(walk: Walk, name: string): Promise<{ page: Page; creator: Locator }> {
	const page = await openWorkflow(walk, name, [TRIGGER], {});
	await page.getByTestId('canvas-handle-plus').first().click({ timeout: 60_000 });
	const creator = page.getByTestId('node-creator');
	await creator.getByTestId('nodes-list-header').filter({ hasText: 'What happens next?' }).waitFor();
	return { page, creator };
}

/**
 * Points at a quarter of an SVG path's length (a connection's middle may sit under a handle's
 * "+") until `shown` appears: the canvas may still be fitting the view when the tab opens.
 */
async function hoverUntilShown(page: Page, pathSelector: string, shown: Locator, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const point = (await page.evaluate(`(() => {
			const path = document.querySelector(${JSON.stringify(pathSelector)});
			const at = path.getPointAtLength(path.getTotalLength() * 0.25);
			const m = path.getScreenCTM();
			return { x: at.x * m.a + at.y * m.c + m.e, y: at.x * m.b + at.y * m.d + m.f };
		})()`)) as { x: number; y: number };
		await page.mouse.move(point.x, point.y);
		const appeared = await shown
			.first()
			.waitFor({ timeout: 2_000 })
			.then(() => true)
			.catch((error: unknown) => {
				if (Date.now() > deadline) throw error;
				return false;
			});
		if (appeared) return;
		// Off the path, so the next move is a fresh hover.
		await page.mouse.move(0, 0);
	}
}

/**
 * Send and Wait for Response, walked as a no-code user walks it: find the operation in the node
 * creator (by search, and in n8n's Human review section), add the SMS variant from there, read
 * its panel, switch to Free Text, make a mistake and execute, then execute for real and answer
 * the link as the person would; then the Chat Message and Combined Notification variants, and
 * the AI Agent's "Add human review step".
 */
export async function walkSendAndWait(walk: Walk): Promise<void> {
	const { sandbox, expect } = walk;

	await step('node creator: search the node, its actions per resource', async () => {
		const { page, creator } = await openCreatorAfterTrigger(walk, 'Walk: send and wait actions');
		await creator.getByTestId('node-creator-search-bar').fill('Multi-Channel');
		await creator.getByTestId('node-creator-item-name').filter({ hasText: 'Multi-Channel Notification' }).first().click();
		await creator.getByTestId('node-creator-category-item').filter({ hasText: /^\s*Actions \(\d+\)/ }).waitFor();
		const groups = actionsByResource(await creatorRows(creator));
		expect(
			JSON.stringify(groups) === JSON.stringify(ACTIONS),
			`the actions list groups the operations per resource, each with its "… and wait for response" action (${Object.values(WAIT_ACTIONS).flat().join('; ')})`,
			groups,
		);
		await walk.screenshot(page, 'send-and-wait-actions.png');
		await page.close();
	});

	const page = await step('node creator: Human review lists the node', async () => {
		const { page: opened, creator } = await openCreatorAfterTrigger(walk, 'Walk: send and wait (SMS)');
		const review = creator
			.getByTestId('item-iterator-item')
			.filter({ has: opened.getByTestId('node-creator-item-name').filter({ hasText: /^Human review$/ }) });
		const description = (await review.getByTestId('node-creator-item-description').textContent()) ?? '';
		expect(description.startsWith('Request approval'), '"What happens next?" offers Human review', description);
		await review.click();
		await creator.getByTestId('node-creator-category-item').filter({ hasText: 'Send and wait for response' }).waitFor();
		// A built-in of the section, so the list is there before it is read.
		await creator.getByTestId('node-creator-item-name').filter({ hasText: 'WhatsApp Business Cloud' }).waitFor();
		const names = (await creator.getByTestId('node-creator-item-name').allTextContents()).map((name) => name.trim());
		expect(
			names.includes('Multi-Channel Notification') && names.includes('Telegram'),
			'Human review → "Send and wait for response" lists Multi-Channel Notification beside n8n\'s own (Telegram, WhatsApp Business Cloud, …)',
			names,
		);
		await walk.screenshot(opened, 'human-review-section.png');
		// n8n opens a community node's details here (its own nodes are added at once), with only
		// the Send and Wait actions.
		await creator.getByTestId('node-creator-item-name').filter({ hasText: 'Multi-Channel Notification' }).click();
		await creator.getByTestId('node-creator-category-item').filter({ hasText: /^\s*Actions \(\d+\)/ }).waitFor();
		const groups = actionsByResource(await creatorRows(creator));
		expect(
			JSON.stringify(groups) === JSON.stringify(WAIT_ACTIONS),
			'the node\'s details under Human review offer only the three Send and Wait actions, one per resource',
			groups,
		);
		await creator.getByTestId('node-creator-item-name').filter({ hasText: SMS_WAIT_ACTION }).click();
		await opened.getByTestId('ndv').waitFor();
		await field(opened, 'phoneNumber').waitFor();
		return opened;
	});

	await step('SMS → Send and Wait for Response: the panel', async () => {
		const resource = await shownValue(page, 'resource');
		const operation = await shownValue(page, 'operation');
		expect(
			resource === 'SMS' && operation === 'Send and Wait for Response',
			`choosing "${SMS_WAIT_ACTION}" adds the node with Resource SMS, Operation Send and Wait for Response`,
			{ resource, operation },
		);
		await expectFields(
			walk,
			page,
			'Send and Wait (SMS, approval)',
			['phoneNumber', 'message', 'responseType', 'approvalOptions'],
			['from', 'to', 'templateName', 'linkPlaceholder', 'smsPhoneNumber', 'smsMessage', 'mediaType', 'approveLabel'],
		);
		const responseType = await shownValue(page, 'responseType');
		const responseTypes = await openDropdown(page, field(page, 'responseType'));
		expect(
			JSON.stringify(responseTypes) === '["Approval","Free Text"]' && responseType === 'Approval',
			'Response Type offers Approval (the default) and Free Text',
			{ responseType, responseTypes },
		);
		await pick(page, 'Approval');

		await field(page, 'approvalOptions').getByTestId('fixed-collection-add').click();
		await field(page, 'approveLabel').waitFor();
		const approval = { type: await shownValue(page, 'approvalType'), label: await shownValue(page, 'approveLabel') };
		expect(
			approval.type === 'Approve Only' && approval.label === '✓ Approve' && !(await field(page, 'disapproveLabel').isVisible()),
			'Approval Options → Add option: Type of Approval "Approve Only", Approve Button Label "✓ Approve", no Disapprove label',
			approval,
		);
		await openDropdown(page, field(page, 'approvalType'));
		await pick(page, 'Approve and Disapprove');
		await field(page, 'disapproveLabel').waitFor();
		const decline = await shownValue(page, 'disapproveLabel');
		expect(decline === '✗ Decline', 'Approve and Disapprove adds Disapprove Button Label "✗ Decline"', decline);

		const options = await openDropdown(page, page.getByPlaceholder('Add Option').last());
		expect(
			JSON.stringify(options) === JSON.stringify(['Dry Run', 'Limit Wait Time', 'Phone Number Format', 'Timeout (Milliseconds)']),
			'Options → Add Option offers Dry Run, Limit Wait Time, Phone Number Format, Timeout (no pacing or Send Once options)',
			options,
		);
		await pick(page, 'Limit Wait Time');
		await field(page, 'limitWaitTime').waitFor();
		const limit = {
			type: await shownValue(page, 'limitType'),
			amount: await shownValue(page, 'resumeAmount'),
			unit: await shownValue(page, 'resumeUnit'),
		};
		expect(
			JSON.stringify(limit) === JSON.stringify({ type: 'After Time Interval', amount: '45.00', unit: 'Minutes' }) &&
				!(await field(page, 'maxDateAndTime').isVisible()),
			'Limit Wait Time starts at After Time Interval, Amount 45.00 (two decimals, as n8n\'s own), Unit Minutes',
			limit,
		);
		await fill(page, 'phoneNumber', '0812 3456 7890');
		await fill(page, 'message', QUESTION);
		// Leave the field, so the picture shows the form rather than the field's focus tip.
		await page.evaluate('document.activeElement?.blur()');
		await walk.screenshot(page, 'send-and-wait-sms.png', field(page, 'approvalOptions'));

		await openDropdown(page, field(page, 'responseType'));
		await pick(page, 'Free Text');
		await field(page, 'approvalOptions').waitFor({ state: 'hidden' });
		await expectFields(
			walk,
			page,
			'Free Text',
			['phoneNumber', 'message', 'responseType', 'limitWaitTime'],
			['approvalOptions', 'approvalType', 'approveLabel', 'disapproveLabel'],
		);
		const freeTextOptions = await openDropdown(page, page.getByPlaceholder('Add Option').last());
		expect(
			['Response Form Button Label', 'Response Form Description', 'Response Form Title'].every((name) => freeTextOptions.includes(name)),
			'Free Text adds Response Form Title, Description and Button Label to Options, as n8n\'s own nodes name them',
			freeTextOptions,
		);
		await pick(page, 'Response Form Button Label');
		await field(page, 'responseFormButtonLabel').waitFor();
		const buttonLabel = await shownValue(page, 'responseFormButtonLabel');
		expect(buttonLabel === 'Submit', 'Response Form Button Label starts at "Submit"', buttonLabel);
		await walk.screenshot(page, 'send-and-wait-free-text.png', field(page, 'responseType'));
	});

	await step('a number outside +62, then Execute step', async () => {
		await fill(page, 'phoneNumber', '+65 9123 4567');
		const before = sandbox.requests.length;
		const output = await execute(page);
		const title = (await output.getByTestId('node-error-message').innerText()).trim();
		const description = await output.getByTestId('node-error-description').innerText();
		expect(
			title.includes('Phone Number') && description.includes('+62') && description.includes('Nothing was sent'),
			'the panel names Phone Number, asks for a +62 number and says nothing was sent',
			{ title, description },
		);
		expect(
			sandbox.requests.length === before && !(await output.getByText('Waiting for input').isVisible()),
			'the sandbox received nothing and the node does not wait',
			sandbox.requests.slice(before).map((request) => request.body),
		);
		await walk.screenshot(page, 'send-and-wait-error.png');
	});

	await step('fix the number, Execute step, the person answers the link', async () => {
		await fill(page, 'phoneNumber', '0812 3456 7890');
		const before = sandbox.requests.length;
		await page.getByTestId('node-execute-button').click();
		const output = page.getByTestId('output-panel');
		await output.getByText("Execution will continue after the user's response").waitFor({ timeout: 60_000 });
		const sent = sandbox.requests.slice(before);
		const message = (sent[0]?.body as { message?: string } | undefined)?.message ?? '';
		const link = sent.length === 1 ? findAnswerLink(sent[0].path, sent[0].body) : undefined;
		expect(
			sent.length === 1 && message.startsWith(`${QUESTION}\n`) && link !== undefined && message.endsWith(link),
			'one SMS went out, the question then the answer link on its own line; the panel says it waits for the person',
			sent.map((request) => request.body),
		);
		// The person opens the link on a phone and writes an answer.
		const phone = await walk.context.browser()?.newContext({ viewport: { width: 360, height: 740 } });
		if (phone === undefined) throw new Error('no browser to open the answer link in');
		try {
			const answerPage = await phone.newPage();
			await answerPage.goto(link ?? '', { waitUntil: 'commit' });
			await answerPage.getByText(QUESTION).waitFor({ timeout: 30_000 });
			await answerPage.locator('textarea').fill(FREE_TEXT_ANSWER);
			await answerPage.getByRole('button', { name: 'Submit' }).click();
			await answerPage.getByText('Thank you').first().waitFor({ timeout: 30_000 });
		} finally {
			await phone.close();
		}
		await output.getByText(FREE_TEXT_ANSWER).first().waitFor({ timeout: 60_000 });
		expect(true, `the execution resumed: the output panel shows the answer "${FREE_TEXT_ANSWER}"`);
		await walk.screenshot(page, 'send-and-wait-answered.png');
		await page.close();
	});

	await step('Chat Message and Combined Notification → Send and Wait for Response', async () => {
		const chat = await openFresh(walk, 'Walk: send and wait (chat)', { resource: 'chatMessage', operation: 'sendAndWait' });
		await expectFields(
			walk,
			chat,
			'Send and Wait (Chat Message)',
			['from', 'to', 'templateName', 'bodyParameters', 'linkPlaceholder', 'message', 'responseType', 'approvalOptions'],
			['phoneNumber', 'smsPhoneNumber', 'smsMessage', 'mediaType'],
		);
		const placeholder = await shownValue(chat, 'linkPlaceholder');
		expect(placeholder === '1', 'Link Goes Into shows, set to body placeholder 1', placeholder);
		await walk.screenshot(chat, 'send-and-wait-chat.png', field(chat, 'linkPlaceholder'));
		await chat.close();

		const combined = await openFresh(walk, 'Walk: send and wait (combined)', { resource: 'combined', operation: 'sendAndWait' });
		await expectFields(
			walk,
			combined,
			'Send and Wait (Combined Notification)',
			['from', 'to', 'templateName', 'linkPlaceholder', 'smsPhoneNumber', 'message', 'responseType'],
			['phoneNumber', 'smsMessage', 'mediaType'],
		);
		await combined.close();
	});

	await step('AI Agent: "Add human review step" lists the node', async () => {
		const agent = 'AI Agent';
		const tool = 'Calculator';
		const canvas = await openWorkflow(
			walk,
			'Walk: human review for an AI agent',
			[
				TRIGGER,
				{ id: 'walk-agent', name: agent, type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 3.1, position: [240, 0], parameters: {} },
				{ id: 'walk-tool', name: tool, type: '@n8n/n8n-nodes-langchain.toolCalculator', typeVersion: 1, position: [400, 240], parameters: {} },
			],
			{
				Trigger: { main: [[{ node: agent, type: 'main', index: 0 }]] },
				[tool]: { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] },
			},
		);
		await canvas.locator(`[data-test-id="edge"][data-source-node-name="${tool}"]`).waitFor({ timeout: 60_000 });
		await hoverUntilShown(canvas, `[data-test-id="edge"][data-source-node-name="${tool}"] path`, canvas.getByTestId('add-connection-button'));
		await canvas.getByTestId('add-connection-button').first().click();
		const creator = canvas.getByTestId('node-creator');
		await creator.getByTestId('nodes-list-header').filter({ hasText: 'Human review' }).waitFor();
		await creator.getByTestId('node-creator-item-name').filter({ hasText: 'WhatsApp Business Cloud' }).waitFor();
		const names = (await creator.getByTestId('node-creator-item-name').allTextContents()).map((name) => name.trim());
		expect(
			names.includes('Multi-Channel Notification'),
			'on an AI Agent\'s tool connection, "Add human review step" → Human review lists Multi-Channel Notification (its human-review tool)',
			names,
		);
		await walk.screenshot(canvas, 'human-review-ai-agent.png');
		// A community node opens its details first; "Add to workflow" puts its human-review tool
		// between the tool and the agent and opens its panel.
		await creator.getByTestId('node-creator-item-name').filter({ hasText: 'Multi-Channel Notification' }).click();
		await creator.getByTestId('item-iterator-item').filter({ hasText: 'Add to workflow' }).click();
		await canvas.getByTestId('ndv').waitFor();
		await field(canvas, 'phoneNumber').waitFor();
		const reviewNode = 'Multi-Channel Notification';
		const wired =
			(await canvas.locator(`[data-test-id="edge"][data-source-node-name="${tool}"][data-target-node-name="${reviewNode}"]`).count()) === 1 &&
			(await canvas.locator(`[data-test-id="edge"][data-source-node-name="${reviewNode}"][data-target-node-name="${agent}"]`).count()) === 1;
		const message = (await field(canvas, 'message').textContent())?.trim();
		expect(
			wired && message === 'The agent wants to call {{ $tool.name }}',
			`"Add to workflow" wires ${tool} → ${reviewNode} → ${agent}; the panel starts with n8n's Message "The agent wants to call {{ $tool.name }}"`,
			{ wired, message },
		);
		await expectFields(
			walk,
			canvas,
			'the human-review tool (an SMS; n8n fixes Resource, Operation and Response Type)',
			['message', 'phoneNumber', 'approvalOptions'],
			['resource', 'operation', 'responseType', 'from', 'to', 'templateName', 'linkPlaceholder'],
		);
		await canvas.close();
	});
}

/**
 * The credential dialog as a self-hoster meets it, with a service on plain http: the two
 * switches are there; with Allow Plain HTTP turned off, saving tests the credential and the
 * dialog says why it failed, naming the switch (and nothing reaches the service); turned back
 * on, the test reaches the service and passes.
 */
export async function walkCredentialSwitches(walk: Walk, plain: Sandbox): Promise<void> {
	const { expect } = walk;
	await step('credential dialog: a service on plain http and Allow Plain HTTP', async () => {
		// Made only now: with two credentials of the type, n8n would give new nodes the newer one.
		const credential = await walk.client.request<{ id: string }>('POST', '/credentials', {
			name: 'Notification service (plain http)',
			type: 'multiChannelNotificationApi',
			data: { apiKey: plain.apiKey, baseUrl: plain.url, allowPlainHttp: true },
		});
		const page = await walk.context.newPage();
		await page.goto(`${walk.url}/home/credentials/${credential.id}`, { waitUntil: 'commit' });
		const dialog = page.getByTestId('credential-edit-dialog');
		await dialog.waitFor({ timeout: 60_000 });
		const allowPlainHttp = dialog.getByTestId('parameter-input-allowPlainHttp');
		const ignoreSslIssues = dialog.getByTestId('parameter-input-ignoreSslIssues');
		await allowPlainHttp.waitFor();
		const switches = {
			allowPlainHttp: (await allowPlainHttp.locator('.is-checked').count()) > 0,
			ignoreSslIssues: (await ignoreSslIssues.locator('.is-checked').count()) > 0,
		};
		expect(
			switches.allowPlainHttp && !switches.ignoreSslIssues && (await dialog.getByText('Ignore SSL Issues (Insecure)').isVisible()),
			'the dialog has Allow Plain HTTP (on for this credential) and Ignore SSL Issues (Insecure) (off)',
			switches,
		);

		// n8n may test the credential as the dialog opens: count from here.
		const before = plain.requests.length;
		await allowPlainHttp.locator('.el-switch').click();
		await page.getByTestId('credential-save-button').click();
		// n8n's banner: "Couldn't connect with these settings", the node's message under More details.
		await dialog.getByText(/Couldn.t connect with these settings/).waitFor({ timeout: 60_000 });
		await dialog.getByText('More details').click();
		const said = dialog.getByText(/turn on Allow Plain HTTP/).first();
		await said.waitFor();
		expect(plain.requests.length === before, 'turned off and saved: the test fails, and More details names Allow Plain HTTP; nothing reached the service', await said.innerText());
		await walk.screenshot(page, 'credential-plain-http-refused.png');

		await allowPlainHttp.locator('.el-switch').click();
		await page.getByTestId('credential-save-button').click();
		await dialog.getByText('Connection tested successfully').waitFor({ timeout: 60_000 });
		const tests = plain.requests.slice(before);
		expect(
			tests.length > 0 && tests.every((request) => request.headers.authorization === plain.apiKey && !request.delivered),
			'turned back on and saved: the test reached the service over http with the key, delivered nothing, and passed',
			tests.length,
		);
		await walk.screenshot(page, 'credential-plain-http-allowed.png');
		await page.close();
	});
}
