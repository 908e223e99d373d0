/**
 * Browser check: what a new user sees in n8n's real editor, driven by Chromium (playwright-core),
 * with screenshots for the docs. First each example's node: the fields each operation shows and
 * hides, the options that change the form (Define Components, Media Type), a step executed from
 * the panel. Then the walks, each in a fresh workflow: the user paths of lib/editorWalk.ts
 * (template text, Dry Run, quick replies, failover, several problems) and Send and Wait for
 * Response in lib/sendAndWaitWalk.ts, from the node creator to the person's answer and an AI
 * Agent's human-review step.
 * Last, the credential dialog with a service on plain http: Allow Plain HTTP off fails the test
 * naming the switch, on passes it.
 *
 *   npx tsx scripts/n8n/check-editor.ts     (after `npm run build`; needs Debian's chromium)
 *
 * CHROMIUM_PATH overrides /usr/bin/chromium; SCREENSHOT_DIR overrides docs/images/.
 */
import type { Tab } from './lib/browser';
import { Editor, inTab, isOn } from './lib/browser';
import type { Check, CheckContext } from './lib/check';
import { runIfMain } from './lib/check';
import { CREDENTIAL_TYPE } from './lib/config';
import { walkUserPaths } from './lib/editorWalk';
import { demoAnswerPlan, loadExamples, MEDIA_RECIPIENT } from './lib/examples';
import { newRequests, SMS_PATH, startSandbox, untilQuiet } from './lib/sandbox';
import { walkSendAndWait } from './lib/sendAndWaitWalk';
import { step } from './lib/stack';

const TEMPLATE = ['templateName', 'languageCode', 'componentsInputMode'];
const COMPONENTS = ['bodyParameters', 'headerImageUrl', 'quickReplyButtons', 'urlButton'];
const MEDIA = ['mediaType', 'mediaUrl'];
const SMS = ['phoneNumber', 'message'];
/** Every field of the operations that send at once, in the form's order. */
const ALL = ['from', 'to', ...TEMPLATE, ...COMPONENTS, ...MEDIA, 'caption', ...SMS, 'componentsJson'];
/** A whole form: these fields show and every other one of ALL is hidden. */
const only = (...shown: string[]): [string[], string[]] => [shown, ALL.filter((name) => !shown.includes(name))];

