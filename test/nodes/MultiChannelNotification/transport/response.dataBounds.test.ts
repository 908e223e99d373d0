/**
 * The answer's data on the output item: past 16 KiB as JSON only the fields the spec documents
 * are kept, each up to 4 KiB as JSON (4,096 characters kept, one more dropped).
 */
import type { INode } from 'n8n-workflow';

import type { AnswerContext } from '../../../../nodes/MultiChannelNotification/transport/response';
import { responseOrThrow } from '../../../../nodes/MultiChannelNotification/transport/response';

const node: INode = { id: 'target', name: 'Multi-Channel Notification', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} };
const context: AnswerContext = {
	node,
	itemIndex: 0,
	url: 'https://service.example/v1/sms/notification',
	endpoint: '/v1/sms/notification',
	timeout: 5000,
	scrub: (text) => text,
	ignoreSslIssues: false,
};

/** A string whose JSON (quotes included) is exactly `length` characters. */
const jsonOfLength = (length: number): string => 'c'.repeat(length - 2);

test('in data larger than 16 KiB, a documented field of exactly 4,096 characters as JSON is kept; one of 4,097 is dropped', () => {
	const data = { id: 'm1', full_content: jsonOfLength(4096), result: jsonOfLength(4097), blob: 'z'.repeat(20_000) };
	expect(JSON.stringify(data.full_content)).toHaveLength(4096);

	const { data: kept } = responseOrThrow(context, { status: 200, headers: {}, text: JSON.stringify({ message: 'success', data }) });

	expect(kept).toEqual({ id: 'm1', full_content: data.full_content });
});
