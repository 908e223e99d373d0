/**
 * What the editor walks share: the workflow each starts from (Manual Trigger → our node, created
 * through the editor's REST API and opened at the node's panel) and how they read what the panel
 * and the sandbox show.
 */
import type { Locator } from 'playwright-core';

import type { Editor, Tab } from './browser';
import type { NodeFixture } from './examples';
import { packageNode, workflowFixture } from './examples';
import type { RecordedRequest } from '../../../sandbox/server';

export const NODE = 'Notify';
export const TRIGGER: NodeFixture = { name: 'Trigger', type: 'n8n-nodes-base.manualTrigger', parameters: {} };

/** The bodies of the requests the sandbox received, to show when an expectation fails. */
export const bodies = (requests: RecordedRequest[]): unknown[] => requests.map((request) => request.body);
/** The template components of a send request, as the service received them. */
export const componentsOf = (request?: RecordedRequest): Array<Record<string, unknown>> =>
	(request?.body as { template?: { components?: Array<Record<string, unknown>> } } | undefined)?.template?.components ?? [];

/** Opens a fresh workflow, Manual Trigger → our node with these parameters, at the node's panel. */
export const fresh = (editor: Editor, name: string, parameters: Record<string, unknown>) => async (): Promise<Tab> =>
	await editor.openNode(workflowFixture('', name, [TRIGGER, packageNode(NODE, parameters)]), NODE);

/** What n8n's error panel says: its title and its description. */
export async function errorShown(output: Locator): Promise<{ title: string; description: string }> {
	const title = (await output.getByTestId('node-error-message').innerText()).trim();
	return { title, description: await output.getByTestId('node-error-description').innerText() };
}

