import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { operationProperties, registry, resourceProperty } from './actions/registry';
import { router } from './actions/router';
import type { BuilderHint } from './editor/builderHint';
import { NODE_HINT, withBuilderHints } from './editor/builderHint';
import { toolDescriptionProperties } from './editor/tool';
import { ANSWER_OUTPUT_HINT, WAITING_TOOLTIP } from './editor/waiting';
import { answerWebhook, answerWebhooks } from './sendAndWait/webhook';
import { testCredential } from './transport';

export class MultiChannelNotification implements INodeType {
	description: INodeTypeDescription & { builderHint: BuilderHint } = {
		displayName: 'Multi-Channel Notification',
		name: 'multiChannelNotification',
		icon: {
			light: 'file:multiChannelNotification.svg',
			dark: 'file:multiChannelNotification.dark.svg',
		},
		group: ['output'],
		version: 1,
		// The registry's operation names, written out: n8n's lint (node-class-description-missing-subtitle)
		// only counts a string literal as a subtitle. A test keeps the two equal.
		subtitle:
			'={{ {"send":"Send SMS","sendAndWait":"Send and Wait for Response","sendTemplate":"Send Template","sendMedia":"Send Media","sendWithFailover":"Send with Failover"}[$parameter["operation"]] }}',
		description:
			'Send chat template and media messages, SMS, and chat messages with SMS failover through the Multi-Channel Notification Service',
		defaults: {
			name: 'Multi-Channel Notification',
		},
		usableAsTool: true,
		// For n8n's AI workflow builder (n8n 2.29 and newer; older n8n ignores it).
		builderHint: NODE_HINT.builderHint,
		// Send and Wait for Response: the answer link's page and form (sendAndWait/).
		webhooks: answerWebhooks,
		// While it waits: where the question went and how to open the answer page; then the output's shape.
		waitingNodeTooltip: WAITING_TOOLTIP,
		hints: [ANSWER_OUTPUT_HINT],
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'multiChannelNotificationApi',
				required: true,
				testedBy: 'multiChannelNotificationApiTest',
			},
		],
		properties: withBuilderHints([
			// Shown only in the AI-agent tool variant: what the model is told, per operation.
			...toolDescriptionProperties(registry),
			resourceProperty,
			...operationProperties,
		]),
	};

	methods = {
		credentialTest: {
			multiChannelNotificationApiTest: testCredential,
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await answerWebhook.call(this);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
