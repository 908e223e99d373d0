/**
 * The Resource of the node's human-review tool for AI agents, which sends an SMS. n8n builds that
 * tool (`…HitlTool`) with Resource fixed to the first value the first Operation field offering
 * Send and Wait shows for: the registry puts an Operation field of this value first. The
 * Resource field never offers it (n8n's node creator sets a resource's first value, so it needs
 * an Operation field of its own), so that tool's panel can speak to the person building the
 * workflow and leave out the ordinary tool variant's model-facing Tool Description; at run time
 * it is SMS.
 */
export const HUMAN_REVIEW_RESOURCE = 'smsReview';

/** The resource the node's Resource parameter names; the human-review tool's is SMS. */
export const resourceOf = (value: string): string => (value === HUMAN_REVIEW_RESOURCE ? 'sms' : value);

/** The Resource values a resource's fields show for: SMS's also for the human-review tool. */
export const shownFor = (resource: string): string[] => (resource === 'sms' ? [resource, HUMAN_REVIEW_RESOURCE] : [resource]);


/**
 * The value n8n gives "Custom API Call", which it adds to the node's Resource and Operation lists
 * because the credential has an `authenticate` function. The node has no such call: the HTTP
 * Request node does, with this credential (which still sends the key only to the Base URL origin).
 */
export const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

export const CUSTOM_API_CALL_MESSAGE =
	'Custom API Call is not an operation of this node: use the HTTP Request node with Authentication "Predefined Credential Type" and this Multi-Channel Notification API credential (it sends the API key only to the Base URL origin)';
