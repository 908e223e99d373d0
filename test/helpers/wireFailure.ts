import { WireFailure } from '../../nodes/MultiChannelNotification/transport/exchange';

/** The WireFailure a request client's promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function failureOf(promise: Promise<unknown>): Promise<WireFailure> {
	const error = await promise.then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(WireFailure);
	return error as WireFailure;
}
