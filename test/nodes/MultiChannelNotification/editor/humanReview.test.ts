/**
 * The node as n8n 2.x's human-review tool for AI agents (`…HitlTool`), and its panel. n8n makes
 * that tool from the node's description (`n8n/dist/tool-generation/hitl-tools.js`, the same in
 * 2.8.4 and 2.41.1): `asHitlTool` below does what it does to the properties; the human-review
 * check reads the tool n8n itself made. Which fields a panel shows is n8n-workflow's
 * `displayParameter`, as the editor asks it, with the node type's name (`@tool` is true for any
 * type whose name ends in "Tool", the ordinary tool variant and the human-review tool alike).
 */
import type { INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { HUMAN_REVIEW_RESOURCE } from '../../../../nodes/MultiChannelNotification/helpers/resource';
import { registry } from '../../../../nodes/MultiChannelNotification/actions/registry';
import { NODE_NAME, runNode } from '../../../helpers/engine';
import { credentialsFor, useSandbox } from '../../../helpers/sandbox';

const sandbox = useSandbox();
const base = new MultiChannelNotification().description;

const offersSendAndWait = (property: INodeProperties) =>
	property.name === 'operation' && (property.options ?? []).some((option) => 'value' in option && option.value === 'sendAndWait');

/**
 * n8n's conversion: its own Message first; Resource hidden, fixed to the first value the first
 * Operation field offering Send and Wait shows for; Operation and Response Type hidden and fixed;
 * the node's own Message fields dropped; every other property kept as it is.
 */
function asHitlTool(description: INodeTypeDescription): INodeTypeDescription {
	const resource = description.properties.find((property) => offersSendAndWait(property) && property.displayOptions?.show?.resource)
		?.displayOptions?.show?.resource?.[0];
	const hidden = (name: string, value: string): INodeProperties => ({ displayName: name, name, type: 'hidden', default: value });
	const message: INodeProperties = { displayName: 'Message', name: 'message', type: 'string', default: '=The agent wants to call {{ $tool.name }}', required: true };
	const fixed: Record<string, INodeProperties[]> = {
		resource: [hidden('resource', String(resource))],
		operation: [hidden('operation', 'sendAndWait')],
		message: [],
		responseType: [hidden('responseType', 'approval')],
	};
	const properties = description.properties.flatMap((property) => fixed[property.name] ?? [property]);
	return { ...description, name: `${description.name}HitlTool`, properties: [message, ...properties] };
}

const hitl = asHitlTool(base);
const tool: INodeTypeDescription = { ...base, name: `${base.name}Tool` };

/** The panel: the values it starts with, and the fields it shows (hidden ones left out), in order. */
function panel(description: INodeTypeDescription, set: INodeParameters = {}) {
	const values = NodeHelpers.getNodeParameters(description.properties, set, true, false, null, description) ?? {};
	const shown = description.properties.filter((property) => property.type !== 'hidden' && NodeHelpers.displayParameter(values, property, null, description));
	return { values, shown: shown.map((property) => property.name), property: (name: string) => shown.find((property) => property.name === name) };
}

describe('the human-review tool’s panel speaks to the person building the workflow', () => {
	const review = panel(hitl);

	test('Resource is the human-review one, not offered by the Resource field', () => {
		expect(review.values.resource).toBe(HUMAN_REVIEW_RESOURCE);
		const resourceField = base.properties.find((property) => property.name === 'resource');
		expect((resourceField?.options ?? []).map((option) => ('value' in option ? option.value : ''))).not.toContain(HUMAN_REVIEW_RESOURCE);
	});

	test('it shows n8n’s Message, the notice, Phone Number, the buttons, Approval Options and Options, and no Tool Description', () => {
		expect(review.shown).toEqual(['message', 'humanReviewNotice', 'phoneNumber', 'approvalButtonsNotice', 'approvalOptions', 'options']);
		expect(review.values.toolDescription).toBeUndefined();
	});

	test('the notice says the reviewer gets the Message by SMS at the Phone Number, with a link, and what each answer does', () => {
		const notice = review.property('humanReviewNotice')?.displayName ?? '';
		for (const said of ['the reviewer gets the Message', 'by SMS at the Phone Number', 'a link to an answer page', 'Approve lets the tool run', 'Decline tells the agent the person rejected the call']) {
			expect(notice).toContain(said);
		}
		expect(notice).not.toMatch(/E\.164|sent: false/);
	});

	test('the buttons the reviewer will see are said from the start: Approve and Decline', () => {
		expect(review.property('approvalButtonsNotice')?.displayName).toBe(
			'Without Approval Options the answer page offers ✓ Approve and ✗ Decline. Add them to change the labels or to offer Approve Only.',
		);
		expect(review.values.approvalOptions).toEqual({});
	});

	test('Approval Options once added start at both buttons too', () => {
		const added = panel(hitl, { approvalOptions: { values: {} } });
		expect(added.values.approvalOptions).toEqual({ values: { approvalType: 'double', approveLabel: '✓ Approve', disapproveLabel: '✗ Decline' } });
	});
});

describe('the node and its ordinary AI-tool variant keep their fields (and say the buttons too)', () => {
	const sms = { resource: 'sms', operation: 'sendAndWait' };

	test('the node: the SMS fields, no human-review notice, no Tool Description', () => {
		expect(panel(base, sms).shown).toEqual(['resource', 'operation', 'phoneNumber', 'message', 'responseType', 'approvalButtonsNotice', 'approvalOptions', 'options']);
	});

	test('the AI-tool variant: the model-facing Tool Description, no human-review notice', () => {
		const { shown, values } = panel(tool, sms);
		expect(shown).toEqual(['toolDescription', 'resource', 'operation', 'phoneNumber', 'message', 'responseType', 'approvalButtonsNotice', 'approvalOptions', 'options']);
		expect(values.toolDescription).toBe(registry.sms.sendAndWait.toolDescription);
	});

	test('the Chat Message and Combined Notification panels say the buttons too', () => {
		for (const resource of ['chatMessage', 'combined']) expect(panel(base, { resource, operation: 'sendAndWait' }).shown).toContain('approvalButtonsNotice');
	});
});

test('at run time the human-review Resource sends an SMS with the answer link and waits', async () => {
	const parameters = { resource: HUMAN_REVIEW_RESOURCE, operation: 'sendAndWait', phoneNumber: '0813 1111 2222', message: 'The agent wants to call Send_SMS', options: {} };
	const { run, error } = await runNode({ parameters, credentials: credentialsFor(sandbox()) });

	expect(error).toBeUndefined();
	expect(run.status).toBe('waiting');
	const sent = sandbox().deliveries();
	expect(sent).toHaveLength(1);
	expect(sent[0].path).toBe('/v1/sms/notification');
	const body = sent[0].body as { phone_number: string; message: string };
	expect(body.phone_number).toBe('+6281311112222');
	expect(body.message).toMatch(/^The agent wants to call Send_SMS\nhttps?:\/\/\S+\/webhook-waiting\//);
	expect(run.data.resultData.runData[NODE_NAME]?.[0]?.metadata).toEqual(expect.objectContaining({ resumeUrl: body.message.split('\n')[1] }));
});
