/**
 * The template send's verdict on one item, as the template schema tests read it: the whole
 * verdict, only the fields its problems name, or an item in Components (JSON) mode.
 */
import { TEMPLATE_LABELS, templateSendSchema } from '../../nodes/MultiChannelNotification/actions/chatMessage/templateMessage.schema';
import { verdict } from '../fixtures/problems';
import type { Json } from '../fixtures/values';
import { jsonTemplateItem } from '../fixtures/values';

export const check = (candidate: unknown) => verdict(templateSendSchema, TEMPLATE_LABELS, candidate);
export const fields = (candidate: unknown) => check(candidate).problems.map((problem) => problem.field);
export const json = (components: unknown, extra: Json = {}) => jsonTemplateItem(components, extra);
