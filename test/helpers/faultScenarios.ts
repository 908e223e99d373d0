/**
 * The faults the reliability suite injects through the sandbox (test/reliability/faults.test.ts),
 * with what each must lead to, and the four sends set up to read everything per item: the
 * parameters of each send, an invalid item for each (and the field its error names), and valid
 * items marked so the sandbox's records tell them apart.
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Fault } from '../../sandbox/server';
import type { SendKind } from '../fixtures/sends';
import { OPERATION } from '../fixtures/sends';

/** Distinctive, random per run: a match anywhere can only be a leak. */
export const API_KEY = `mcn-live-${randomBytes(20).toString('hex')}`;
/** A recipient whose chat is open, so a media message to it may be sent. */
export const CHAT_STARTED = '+6281300000003';
export const SHORT_TIMEOUT_MS = 500;
export const NORMAL_TIMEOUT_MS = 15000;

export interface Scenario {
	name: string;
	faults: Fault[];
	/** The item hit by the fault: its error, or 'success' for a fault the node recovers from. */
	expect: { message: RegExp; httpCode?: string } | 'success';
	/** For a fault after which the message may have gone out: the error must say so. */
	mayHaveBeenDelivered?: boolean;
	/** How many times the faulted body reaches the sandbox, and how many times it is delivered. */
	received: number;
	delivered: number;
	timeout?: number;
	rateLimitRetries?: number;
}

export const SCENARIOS: Scenario[] = [
	{ name: 'HTTP 500', mayHaveBeenDelivered: true, faults: [{ kind: 'status', status: 500, message: 'internal failure' }], expect: { message: /^The service answered HTTP 500: internal failure$/, httpCode: '500' }, received: 1, delivered: 0 },
	{ name: 'HTTP 502', mayHaveBeenDelivered: true, faults: [{ kind: 'status', status: 502 }], expect: { message: /^The service answered HTTP 502: Bad Gateway$/, httpCode: '502' }, received: 1, delivered: 0 },
	{ name: 'HTTP 429 with Retry-After, no retries', faults: [{ kind: 'status', status: 429, message: 'slow down', retryAfter: '1' }], expect: { message: /^The service answered HTTP 429: slow down$/, httpCode: '429' }, received: 1, delivered: 0, rateLimitRetries: 0 },
	{ name: 'HTTP 429 without Retry-After, no retries', faults: [{ kind: 'status', status: 429, message: 'too many requests' }], expect: { message: /^The service answered HTTP 429: too many requests$/, httpCode: '429' }, received: 1, delivered: 0, rateLimitRetries: 0 },
	{ name: 'no answer (timeout)', mayHaveBeenDelivered: true, faults: [{ kind: 'timeout' }], expect: { message: new RegExp(`did not answer within ${SHORT_TIMEOUT_MS} ms`) }, received: 1, delivered: 0, timeout: SHORT_TIMEOUT_MS },
	{ name: 'connection reset', mayHaveBeenDelivered: true, faults: [{ kind: 'reset' }], expect: { message: /^Could not reach the service\b/ }, received: 1, delivered: 0 },
	{ name: 'non-JSON body with 200', mayHaveBeenDelivered: true, faults: [{ kind: 'nonJson' }], expect: { message: /^The service did not confirm the send \(HTTP 200\): a non-JSON answer$/, httpCode: '200' }, received: 1, delivered: 0 },
	{ name: 'non-JSON body with 502', mayHaveBeenDelivered: true, faults: [{ kind: 'nonJson', status: 502 }], expect: { message: /^The service answered HTTP 502: a non-JSON answer$/, httpCode: '502' }, received: 1, delivered: 0 },
	{ name: '2xx with an error message', mayHaveBeenDelivered: true, faults: [{ kind: 'errorMessage', message: 'quota exceeded' }], expect: { message: /^The service did not confirm the send \(HTTP 200\): quota exceeded$/, httpCode: '200' }, received: 1, delivered: 0 },
	{ name: 'HTTP 500 after delivery', mayHaveBeenDelivered: true, faults: [{ kind: 'status', status: 500, message: 'lost the answer', afterDelivery: true }], expect: { message: /^The service answered HTTP 500: lost the answer$/, httpCode: '500' }, received: 1, delivered: 1 },
	{ name: 'no answer after delivery (timeout)', mayHaveBeenDelivered: true, faults: [{ kind: 'timeout', afterDelivery: true }], expect: { message: new RegExp(`did not answer within ${SHORT_TIMEOUT_MS} ms`) }, received: 1, delivered: 1, timeout: SHORT_TIMEOUT_MS },
	{ name: 'connection reset after delivery', mayHaveBeenDelivered: true, faults: [{ kind: 'reset', afterDelivery: true }], expect: { message: /^Could not reach the service\b/ }, received: 1, delivered: 1 },
	{ name: 'non-JSON body after delivery', mayHaveBeenDelivered: true, faults: [{ kind: 'nonJson', afterDelivery: true }], expect: { message: /^The service did not confirm the send \(HTTP 200\): a non-JSON answer$/, httpCode: '200' }, received: 1, delivered: 1 },
	{ name: '2xx with an error message after delivery', mayHaveBeenDelivered: true, faults: [{ kind: 'errorMessage', message: 'queued twice?', afterDelivery: true }], expect: { message: /^The service did not confirm the send \(HTTP 200\): queued twice\?$/, httpCode: '200' }, received: 1, delivered: 1 },
	{ name: 'HTTP 429 after delivery, no retries', faults: [{ kind: 'status', status: 429, afterDelivery: true }], expect: { message: /^The service answered HTTP 429: Too Many Requests$/, httpCode: '429' }, received: 1, delivered: 1, rateLimitRetries: 0 },
	{ name: 'HTTP 429 then accepted on the retry', faults: [{ kind: 'status', status: 429, retryAfter: '0' }], expect: 'success', received: 2, delivered: 1, rateLimitRetries: 1 },
	{ name: 'the service echoes the API key in a 401', faults: [{ kind: 'status', status: 401, message: `invalid key ${API_KEY}` }], expect: { message: /^The service answered HTTP 401: invalid key \*\*\*$/, httpCode: '401' }, received: 1, delivered: 0 },
	{ name: 'the service echoes the API key in a 2xx error', faults: [{ kind: 'errorMessage', message: `key ${API_KEY} is over quota` }], expect: { message: /^The service did not confirm the send \(HTTP 200\): key \*\*\* is over quota$/, httpCode: '200' }, received: 1, delivered: 0 },
];

