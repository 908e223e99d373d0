/**
 * `npm run demo:fast` — the quick demo, without installing n8n: starts the sandbox, runs one send
 * of each kind through the built node (dist/) inside n8n's own execution engine (n8n-core's
 * WorkflowExecute, through harness/workflowRunner.ts as the tests do), prints what the sandbox received and what the node output,
 * and exits 0 only if every send succeeded. `npm run demo` does the same in a real n8n.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

// n8n-core keeps an instance key under N8N_USER_FOLDER: use a throw-away folder.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'mcn-demo-'));

const RECIPIENT = '+6281234567890';

const sends: Array<{ title: string; parameters: INodeParameters; items: IDataObject[] }> = [
	{
		title: 'Chat Message → Send Template',
		items: [{ name: 'Budi', order: 'A-1042', phone: '0812-3456-7890' }],
		parameters: {
			resource: 'chatMessage',
			operation: 'sendTemplate',
			from: '+628110000000',
			to: '={{ $json.phone }}',
			templateName: 'order_shipped',
			templateContent: 'Halo {{1}}, pesanan {{2}} sudah dikirim.',
			bodyParameters: { parameter: [{ text: '={{ $json.name }}' }, { text: '={{ $json.order }}' }] },
			headerImageUrl: 'https://cdn.example.com/shipped.png',
			quickReplyButtons: { button: [{ index: '0', payload: '={{ "track-" + $json.order }}' }, { index: '1', payload: 'help' }] },
		},
	},
	{
		title: 'Chat Message → Send Media (document)',
		items: [{}],
		parameters: {
			resource: 'chatMessage',
			operation: 'sendMedia',
			from: '+628110000000',
			to: RECIPIENT,
			mediaType: 'document',
			mediaUrl: 'https://cdn.example.com/invoice-A-1042.pdf',
		},
	},
	{
		title: 'SMS → Send SMS',
		items: [{ code: '734201' }],
		parameters: { resource: 'sms', operation: 'send', phoneNumber: RECIPIENT, message: '=Kode verifikasi Anda: {{ $json.code }}' },
	},
	{
		title: 'Combined Notification → Send with Failover',
		items: [{ code: '734201' }],
		parameters: {
			resource: 'combined',
			operation: 'sendWithFailover',
			from: '+628110000000',
			to: RECIPIENT,
			templateName: 'otp',
			bodyParameters: { parameter: [{ text: '={{ $json.code }}' }] },
			smsPhoneNumber: RECIPIENT,
			smsMessage: '=Kode verifikasi Anda: {{ $json.code }}',
		},
	},
];

async function main(): Promise<number> {
	const { startSandbox } = await import('../sandbox/server');
	const { createWorkflowRunner } = await import('../harness/workflowRunner');
	// The built package (dist/), as n8n would load it.
	const dist = join(__dirname, '..', 'dist');
	const { MultiChannelNotification } = (await import(
		join(dist, 'nodes/MultiChannelNotification/MultiChannelNotification.node.js')
	)) as typeof import('../nodes/MultiChannelNotification/MultiChannelNotification.node');
	const { MultiChannelNotificationApi } = (await import(
		join(dist, 'credentials/MultiChannelNotificationApi.credentials.js')
	)) as typeof import('../credentials/MultiChannelNotificationApi.credentials');
	const runNode = createWorkflowRunner({
		typeName: 'n8n-nodes-multichannel-notification.multiChannelNotification',
		typeVersion: 1,
		nodeType: new MultiChannelNotification(),
		name: 'Multi-Channel Notification',
	});
	const credential = new MultiChannelNotificationApi();
	const sandbox = await startSandbox({ port: 0, startedChats: [RECIPIENT] });
	console.log(`Sandbox: ${sandbox.url} (API key ${sandbox.apiKey})\n`);

	let failures = 0;
	try {
		for (const send of sends) {
			const before = sandbox.requests.length;
			const { output, error } = await runNode({
				parameters: send.parameters,
				items: send.items,
				credentials: { [credential.name]: { type: credential, data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } } },
			});
			const received = sandbox.requests.slice(before);
			const ok = !error && output?.every((item) => item.json.message === 'success') === true;
			if (!ok) failures++;
			console.log(`${ok ? '✔' : '✘'} ${send.title}`);
			for (const request of received) {
				console.log(`  sandbox received: POST ${request.path} → ${request.status}`);
				console.log(`  ${JSON.stringify(request.body)}`);
			}
			console.log(`  node output: ${error ? `${error.name}: ${error.message}` : JSON.stringify(output?.map((item) => item.json))}\n`);
		}
	} finally {
		await sandbox.stop();
	}
	console.log(failures === 0 ? 'All 4 sends succeeded.' : `${failures} of 4 sends failed.`);
	return failures === 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
