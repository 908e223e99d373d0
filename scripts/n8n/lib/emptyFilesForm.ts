/**
 * A Custom Form with two optional File elements, both left empty, answered in Chromium with
 * JavaScript on (check-send-and-wait.ts runs it). The page's one script leaves file inputs with
 * no file out of the POST, so an n8n that stops reading a form at an empty file input (2.8.4,
 * 1.123.x) still reads it whole; without it the page says the form did not arrive whole. What the
 * browser said about the page's Content-Security-Policy comes back too: a script the policy
 * blocks shows up there, on an n8n that drops empty file inputs itself as well.
 */
import { launchChromium } from './browser';
import type { CheckContext } from './check';
import { manualTrigger, noOp, packageNode, workflowFixture } from './examples';
import type { Execution } from './n8n';
import { FINISHED } from './n8n';
import { requestsTo, smsOf } from './sandbox';

export const EMPTY_FILES_ELEMENTS = [
	{ fieldLabel: 'Note', fieldType: 'text', requiredField: true },
	{ fieldLabel: 'Receipt', fieldType: 'file', multipleFiles: false },
	{ fieldLabel: 'Photos', fieldType: 'file' },
];

export const emptyFilesWorkflow = (ask: Record<string, unknown>) =>
	workflowFixture('mcnSendAndWait05', 'Send and Wait check: two optional files left empty', [
		manualTrigger(),
		packageNode('Ask', { ...ask, responseType: 'customForm', formFields: { values: EMPTY_FILES_ELEMENTS } }),
		noOp(),
	]);

export interface EmptyFilesAnswer {
	/** The heading of the page after Submit: "Thank you", or "Answer not recorded". */
	heading: string;
	text: string;
	/** What Chromium's console said about the Content-Security-Policy. */
	policyMessages: string[];
	/** The execution once finished, or as it is when the answer was not recorded. */
	run: Execution;
}

/** Runs the workflow until it waits, opens its link in Chromium (JavaScript on), fills in Note only and submits. */
export async function answerWithFilesEmpty({ sandbox, stack: { client } }: Pick<CheckContext, 'sandbox' | 'stack'>, workflowId: string): Promise<EmptyFilesAnswer> {
	const { id } = await client.execute(workflowId, { until: ['waiting', ...FINISHED] });
	const browser = await launchChromium();
	try {
		const page = await (await browser.newContext({ viewport: { width: 360, height: 640 }, javaScriptEnabled: true })).newPage();
		const policyMessages: string[] = [];
		page.on('console', (message) => {
			if (/Content.Security.Policy/i.test(message.text())) policyMessages.push(message.text());
		});
		await page.goto(smsOf(requestsTo(sandbox).at(-1)!).message.split('\n')[1], { waitUntil: 'load' });
		await page.getByLabel('Note').fill('Box crushed');
		await page.getByRole('button', { name: 'Submit' }).click();
		await page.locator('h1').waitFor({ timeout: 30_000 });
		const [heading, text] = [await page.locator('h1').textContent(), await page.locator('.message').first().textContent()];
		const run = heading === 'Thank you' ? await client.statusBecomes(id) : await client.execution(id);
		return { heading: heading ?? '', text: text ?? '', policyMessages, run };
	} finally {
		await browser.close();
	}
}
