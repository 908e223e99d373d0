/**
 * The sandbox's phone page with real n8n, under the conditions of `npm start`: the examples run
 * with the sandbox answering the refund example's question, then a Send and Wait the user built
 * (its own node, to the same manager) waits, shows up on the open page by itself, and is answered
 * from it in Chromium on a 360 px screen: its link opens n8n's answer page in a new tab, and
 * pressing Approve resumes the execution. Also: the page's switch turns automatic answers off and
 * on, and the screenshot for docs/sandbox.md.
 *
 *   npx tsx scripts/n8n/check-phone-page.ts     (after `npm run build`; needs Debian's chromium)
 */
import { join } from 'node:path';

import { launchChromium, SCREENSHOTS } from './lib/browser';
import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { demoAnswerPlan, loadExamples, manualTrigger, MEDIA_RECIPIENT, noOp, packageNode, REFUND_MANAGER, runExample, workflowFixture } from './lib/examples';
import { FINISHED, firstJson } from './lib/n8n';
import { requestsTo } from './lib/sandbox';
import { step } from './lib/stack';

const SHOWN = ['template-send.json', 'media-send.json', 'failover-send.json', 'approve-refund-sms.json'];
const QUESTION = 'Ship the replacement for order B-77?';
/** A Send and Wait the user built: a node of their own, to the very number the example asks. */
const MINE = workflowFixture('mcnPhonePage0001', 'My own approval', [
	manualTrigger(),
	packageNode('Ask', { resource: 'sms', operation: 'sendAndWait', phoneNumber: REFUND_MANAGER, message: QUESTION, responseType: 'approval' }),
	noOp(),
]);
const examples = () => loadExamples({ answered: true }).filter((example) => SHOWN.includes(example.file));

async function body({ sandbox, stack: { client }, expect }: CheckContext): Promise<void> {
	// As `npm start` sets the sandbox up.
	sandbox.setAnswerPlan(demoAnswerPlan());
	sandbox.startChat(MEDIA_RECIPIENT);
	const phoneUrl = sandbox.phoneUrl ?? '';
	expect(/^http:\/\/127\.0\.0\.1:\d+$/.test(phoneUrl), 'the sandbox serves its phone page on http://127.0.0.1', phoneUrl);

	const results = await step('run the template, media, failover and refund examples', async () => {
		const done = [];
		for (const example of examples()) done.push(await runExample(client, example));
		return done;
	});
	expect(results.length === SHOWN.length && results.every((result) => result.passed), 'every example did what it should', results.map((result) => result.problem));
	const refund = results.find((result) => result.example.file === 'approve-refund-sms.json');
	expect(refund?.rows[0]?.result === 'answered: approved', 'the sandbox answered the refund example for the user', refund?.rows);

	const browser = await launchChromium();
	try {
		const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
		const page = await context.newPage();
		await page.goto(phoneUrl, { waitUntil: 'load' });
		expect((await page.getByText('Answered automatically').count()) === 1, 'the page marks the refund example\'s message as answered automatically');

		const mine = await step('run my own Send and Wait until it waits', async () => await client.execute(MINE.id, { until: ['waiting', ...FINISHED] }));
		expect(mine.status === 'waiting', 'my execution waits', mine.status);
		const sent = requestsTo(sandbox).at(-1);
		expect(sandbox.answers.every((record) => record.requestSeq !== sent?.seq), 'the sandbox did not answer my question (same number, my own node)', sandbox.answers);

		const message = page.locator('li', { hasText: QUESTION });
		await message.waitFor({ timeout: 15_000 });
		expect(true, 'my question showed up on the open page without a reload');
		const width = await page.locator('html').evaluate((html) => html.scrollWidth);
		expect(width <= 360, 'the page fits a 360 px screen', width);
		await page.screenshot({ path: join(SCREENSHOTS, 'sandbox-phone-page.png'), fullPage: true });

		await page.getByRole('button', { name: 'Turn off' }).click();
		await page.getByRole('button', { name: 'Turn on' }).waitFor();
		expect(!sandbox.automaticAnswers(), 'Turn off turned automatic answers off');
		await page.getByRole('button', { name: 'Turn on' }).click();
		await page.getByRole('button', { name: 'Turn off' }).waitFor();
		expect(sandbox.automaticAnswers(), 'Turn on turned them back on');

		const link = message.locator('a[href*="/webhook-waiting/"]');
		expect((await link.getAttribute('target')) === '_blank' && /noopener/.test((await link.getAttribute('rel')) ?? ''), 'my answer link opens in a new tab, rel=noopener');
		const [answerPage] = await Promise.all([context.waitForEvent('page'), link.click()]);
		await answerPage.waitForLoadState('load');
		await answerPage.getByRole('button', { name: /Approve/ }).click();
		const finished = await client.statusBecomes(mine.id);
		expect(finished.status === 'success' && (firstJson(finished, 'Ask')?.data as { approved?: boolean } | undefined)?.approved === true, 'approving on the page the link opened resumed my execution with approved: true', firstJson(finished, 'Ask'));
	} finally {
		await browser.close();
	}
}

export const phonePageCheck: Check = {
	name: 'phone-page check',
	prepare: () => ({ workflows: [...examples().map((example) => example.workflow), MINE], run: body }),
};

runIfMain(module, phonePageCheck);
