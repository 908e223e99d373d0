/**
 * What the rest of the node (and the tests) take from the schemas, named one by one, so a name
 * that is exported here is one that is used.
 */
export type { FieldLabel, FieldLabels } from './common';
export { requiredText, SMS_ALLOWED_NUMBER, smsPhoneNumber } from './common';
export { ruleShowing } from './shown';
export type { ItemOptionValues } from './itemOptions.schema';
export {
	DEFAULT_DEDUPE_HISTORY_SIZE,
	DEFAULT_RATE_LIMIT_MAX_WAIT_S,
	DEFAULT_TIMEOUT_MS,
	ITEM_OPTIONS_LABELS,
	itemOptionsSchema,
	LANGUAGE_POLICY,
	MAX_CONCURRENCY,
	MAX_DEDUPE_HISTORY_SIZE,
	MAX_SMS_PARTS,
} from './itemOptions.schema';
