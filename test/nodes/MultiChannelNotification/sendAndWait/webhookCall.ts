/**
 * The node's webhook method as n8n calls it for the answer link, stood in for: the request, the
 * response, the parameters and n8n's binary data store. n8n itself routes the link to it and
 * checks the signature and the execution's state (the real-n8n check covers that).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { MultiChannelNotification } from '../../../../nodes/MultiChannelNotification/MultiChannelNotification.node';

interface Call {
	method: 'GET' | 'POST';
	contentType?: string;
	body?: unknown;
	parameters?: IDataObject;
	/** More request headers, e.g. the content-length a browser sends. */
	headers?: Record<string, string>;
}

interface Answered {
	result: IWebhookResponseData;
	/** The files the node copied into n8n's binary data store: path, name, MIME type. */
	copied: string[][];
	status: number;
	headers: Record<string, string>;
	html: string;
	/** What the node wrote to n8n's log as warnings. */
	warned: string[];
	/**
	 * `data.respondedAt` of a recorded answer, taken out of `result` so that the other tests
	 * compare the answer itself (webhook.respondedAt.test.ts checks the time).
	 */
	respondedAt?: unknown;
}

export const node = new MultiChannelNotification();

/** The README's limit on a Free Text answer (2,000 characters), written out rather than imported. */
export const MAX_ANSWER_CHARS = 2000;

export async function call({ method, contentType, body, parameters = {}, headers = {} }: Call): Promise<Answered> {
	const answered = { status: 0, headers: {} as Record<string, string>, html: '', copied: [] as string[][], warned: [] as string[] };
	const response = {
		status(code: number) {
			answered.status = code;
			return response;
		},
		set(headers: Record<string, string>) {
			Object.assign(answered.headers, headers);
			return response;
		},
		send(html: string) {
			answered.html = html;
			return response;
		},
	};
	const values: IDataObject = { message: 'Approve the refund?', responseType: 'approval', ...parameters };
	const context = {
		getRequestObject: () => ({ method, headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) } }),
		getResponseObject: () => response,
		getBodyData: () => body ?? {},
		// As n8n's: the fallback only for a parameter that is not there; an expression that gave null gives null.
		getNodeParameter: (name: string, fallback: unknown) => {
			const value = name.split('.').reduce<unknown>((found, key) => (found as IDataObject | null | undefined)?.[key], values);
			return value === undefined ? fallback : value;
		},
		// Who was asked is read back through n8n's engine (question.test.ts); here there is none.
		getNode: () => ({ name: 'Ask' }),
		evaluateExpression: () => undefined,
		logger: { warn: (message: string) => answered.warned.push(message) },
		nodeHelpers: {
			copyBinaryFile: async (filePath: string, fileName: string, mimeType?: string) => {
				answered.copied.push([filePath, fileName, mimeType ?? '']);
				return { data: `stored:${filePath}`, fileName, mimeType: mimeType ?? 'application/octet-stream' };
			},
		},
	} as unknown as IWebhookFunctions;
	const result = await node.webhook.call(context);
	const data = result.workflowData?.[0]?.[0]?.json.data as IDataObject | undefined;
	const respondedAt = data?.respondedAt;
	if (data !== undefined) delete data.respondedAt;
	return { result, ...answered, respondedAt };
}

/** How the page posts an approval or a Free Text answer. */
export const FORM = 'application/x-www-form-urlencoded';
export const double = { approvalOptions: { values: { approvalType: 'double', approveLabel: 'Yes, refund', disapproveLabel: 'No' } } };

/** `data.respondedAt` as n8n's own send-and-wait nodes give it: an ISO time. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const RESPONDED_AT: unknown = expect.stringMatching(ISO_TIME);
