/**
 * The paths a no-code user takes, walked in n8n's real editor as such a user walks them, each in
 * a fresh workflow (Manual Trigger → our node, created through the editor's REST API): paste
 * the template text, add Options → Dry Run and execute, add a second quick reply, failover with
 * a To outside +62, an error with several problems. Each step asserts what the panel shows and
 * what the sandbox received. Send and Wait for Response has its own walk, in sendAndWaitWalk.ts.
 */
import type { Editor } from './browser';
import { inTab, isOn } from './browser';
import { componentsOf, errorShown, fresh } from './walkHelpers';
import { templateParameters as template } from '../../../harness/templateParameters';

const TEMPLATE_TEXT = 'Hi {{1}}, your order {{2}} shipped';
const ONE_BODY_PARAMETER = { bodyParameters: { parameter: [{ text: 'Budi' }] } };

export async function walkUserPaths(editor: Editor): Promise<void> {
	const { expect } = editor.check;
	await editor.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: editor.url });

	await inTab('paste the approved template text into Template Content', fresh(editor, 'Walk: paste template text', template()), async (tab) => {
		await tab.field('templateContent').click();
		// The browser's own clipboard and Ctrl+V: the paste n8n's input sees (a string, run in the page).
		await tab.page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(TEMPLATE_TEXT)})`);
		await tab.page.keyboard.press('Control+V');
		const content = tab.page.getByTestId('parameter-item').filter({ hasText: 'Template Content' }).first();
		await content.getByTestId('inline-expression-editor-input').waitFor();
		const placeholder1 = await tab.field('placeholder1').isVisible();
		expect(!placeholder1, 'pasting made n8n switch Template Content to Expression; no {{1}} input while it evaluates {{1}} to 1');
		// n8n shows the evaluated text where the field's hint would be (so the hint is not seen).
		const preview = (await tab.page.getByTestId('parameter-expression-preview-templateContent').innerText()).replace(/\s+/g, ' ');
		expect(preview.includes('Hi 1, your order 2 shipped'), 'n8n previews the evaluated text "Hi 1, your order 2 shipped" under the field', preview);
		await content.getByTestId('radio-button-fixed').click();
		await tab.field('placeholder2').waitFor();
		const inputs = { placeholder1: await tab.field('placeholder1').isVisible(), placeholder3: await tab.field('placeholder3').isVisible() };
		editor.expectEqual(inputs, { placeholder1: true, placeholder3: false }, 'after Fixed: one input per placeholder, {{1}} and {{2}}, and no more');
		expect(!(await tab.field('bodyParameters').isVisible()), 'with Template Content given, Body Parameters is not shown: the {{1}}, {{2}} inputs are the one way to give the values');
		await tab.type('placeholder1', 'Budi');
		await tab.type('placeholder2', 'A-1042');
		await tab.screenshot('editor-placeholder-inputs.png', 'placeholder1');
		const { sent } = await tab.execute('Hi Budi, your order A-1042 shipped');
		const body = { type: 'body', parameters: [{ type: 'text', text: 'Budi' }, { type: 'text', text: 'A-1042' }] };
		editor.expectEqual(componentsOf(sent[0])[0], body, 'executed: the values of {{1}} and {{2}} were sent in order and the output shows the finished message');
	});

	await inTab('add Options → Dry Run and execute', fresh(editor, 'Walk: dry run', template(ONE_BODY_PARAMETER)), async (tab) => {
		await tab.addOption('Dry Run');
		await tab.field('dryRun').waitFor();
		expect(await isOn(tab.field('dryRun')), 'Dry Run is on as soon as it is added');
		const { sent } = await tab.execute('dry run 1');
		expect(sent.length === 0, 'executed: nothing reached the service; the run summary says "dry run 1"');
		await tab.screenshot('editor-dry-run.png', 'dryRun');
	});

	const sms = { resource: 'sms', operation: 'send', phoneNumber: '+6281234567890', message: 'Your order is ready — pick it up “today”' };
	await inTab('an SMS with a long dash and curly quotes, with Dry Run', fresh(editor, 'Walk: SMS cost', sms), async (tab) => {
		await tab.addOption('Dry Run');
		await tab.field('dryRun').waitFor();
		const { output, sent } = await tab.execute('UCS-2');
		const shown = (await output.innerText()).replace(/\s+/g, ' ');
		expect(sent.length === 0 && shown.includes('UCS-2') && shown.includes('—'), 'Dry Run sent nothing and shows the SMS as UCS-2, forced by the long dash and the quotes, with its segments', shown.slice(0, 400));
		// The JSON view, where the item's `sms` (encoding, segments, what forced UCS-2) is in sight.
		await output.getByTestId('radio-button-json').click();
		await output.getByText('forcedBy').first().waitFor();
		await tab.screenshot('editor-sms-dry-run.png', 'dryRun');
	});

	await inTab('add two quick replies without touching Index', fresh(editor, 'Walk: quick replies', template(ONE_BODY_PARAMETER)), async (tab) => {
		for (let added = 0; added < 2; added++) await tab.page.getByRole('button', { name: 'Add Quick Reply Button' }).click();
		const inputs = await tab.field('quickReplyButtons').getByTestId('parameter-input-index').locator('input').all();
		const indexes = await Promise.all(inputs.map(async (input) => await input.inputValue()));
		editor.expectEqual(indexes, ['Next Free Position', 'Next Free Position'], 'both new quick replies show Index "Next Free Position"');
		await tab.type('payload', 'yes', 0);
		await tab.type('payload', 'no', 1);
		const { sent } = await tab.execute('success');
		const positions = componentsOf(sent[0]).flatMap((component) => (component.index === undefined ? [] : [component.index]));
		editor.expectEqual(positions, ['0', '1'], 'executed: the two quick replies went out at positions 0 and 1');
	});

	const failover = template({ resource: 'combined', operation: 'sendWithFailover', to: '+6591234567', templateName: 'otp', message: 'Your code is 123456' });
	await inTab('Send with Failover with a To outside +62', fresh(editor, 'Walk: failover', failover), async (tab) => {
		const { output, sent } = await tab.execute();
		const { description } = await errorShown(output);
		const said = ['SMS Phone Number', 'It is the To number unless you set another one'].every((text) => description.includes(text));
		expect(said && sent.length === 0, 'the panel says SMS Phone Number copies To and asks for a +62 number; nothing was sent', description);
	});

	const problems = template({ to: 'not a number', templateContent: 'Hi {{1}}', bodyParameters: { parameter: [{ text: 'a' }, { text: 'b' }] } });
	await inTab('an item with several problems', fresh(editor, 'Walk: several problems', problems), async (tab) => {
		const { title, description } = await errorShown((await tab.execute()).output);
		const lines = description.split('\n').map((line) => line.trim());
		// Body Parameters is hidden beside Template Content, and n8n drops it: the {{1}} input is named.
		editor.expectEqual(title, 'Item 0: 2 problems (To, Placeholder Values)', 'the title names both fields');
		const problemLines = ['• To must be in full international form like +6281234567890', '• Placeholder Values must have a value for each placeholder'];
		const listed = problemLines.every((start) => lines.some((line) => line.startsWith(start))) && lines.includes('Nothing was sent for this item.');
		expect(listed, 'the panel shows one problem per line, then "Nothing was sent for this item."', lines);
		await tab.screenshot('editor-error-panel.png');
	});
}
