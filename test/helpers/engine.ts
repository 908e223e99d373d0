import { MultiChannelNotificationApi } from '../../credentials/MultiChannelNotificationApi.credentials';
import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { createRunNode } from './workflowRunner';

export type { RunNodeOptions, RunNodeResult } from './workflowRunner';
export { NODE_NAME, NODE_TYPE } from './workflowRunner';

/** Runs a workflow (input items → our node, from source) through n8n's WorkflowExecute. */
export const runNode = createRunNode(new MultiChannelNotification(), new MultiChannelNotificationApi());
