/**
 * What the rest of the node (and the tests) take from the schemas, named one by one, so a name
 * that is exported here is one that is used.
 */
export type { FieldLabel, FieldLabels } from './common';
export { requiredText, SMS_ALLOWED_NUMBER, smsPhoneNumber } from './common';
export { ruleShowing } from './shown';
export { NEXT_FREE_INDEX, QUICK_REPLY_INDEXES, URL_BUTTON_DEFAULT_INDEX } from './components.schema';
export {
	fillPlaceholders,
	PLACEHOLDER_INPUT_COUNT,
	placeholderInputName,
	placeholderNumbers,
	resolveQuickReplyIndexes,
} from './templateChecks';
export type { TemplateMessage } from './template.schema';
export { LANGUAGE_POLICY, TEMPLATE_LABELS, templateSendSchema } from './template.schema';
export { MEDIA_LABELS, MEDIA_TYPES, mediaSendSchema } from './media.schema';
export { COMBINED_LABELS, combinedSendSchema } from './combined.schema';
export type { ItemOptionValues } from './itemOptions.schema';
export {
	DEFAULT_DEDUPE_HISTORY_SIZE,
	DEFAULT_RATE_LIMIT_MAX_WAIT_S,
	DEFAULT_TIMEOUT_MS,
	ITEM_OPTIONS_LABELS,
	itemOptionsSchema,
	MAX_CONCURRENCY,
	MAX_DEDUPE_HISTORY_SIZE,
	MAX_SMS_PARTS,
} from './itemOptions.schema';
