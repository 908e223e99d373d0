/**
 * Send and Wait for Response walked in n8n's real editor as a no-code user walks it: from the node
 * creator (and its Human review sections) to the SMS variant's panel, a refused number, the
 * person's answer through the link, the Chat Message and Combined Notification variants, and an
 * AI Agent's "Add human review step". Each step asserts what the panel shows and what the sandbox
 * received.
 */
import type { Editor, Tab } from './browser';
import { inTab } from './browser';
import { workflowFixture } from './examples';
import { step } from './stack';
import { bodies, errorShown, fresh, TRIGGER } from './walkHelpers';
import { findAnswerLink } from '../../../sandbox/server';

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
const NODE_NAME = 'Multi-Channel Notification';
/** Shown on the answer page and expected back in the node's output once the person answers. */
const QUESTION = 'Refund order A-1042 (Rp 250.000)?';
const FREE_TEXT_ANSWER = 'Yes, refund it to the card';
/** The notice above Approval Options (editor/responseFields.ts). */
const BUTTONS_NOTICE = 'Without Approval Options the answer page offers ✓ Approve and ✗ Decline.';
/** The start of the human-review tool's notice for the person building the workflow (sms/sendSmsAndWait.operation.ts). */
const REVIEW_NOTICE = 'the reviewer gets the Message above by SMS at the Phone Number below, with a link to an answer page';

/** Opens a workflow with only a Manual Trigger and, from the trigger's "+", the node creator ("What happens next?"). */
const creatorAfterTrigger = (editor: Editor, name: string) => async (): Promise<Tab> => {
	const tab = await editor.create(workflowFixture('', name, [TRIGGER]));
	await tab.page.getByTestId('canvas-handle-plus').first().click({ timeout: 60_000 });
	await tab.creator.getByTestId('nodes-list-header').filter({ hasText: 'What happens next?' }).waitFor();
	return tab;
};

/**
 * Send and Wait for Response: find the operation in the node creator (by search, and in n8n's
 * Human review section), add the SMS variant from there, read its panel, switch to Free Text,
 * make a mistake and execute, then execute for real and answer the link as the person would;
 * then the Chat Message and Combined Notification variants, and an AI Agent's "Add human review step".
 */
