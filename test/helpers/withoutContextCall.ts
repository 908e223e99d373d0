import { ExecuteContext } from 'n8n-core';

/**
 * Runs `act` as on an n8n whose node context lacks `call` (an older n8n): the method is taken off
 * the class of n8n-core's context that has it, then put back.
 */
export async function withoutContextCall<T>(call: string, act: () => Promise<T>): Promise<T> {
	let owner: object = ExecuteContext.prototype;
	while (!Object.prototype.hasOwnProperty.call(owner, call)) owner = Object.getPrototypeOf(owner) as object;
	const offered = Object.getOwnPropertyDescriptor(owner, call);
	delete (owner as Record<string, unknown>)[call];
	try {
		return await act();
	} finally {
		if (offered) Object.defineProperty(owner, call, offered);
	}
}
