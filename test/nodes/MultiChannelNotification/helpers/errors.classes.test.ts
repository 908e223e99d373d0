/**
 * The node's input and service errors carry their facts (problems, delivery) on their own
 * classes, yet n8n sees them as its NodeOperationError and NodeApiError: the same `name` (n8n's
 * engine and telemetry test it), the same fields in the copy n8n stores of a failed run
 * (`{ ...error }`) and the same JSON. Each is compared with n8n's class built from the same input.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Problem } from '../../../../nodes/MultiChannelNotification/helpers/errors';
import { deliveryOf, inputError, problemsOf, serviceError } from '../../../../nodes/MultiChannelNotification/helpers/errors';

const node: INode = { id: 'target', name: 'Multi-Channel Notification', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} };

const problems: Problem[] = [{ field: 'To', path: ['to'], rule: 'must be in full international form like +6281234567890', value: '0812' }];

/** What n8n stores of a failed run's error (`{ ...error }`) and its JSON, the creation time left out. */
const stored = (error: Error) => {
	const fields = { ...error } as Record<string, unknown>;
	const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
	delete fields.timestamp;
	delete json.timestamp;
	return { fields, json };
};

/**
 * The names of an error's own enumerable fields that hold a value. Fields left undefined are left
 * out: n8n's stored copy and JSON drop them anyway, and whether n8n's declared `cause` field
 * (undefined here) is enumerable is up to the JavaScript engine's state, not the code. Seen: in
 * a jest worker that had run the tool-run tests first, n8n's own NodeOperationError came out
 * with `cause` not enumerable while ours, made by the same n8n constructor, had it enumerable.
 */
const keysWithValues = (error: Error) =>
	Object.entries(error)
		.filter(([, value]) => value !== undefined)
		.map(([key]) => key)
		.sort();

describe('the node’s own error classes', () => {
	test('an input error is a NodeOperationError to n8n, with its problems readable and not stored', () => {
		const error = inputError(node, 0, problems);
		const plain = new NodeOperationError(node, error.message, { itemIndex: 0, description: error.description ?? undefined });

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.name).toBe('NodeOperationError');
		expect(stored(error).fields).toEqual(stored(plain).fields);
		expect(keysWithValues(error)).toEqual(keysWithValues(plain));
		expect(stored(error).json).toEqual(stored(plain).json);
		expect(problemsOf(error)).toBe(problems);
		expect(deliveryOf(error)).toBe('notSent');
		expect(() => Object.assign(error, { problems: [] })).toThrow(TypeError);
	});

	test('a service error is a NodeApiError to n8n, with its delivery readable and not stored', () => {
		const error = serviceError(node, { itemIndex: 2, title: 'The service answered HTTP 503', description: 'Try later.', httpCode: 503, cause: 'busy', delivery: 'maybe' });
		const plain = new NodeApiError(node, { message: 'busy', httpCode: '503' } as JsonObject, {
			itemIndex: 2,
			httpCode: '503',
			message: 'The service answered HTTP 503',
			description: 'Try later.',
		});

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.name).toBe('NodeApiError');
		expect(stored(error).fields).toEqual(stored(plain).fields);
		expect(keysWithValues(error)).toEqual(keysWithValues(plain));
		expect(stored(error).json).toEqual(stored(plain).json);
		expect(deliveryOf(error)).toBe('maybe');
		expect(problemsOf(error)).toEqual([]);
		expect(() => Object.assign(error, { delivery: 'notSent' })).toThrow(TypeError);
	});

	test('any other error was raised before sending and names no problem', () => {
		expect(deliveryOf(new NodeApiError(node, { message: 'x' }))).toBe('notSent');
		expect(problemsOf(new NodeOperationError(node, 'x'))).toEqual([]);
		expect(deliveryOf(undefined)).toBe('notSent');
		expect(problemsOf('text')).toEqual([]);
	});
});