export async function walkSendAndWait(editor: Editor): Promise<void> {
	const { expect } = editor.check;

	await inTab('node creator: search the node, its actions per resource', creatorAfterTrigger(editor, 'Walk: send and wait actions'), async (tab) => {
		await tab.creator.getByTestId('node-creator-search-bar').fill('Multi-Channel');
		const waits = Object.values(WAIT_ACTIONS).flat().join('; ');
		const what = `the actions list groups the operations per resource, each with its "… and wait for response" action (${waits})`;
		editor.expectEqual(await tab.nodeActions(NODE_NAME), ACTIONS, what);
		await tab.screenshot('send-and-wait-actions.png');
	});

	const tab = await step('node creator: Human review lists the node', async () => {
		const opened = await creatorAfterTrigger(editor, 'Walk: send and wait (SMS)')();
		const review = opened.creator.getByTestId('item-iterator-item').filter({ has: opened.creatorItem(/^Human review$/) });
		const description = (await review.getByTestId('node-creator-item-description').textContent()) ?? '';
		expect(description.startsWith('Request approval'), '"What happens next?" offers Human review', description);
		await review.click();
		await opened.creator.getByTestId('node-creator-category-item').filter({ hasText: 'Send and wait for response' }).waitFor();
		const names = await opened.listedNodes();
		const what = 'Human review → "Send and wait for response" lists Multi-Channel Notification beside n8n\'s own (Telegram, WhatsApp Business Cloud, …)';
		expect(names.includes(NODE_NAME) && names.includes('Telegram'), what, names);
		await opened.screenshot('human-review-section.png');
		// n8n opens a community node's details here (its own nodes are added at once), with only
		// the Send and Wait actions.
		const only = 'the node\'s details under Human review offer only the three Send and Wait actions, one per resource';
		editor.expectEqual(await opened.nodeActions(NODE_NAME), WAIT_ACTIONS, only);
		await opened.creatorItem(SMS_WAIT_ACTION).click();
		await opened.panelWith('phoneNumber');
		return opened;
	});

	await step('SMS → Send and Wait for Response: the panel', async () => {
		const chosen = `choosing "${SMS_WAIT_ACTION}" adds the node with Resource SMS, Operation Send and Wait for Response`;
		editor.expectEqual(await tab.values('resource', 'operation'), { resource: 'SMS', operation: 'Send and Wait for Response' }, chosen);
		const hidden = ['from', 'to', 'templateName', 'linkPlaceholder', 'mediaType', 'approveLabel'];
		await tab.fields('Send and Wait (SMS, approval)', ['phoneNumber', 'message', 'responseType', 'approvalOptions'], hidden);
		const responseType = { ...(await tab.values('responseType')), offered: await tab.select('responseType', 'Approval') };
		const typesSaid = 'Response Type offers Approval (the default), Free Text and Custom Form';
		editor.expectEqual(responseType, { responseType: 'Approval', offered: ['Approval', 'Free Text', 'Custom Form'] }, typesSaid);

		const buttons = tab.page.getByText(BUTTONS_NOTICE).first();
		expect(await buttons.isVisible(), `above Approval Options the panel says "${BUTTONS_NOTICE}"`);
		await tab.field('approvalOptions').getByTestId('fixed-collection-add').click();
		const approval = await tab.values('approvalType', 'approveLabel', 'disapproveLabel');
		const approvalSaid = 'Approval Options → Add option: Type of Approval "Approve and Disapprove", Approve Button Label "✓ Approve", Disapprove Button Label "✗ Decline"';
		editor.expectEqual(approval, { approvalType: 'Approve and Disapprove', approveLabel: '✓ Approve', disapproveLabel: '✗ Decline' }, approvalSaid);
		await tab.select('approvalType', 'Approve Only');
		await tab.field('disapproveLabel').waitFor({ state: 'hidden' });
		expect(true, 'Approve Only hides Disapprove Button Label');
		await tab.select('approvalType', 'Approve and Disapprove');
		editor.expectEqual(await tab.values('disapproveLabel'), { disapproveLabel: '✗ Decline' }, 'Approve and Disapprove brings Disapprove Button Label "✗ Decline" back');

		const offered = ['Allow Unsigned Answer Links', 'Dry Run', 'Limit Wait Time', 'Max SMS Segments', 'Phone Number Format', 'Replace Look-Alike Characters', 'Timeout (Milliseconds)'];
		const offeredSaid = 'Options → Add Option offers Allow Unsigned Answer Links, Dry Run, Limit Wait Time, Max SMS Segments, Phone Number Format, Replace Look-Alike Characters, Timeout (no pacing or Send Once options)';
		editor.expectEqual(await tab.addOption('Limit Wait Time'), offered, offeredSaid);
		const limit = { ...(await tab.values('limitType', 'resumeAmount', 'resumeUnit')), maxDateAndTimeShown: await tab.field('maxDateAndTime').isVisible() };
		const limitSaid = 'Limit Wait Time starts at After Time Interval, Amount 45.00 (two decimals, as n8n\'s own), Unit Minutes';
		editor.expectEqual(limit, { limitType: 'After Time Interval', resumeAmount: '45.00', resumeUnit: 'Minutes', maxDateAndTimeShown: false }, limitSaid);
		await tab.input('phoneNumber').fill('0812 3456 7890');
		await tab.input('message').fill(QUESTION);
		// Leave the field, so the picture shows the form rather than the field's focus tip.
		await tab.page.evaluate('document.activeElement?.blur()');
		await tab.screenshot('send-and-wait-sms.png', 'approvalOptions');

		await tab.select('responseType', 'Custom Form');
		await tab.field('formFields').getByTestId('fixed-collection-add').click();
		const element = { ...(await tab.values('fieldType', 'fieldLabel')), optionsShown: await tab.field('fieldOptions').isVisible() };
		editor.expectEqual(element, { fieldType: 'Text Input', fieldLabel: '', optionsShown: false }, 'Custom Form → Add Form Element: Element Type "Text Input", an empty Label');
		await tab.input('fieldLabel').fill('Reason');
		await tab.select('fieldType', 'Dropdown');
		expect(await tab.field('fieldOptions').isVisible(), 'Element Type Dropdown adds Field Options');
		expect(await tab.field('multiselect').isVisible(), 'and Multiple Choice, as n8n\'s own forms offer it');
		await tab.page.evaluate('document.activeElement?.blur()');
		await tab.screenshot('send-and-wait-custom-form.png', 'formFields');
		await tab.select('fieldType', 'Custom HTML');
		await tab.fields('Element Type Custom HTML', ['html', 'elementName'], ['fieldLabel', 'requiredField', 'fieldName', 'multipleFiles']);
		await tab.select('fieldType', 'File');
		await tab.fields('Element Type File', ['fieldLabel', 'multipleFiles', 'acceptFileTypes', 'requiredField'], ['fieldOptions', 'multiselect', 'fieldName', 'placeholder']);
		await tab.select('fieldType', 'Hidden Field');
		await tab.fields('Element Type Hidden Field', ['fieldName', 'fieldValue'], ['fieldLabel', 'fieldOptions', 'requiredField', 'multipleFiles', 'acceptFileTypes']);
		const defineForm = await tab.select('defineForm', 'Using JSON');
		editor.expectEqual(defineForm, ['Using Fields Below', 'Using JSON'], 'Define Form offers Using Fields Below (the default) and Using JSON, as n8n\'s own forms do');
		await tab.fields('Define Form → Using JSON', ['jsonOutput'], ['formFields']);

		await tab.select('responseType', 'Free Text');
		await tab.field('approvalOptions').waitFor({ state: 'hidden' });
		const approvalFields = ['approvalOptions', 'approvalType', 'approveLabel', 'disapproveLabel'];
		await tab.fields('Free Text', ['phoneNumber', 'message', 'responseType', 'limitWaitTime'], approvalFields);
		const options = await tab.addOption('Response Form Button Label');
		const formOptions = ['Response Form Button Label', 'Response Form Description', 'Response Form Title'].every((name) => options.includes(name));
		expect(formOptions, 'Free Text adds Response Form Title, Description and Button Label to Options, as n8n\'s own nodes name them', options);
		editor.expectEqual(await tab.values('responseFormButtonLabel'), { responseFormButtonLabel: 'Submit' }, 'Response Form Button Label starts at "Submit"');
		await tab.screenshot('send-and-wait-free-text.png', 'responseType');
	});

	await step('a number outside +62, then Execute step', async () => {
		await tab.input('phoneNumber').fill('+65 9123 4567');
		const { output, sent } = await tab.execute();
		const { title, description } = await errorShown(output);
		const refused = title.includes('Phone Number') && description.includes('+62') && description.includes('Nothing was sent');
		expect(refused, 'the panel names Phone Number, asks for a +62 number and says nothing was sent', { title, description });
		const waits = await output.getByText('Waiting for input').isVisible();
		expect(sent.length === 0 && !waits, 'the sandbox received nothing and the node does not wait', bodies(sent));
		await tab.screenshot('send-and-wait-error.png');
	});

	await step('fix the number, Execute step, the person answers the link', async () => {
		await tab.input('phoneNumber').fill('0812 3456 7890');
		// The waiting tooltip names the channel and the number as set, and where the answer link is.
		const { output, sent } = await tab.execute('The question went by SMS to 0812 3456 7890.');
		await tab.screenshot('send-and-wait-waiting.png');
		const message = (sent[0]?.body as { message?: string } | undefined)?.message ?? '';
		const link = sent.length === 1 ? findAnswerLink(sent[0].path, sent[0].body) : undefined;
		const asked = sent.length === 1 && message.startsWith(`${QUESTION}\n`) && link !== undefined && message.endsWith(link);
		expect(asked, 'one SMS went out, the question then the answer link on its own line; the panel says it waits for the answer to that SMS and to whom it went', bodies(sent));
		// As under `npm start`, nobody answers it but the user: they open the link from the sandbox's
		// phone page on a phone-sized screen (a context of its own), in the new tab it opens.
		const answeredBySandbox = editor.check.sandbox.answers.some((record) => record.requestSeq === sent[0]?.seq);
		expect(!answeredBySandbox, 'the sandbox did not answer the question built in the editor (its automatic answers are kept to the refund example)');
		const screen = await editor.browser.newContext({ viewport: { width: 360, height: 740 } });
		const phonePage = await screen.newPage();
		await phonePage.goto(editor.check.sandbox.phoneUrl ?? '', { waitUntil: 'load' });
		const onPhone = phonePage.locator('li', { hasText: QUESTION });
		await onPhone.waitFor({ timeout: 30_000 });
		expect((await onPhone.getByText('Answered automatically').count()) === 0, 'the phone page shows the SMS, not answered automatically');
		const [phone] = await Promise.all([screen.waitForEvent('page'), onPhone.locator(`a[href="${link ?? ''}"]`).click()]);
		await phone.getByText(QUESTION).waitFor({ timeout: 30_000 });
		await phone.locator('textarea').fill(FREE_TEXT_ANSWER);
		await phone.getByRole('button', { name: 'Submit' }).click();
		await phone.getByText('Thank you').first().waitFor({ timeout: 30_000 });
		await screen.close();
		await output.getByText(FREE_TEXT_ANSWER).first().waitFor({ timeout: 60_000 });
		expect(true, `the execution resumed: the output panel shows the answer "${FREE_TEXT_ANSWER}"`);
		await tab.screenshot('send-and-wait-answered.png');
		await tab.page.close();
	});

	await step('Chat Message and Combined Notification → Send and Wait for Response', async () => {
		const chat = await fresh(editor, 'Walk: send and wait (chat)', { resource: 'chatMessage', operation: 'sendAndWait' })();
		const chatFields = ['from', 'to', 'templateName', 'bodyParameters', 'linkPlaceholder', 'message', 'responseType', 'approvalOptions'];
		await chat.fields('Send and Wait (Chat Message)', chatFields, ['phoneNumber', 'mediaType']);
		editor.expectEqual(await chat.values('linkPlaceholder'), { linkPlaceholder: '1' }, 'Link Goes Into shows, set to body placeholder 1');
		await chat.screenshot('send-and-wait-chat.png', 'linkPlaceholder');
		await chat.page.close();

		const combined = await fresh(editor, 'Walk: send and wait (combined)', { resource: 'combined', operation: 'sendAndWait' })();
		const combinedFields = ['from', 'to', 'templateName', 'linkPlaceholder', 'phoneNumber', 'message', 'responseType'];
		await combined.fields('Send and Wait (Combined Notification)', combinedFields, ['mediaType']);
		await combined.page.close();
	});

	const [agent, tool] = ['AI Agent', 'Calculator'];
	const agentNode = { name: agent, type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 3.1, position: [240, 0] as [number, number], parameters: {} };
	const toolNode = { name: tool, type: '@n8n/n8n-nodes-langchain.toolCalculator', position: [400, 240] as [number, number], parameters: {} };
	const agentWorkflow = workflowFixture('', 'Walk: human review for an AI agent', [TRIGGER, agentNode, toolNode], [[TRIGGER.name, agent], [tool, agent, 'ai_tool']]);
	/** A connection on the canvas, from a node (and to one). */
	const edge = (from: string, to?: string): string => `[data-test-id="edge"][data-source-node-name="${from}"]${to ? `[data-target-node-name="${to}"]` : ''}`;
	await inTab('AI Agent: "Add human review step" lists the node', async () => await editor.create(agentWorkflow), async (canvas) => {
		await canvas.page.locator(edge(tool)).waitFor({ timeout: 60_000 });
		await canvas.hoverUntilShown(`${edge(tool)} path`, canvas.page.getByTestId('add-connection-button'));
		await canvas.page.getByTestId('add-connection-button').first().click();
		await canvas.creator.getByTestId('nodes-list-header').filter({ hasText: 'Human review' }).waitFor();
		const names = await canvas.listedNodes();
		const what = 'on an AI Agent\'s tool connection, "Add human review step" → Human review lists Multi-Channel Notification (its human-review tool)';
		expect(names.includes(NODE_NAME), what, names);
		await canvas.screenshot('human-review-ai-agent.png');
		// A community node opens its details first; "Add to workflow" puts its human-review tool
		// between the tool and the agent and opens its panel.
		await canvas.creatorItem(NODE_NAME).click();
		await canvas.creator.getByTestId('item-iterator-item').filter({ hasText: 'Add to workflow' }).click();
		await canvas.panelWith('phoneNumber');
		const edges = [await canvas.page.locator(edge(tool, NODE_NAME)).count(), await canvas.page.locator(edge(NODE_NAME, agent)).count()];
		const message = 'The agent wants to call {{ $tool.name }}';
		const wired = `"Add to workflow" wires ${tool} → ${NODE_NAME} → ${agent}; the panel starts with n8n's Message "${message}"`;
		editor.expectEqual({ edges, message: (await canvas.field('message').textContent())?.trim() }, { edges: [1, 1], message }, wired);
		const fixedByN8n = ['resource', 'operation', 'responseType', 'from', 'to', 'templateName', 'linkPlaceholder'];
		const modelFacing = ['toolDescription'];
		const panelSaid = 'the human-review tool (an SMS; n8n fixes Resource, Operation and Response Type), without the model-facing Tool Description';
		await canvas.fields(panelSaid, ['message', 'phoneNumber', 'approvalOptions'], [...fixedByN8n, ...modelFacing]);
		const notices = { review: await canvas.page.getByText(REVIEW_NOTICE).first().isVisible(), buttons: await canvas.page.getByText(BUTTONS_NOTICE).first().isVisible() };
		const noticesSaid = `the panel says to the person building the workflow that ${REVIEW_NOTICE}, and that the page offers ✓ Approve and ✗ Decline`;
		editor.expectEqual(notices, { review: true, buttons: true }, noticesSaid);
		await canvas.field('approvalOptions').getByTestId('fixed-collection-add').click();
		const approval = await canvas.values('approvalType', 'approveLabel', 'disapproveLabel');
		const approvalSaid = 'its Approval Options → Add option: Approve and Disapprove, "✓ Approve" and "✗ Decline"';
		editor.expectEqual(approval, { approvalType: 'Approve and Disapprove', approveLabel: '✓ Approve', disapproveLabel: '✗ Decline' }, approvalSaid);
		await canvas.input('phoneNumber').fill('0813 1111 2222');
		await canvas.page.evaluate('document.activeElement?.blur()');
		await canvas.screenshot('human-review-panel.png', 'phoneNumber');
	});
}