/** One send's parameters reading everything per item, and the labels its invalid item must name. */
export function parametersFor(kind: SendKind, options: INodeParameters): INodeParameters {
	const template = {
		from: '+6281100000001',
		to: '={{ $json.phone }}',
		templateName: 'order_update',
		languageCode: 'id',
		componentsInputMode: 'fields',
		bodyParameters: { parameter: [{ text: '={{ $json.text }}' }] },
	};
	switch (kind) {
		case 'sms':
			return { ...OPERATION.sms, phoneNumber: '={{ $json.phone }}', message: '={{ $json.text }}', options };
		case 'media':
			return {
				...OPERATION.media,
				from: '+6281100000001',
				to: CHAT_STARTED,
				mediaType: 'image',
				mediaUrl: '={{ $json.url }}',
				caption: '={{ $json.text }}',
				options,
			};
		case 'template':
			return { ...OPERATION.template, ...template, options };
		case 'combined':
			return { ...OPERATION.combined, ...template, phoneNumber: '={{ $json.smsPhone }}', message: '={{ $json.text }}', options };
	}
}

export const INVALID: Record<SendKind, { item: IDataObject; label: string }> = {
	sms: { item: { phone: '0812 not a number', text: 'x' }, label: 'Phone Number' },
	media: { item: { url: 'http://cdn.example.com/plain.png', text: 'x' }, label: 'Media URL' },
	template: { item: { phone: 'abc', text: 'x' }, label: 'To' },
	combined: { item: { phone: '+6281200000002', smsPhone: '+15551234567', text: 'x' }, label: 'SMS Phone Number' },
};

/** `timeout` is read per item, so only the item meant to meet a hanging answer gets the short one. */
export function validItem(marker: string, timeout = NORMAL_TIMEOUT_MS): IDataObject {
	return {
		timeout,
		phone: '+6281200000002',
		smsPhone: '+6281200000002',
		url: `https://cdn.example.com/${marker}.png`,
		text: `Pesanan ${marker} dikirim`,
	};
}
