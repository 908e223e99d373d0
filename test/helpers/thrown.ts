import { NodeOperationError } from 'n8n-workflow';

/** The NodeOperationError `work` throws; the test fails when it throws nothing, or an error of another kind. */
export function thrown(work: () => unknown): NodeOperationError {
	try {
		work();
	} catch (error) {
		if (error instanceof NodeOperationError) return error;
		throw error;
	}
	throw new Error('nothing was thrown');
}
