/**
 * Send options are read per item inside the per-item error handling: with Continue On Fail, an
 * Options → Timeout expression that throws for some items fails only those items (error items
 * with pairedItem, never sent) and the others are sent — the service receives exactly those.
 */
import { expectNoKey, SPECIAL_KEY, smsParameters, useHostileService } from '../../../helpers/boundary';
import { runNode } from '../../../helpers/engine';

/**
 * Throws for items without `t`. (`{{ $json.t.x }}` alone would not: n8n's backend evaluates an
 * expression's TypeError to null. A reference to a node that does not exist is an
 * ExpressionError, which n8n does raise.)
 */
const TIMEOUT_EXPRESSION = "={{ $json.t ? $json.t.x : $('No Such Node').item.json.x }}";

const https = useHostileService();

test('a Timeout expression that throws for items 0 and 2 fails only them', async () => {
	const items = [{ text: 'item-0' }, { text: 'item-1', t: { x: 5000 } }, { text: 'item-2' }, { text: 'item-3', t: { x: 5000 } }];
	const result = await runNode({
		parameters: smsParameters({ timeout: TIMEOUT_EXPRESSION, concurrency: 1 }, '={{ $json.text }}'),
		items,
		credentials: { apiKey: SPECIAL_KEY, baseUrl: https.url },
		continueOnFail: true,
	});

	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(4);
	expect(result.output?.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
	expect(result.output?.map((item) => (item.json.error === undefined ? item.json.message : 'error'))).toEqual([
		'error',
		'success',
		'error',
		'success',
	]);
	expect(String(result.output?.[0].json.error)).not.toBe('');
	expect(https.requests.map((request) => JSON.parse(request.body).message)).toEqual(['item-1', 'item-3']);
	expectNoKey(result, SPECIAL_KEY);
});