async function body({ sandbox, stack, expect }: CheckContext): Promise<void> {
	// A second service, on plain http, for the credential dialog's Allow Plain HTTP.
	const plain = await startSandbox({ port: 0, quiet: true, plainHttp: true });
	sandbox.startChat(MEDIA_RECIPIENT);
	// As `npm start` sets it: the sandbox answers the refund example alone, so the Send and Wait built in the walk waits for its user.
	sandbox.setAnswerPlan(demoAnswerPlan());
	const editor = await step('start Chromium and sign in', async () => await Editor.start(stack, { sandbox, expect }));
	try {
		const example = (name: string, workflowId: string, node: string, walk: (tab: Tab) => Promise<void>): Promise<void> =>
			inTab(name, async () => await editor.openNode(workflowId, node), walk);

		await example('Chat Message → Send Template', 'mcnExTemplate001', 'Send order update', async (tab) => {
			await tab.fields('Send Template (fields mode)', ...only('from', 'to', ...TEMPLATE, ...COMPONENTS));
			const { sent } = await tab.execute('success');
			const template = sent.length === 1 && (sent[0].body as { type?: string }).type === 'template' && sent[0].status === 200;
			expect(template, '"Execute step" sent the template and the output panel shows "success"', sent.map((request) => request.body));
			await tab.screenshot('editor-template-send.png', 'bodyParameters');
			await tab.select('componentsInputMode', 'Using JSON');
			await tab.fields('Send Template (JSON mode)', ['componentsJson'], COMPONENTS);
			await tab.screenshot('editor-template-json.png', 'componentsJson');
		});

		await example('Chat Message → Send Media', 'mcnExMedia000001', 'Send image', async (tab) => {
			await tab.fields('Send Media (image)', ...only('from', 'to', ...MEDIA, 'caption'));
			await tab.screenshot('editor-media-image.png');
			for (const type of ['Video', 'Audio', 'Document']) {
				await tab.select('mediaType', type);
				await tab.fields(`Send Media (${type.toLowerCase()})`, MEDIA, ['caption']);
			}
			await tab.select('mediaType', 'Image');
			await tab.fields('Send Media (back to image)', ['caption']);
		});

		await example('SMS → Send SMS', 'mcnExBulkSms0001', 'Send reminder SMS', async (tab) => {
			await tab.fields('SMS Send', ...only(...SMS));
			const { output, sent } = await tab.execute('success', '+62');
			const sms = sent.length === 3 && sent.every((request) => request.path === SMS_PATH && request.status === 200);
			expect(sms, '"Execute step" ran the Code node and the SMS node: 3 SMS sent, the bad number shown as an error item', sent.map((request) => request.body));
			// The table shows the refused item's "error" next to the sent items' "success" (the JSON
			// view draws only the lines in sight, and the sent items' SMS cost pushes the error out of it).
			const refused = output.getByText('Indonesian').first();
			await refused.scrollIntoViewIfNeeded();
			expect(await refused.isVisible(), 'the output panel shows the refused item next to the sent ones');
			await tab.screenshot('editor-bulk-sms-output.png');
		});

		await example('Combined Notification → Send with Failover', 'mcnExFailover001', 'Send code (chat, SMS failover)', async (tab) => {
			await tab.fields('Send with Failover', ...only('from', 'to', ...TEMPLATE, ...COMPONENTS, ...SMS));
			await tab.screenshot('editor-failover.png', 'message');
		});

		await walkUserPaths(editor);
		await walkSendAndWait(editor);

		// The credential dialog as a self-hoster meets it, with a service on plain http: with Allow
		// Plain HTTP turned off, saving tests the credential and the dialog says why it failed,
		// naming the switch (and nothing reaches the service); turned back on, the test passes.
		const openCredential = async (): Promise<Tab> => {
			// Made only now: with two credentials of the type, n8n would give new nodes the newer one.
			const data = { apiKey: plain.apiKey, baseUrl: plain.url, allowPlainHttp: true };
			const name = 'Notification service (plain http)';
			const credential = await stack.client.request<{ id: string }>('POST', '/credentials', { name, type: CREDENTIAL_TYPE, data });
			return await editor.open(`/home/credentials/${credential.id}`);
		};
		await inTab('credential dialog: a service on plain http and Allow Plain HTTP', openCredential, async (tab) => {
			const dialog = tab.page.getByTestId('credential-edit-dialog');
			await dialog.waitFor({ timeout: 60_000 });
			const allowPlainHttp = tab.field('allowPlainHttp');
			await allowPlainHttp.waitFor();
			const switches = {
				allowPlainHttp: await isOn(allowPlainHttp),
				ignoreSslIssues: await isOn(tab.field('ignoreSslIssues')),
				ignoreSslIssuesLabel: await dialog.getByText('Ignore SSL Issues (Insecure)').isVisible(),
			};
			const what = 'the dialog has Allow Plain HTTP (on for this credential) and Ignore SSL Issues (Insecure) (off)';
			editor.expectEqual(switches, { allowPlainHttp: true, ignoreSslIssues: false, ignoreSslIssuesLabel: true }, what);
			// Flipping Allow Plain HTTP and saving tests the credential; the dialog then gives its verdict.
			const flipAndSave = async (verdict: string | RegExp): Promise<void> => {
				await allowPlainHttp.locator('.el-switch').click();
				await tab.page.getByTestId('credential-save-button').click();
				await dialog.getByText(verdict).waitFor({ timeout: 60_000 });
			};
			// n8n may test the credential as the dialog opens, and that test's request may arrive late on
			// a busy machine: count from once the service has had no new request for 1.5 s (at most 15 s).
			await untilQuiet(plain);
			const tests = newRequests(plain);
			// n8n's banner: "Couldn't connect with these settings", the node's message under More details.
			await flipAndSave(/Couldn.t connect with these settings/);
			await dialog.getByText('More details').click();
			const said = dialog.getByText(/turn on Allow Plain HTTP/).first();
			await said.waitFor();
			expect(tests().length === 0, 'turned off and saved: the test fails, and More details names Allow Plain HTTP; nothing reached the service', await said.innerText());
			await tab.screenshot('credential-plain-http-refused.png');

			await flipAndSave('Connection tested successfully');
			const passed = tests().length > 0 && tests().every((request) => request.headers.authorization === plain.apiKey && !request.delivered);
			expect(passed, 'turned back on and saved: the test reached the service over http with the key, delivered nothing, and passed', tests().length);
			await tab.screenshot('credential-plain-http-allowed.png');
		});
	} finally {
		await editor.browser.close();
		await plain.stop();
	}
}

export const editorCheck: Check = {
	name: 'browser check (n8n editor)',
	// A node added in the editor takes a credential of its type: the sandbox's must be the only one.
	alone: true,
	prepare: () => ({ workflows: loadExamples().map((example) => example.workflow), run: body }),
};

runIfMain(module, editorCheck);
