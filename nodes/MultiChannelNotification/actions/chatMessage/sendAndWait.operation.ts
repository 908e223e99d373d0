import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION, updateDisplayOptions } from 'n8n-workflow';

import { inputError } from '../../helpers/errors';
import type { OperationOption, PreparedSend } from '../../delivery/operation';
import { readPhoneNumberFormat } from '../../delivery/options';
import { templateOptionsField } from '../../editor/options';
import { linkPlaceholderField, pageMessageField, responseFields, sendAndWaitOptions } from '../../editor/sendAndWait';
import { answerLink, withTemplateLink } from '../../sendAndWait/link';
import { templateFields } from '../../editor/template';
import { readTemplateFields } from '../read/template';
import { templateRequest } from './sendTemplate.operation';

export const option: OperationOption = { name: 'Send and Wait for Response', value: SEND_AND_WAIT_OPERATION,
	action: 'Send a template message and wait for response',
	description: 'Send an approved template whose body carries an answer link, and wait until the person answers' };

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['chatMessage'], operation: [SEND_AND_WAIT_OPERATION] } },
	[...templateFields, linkPlaceholderField, pageMessageField, ...responseFields, sendAndWaitOptions(templateOptionsField)],
);

/** A template send whose body placeholder {{Link Goes Into}} carries the answer link. */
export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedSend {
	const candidate = readTemplateFields(this, itemIndex, readPhoneNumberFormat(this, itemIndex));
	const problems = withTemplateLink(candidate, Number(this.getNodeParameter('linkPlaceholder', itemIndex, 1)), answerLink(this));
	if (problems.length > 0) throw inputError(this.getNode(), itemIndex, problems);
	return templateRequest(this, candidate, itemIndex);
}
