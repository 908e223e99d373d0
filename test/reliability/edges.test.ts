/**
 * The edges of the node's two promises — a message is never sent twice, an answer counts only for
 * its question — and of the key's: each edge tried through n8n's engine against the sandbox, its
 * outcome read from the sandbox's own records. Every row lands in RELIABILITY.md's "Edges" table.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Fault } from '../../sandbox/server';
import { ask, open, queryOf } from '../helpers/askAgain';
import { SPECIAL_KEY, useHostileService } from '../helpers/boundary';
import { runNode } from '../helpers/engine';
import { CREDENTIAL, runCourier } from '../helpers/keyCourier';
import { pauseTaken } from '../helpers/pauseTaken';
import { recordFigures } from '../helpers/reliabilityFigures';
import { credentialsFor, useSandbox } from '../helpers/sandbox';

const sandbox = useSandbox();

interface EdgeRow {
	edge: string;
	tried: string;
	outcome: string;
}
const rows: EdgeRow[] = [];

afterAll(() => recordFigures('edges', { rows }));

const keyed = (options: IDataObject = {}): INodeParameters => ({
	resource: 'sms',
	operation: 'send',
	phoneNumber: '={{ $json.phone }}',
	message: '={{ "event " + $json.key }}',
	options: { dedupeKey: '={{ $json.key }}', concurrency: 1, ...options } as INodeParameters,
});
const event = (key: string) => ({ key, phone: '+6281234567890' });
const deliveredOf = (key: string) => sandbox().deliveries().filter((request) => (request.body as { message: string }).message === `event ${key}`).length;

describe('Send Once Per Key: an answer that leaves delivery open keeps the key', () => {
	const faults: Array<[string, Fault, IDataObject]> = [
		['HTTP 500', { kind: 'status', status: 500, afterDelivery: true }, {}],
		['HTTP 502, not JSON', { kind: 'nonJson', status: 502, afterDelivery: true }, {}],
		['connection reset', { kind: 'reset', afterDelivery: true }, {}],
		['no answer (timeout)', { kind: 'timeout', afterDelivery: true }, { timeout: 500 }],
	];
	test.each(faults)('%s after the service recorded the message, then a re-run', async (name, fault, options) => {
		sandbox().injectFault(fault);
		const key = `maybe-${name}`;
		const first = await runNode({ parameters: keyed(options), items: [event(key)], credentials: credentialsFor(sandbox()) });
		expect(first.error).toBeDefined();
		const again = await runNode({ parameters: keyed(options), items: [event(key)], credentials: credentialsFor(sandbox()) });
		expect(again.output?.[0].json).toMatchObject({ skipped: true, reason: 'alreadySent' });
		expect(deliveredOf(key)).toBe(1);
		rows.push({ edge: 'maybe-delivered key', tried: `${name} after the service recorded the message; re-run with the same key`, outcome: `delivered ${deliveredOf(key)}×; the re-run skipped the item` });
	});

	test('HTTP 400 (the service refused the message), then a re-run: sent again', async () => {
		sandbox().injectFault({ kind: 'status', status: 400, message: 'bad request' });
		const first = await runNode({ parameters: keyed(), items: [event('refused')], credentials: credentialsFor(sandbox()) });
		expect(first.error?.message).toContain('400');
		await runNode({ parameters: keyed(), items: [event('refused')], credentials: credentialsFor(sandbox()) });
		expect(deliveredOf('refused')).toBe(1);
		rows.push({ edge: 'refused key released', tried: 'HTTP 400 (refused); re-run with the same key', outcome: `delivered ${deliveredOf('refused')}× (by the re-run)` });
	});
});

describe('Send Once Per Key: executions at once', () => {
	const ROUNDS = 5;
	test(`${ROUNDS} rounds of 20 executions at once with one key`, async () => {
		const sent: number[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			const key = `burst-${round}`;
			await Promise.all(Array.from({ length: 20 }, async () => await runNode({ parameters: keyed(), items: [event(key)], credentials: credentialsFor(sandbox()) })));
			sent.push(deliveredOf(key));
		}
		expect(sent).toEqual(Array.from({ length: ROUNDS }, () => 1));
		rows.push({ edge: 'overlapping executions', tried: `20 executions at once with one key, ${ROUNDS} rounds`, outcome: `messages sent per round: ${sent.join(', ')}` });
	});

	test('20 executions at once with 20 keys, twice', async () => {
		const wave = async () =>
			await Promise.all(Array.from({ length: 20 }, async (_, index) => await runNode({ parameters: keyed(), items: [event(`wave-${index}`)], credentials: credentialsFor(sandbox()) })));
		await wave();
		await wave();
		const perKey = Array.from({ length: 20 }, (_, index) => deliveredOf(`wave-${index}`));
		expect(perKey).toEqual(Array.from({ length: 20 }, () => 1));
		rows.push({ edge: 'overlapping executions', tried: '20 executions at once with 20 different keys, then the same again', outcome: `${perKey.reduce((a, b) => a + b, 0)} messages, ${perKey.filter((count) => count === 1).length} keys sent exactly once` });
	});
});

describe('Send and Wait: an earlier question’s link once the node asked again', () => {
	test('the first link, opened and answered after a second question went out', async () => {
		const first = await ask(sandbox, '+6281111111111');
		const second = await ask(sandbox, '+6282222222222');
		const opened = await open(second.saved, queryOf(first.link), 'GET');
		const answered = await open(second.saved, queryOf(first.link), 'POST');
		expect([opened.status, answered.status]).toEqual([410, 410]);
		expect(answered.workflowData).toBeUndefined();
		const current = await open(second.saved, queryOf(second.link), 'POST');
		expect(current.workflowData).toBeDefined();
		rows.push({
			edge: 'replayed answer link',
			tried: "one node asks twice; the first message's link opened (GET) and answered (POST) after the second went out",
			outcome: `HTTP ${opened.status} and ${answered.status} (the page says the question was replaced), nothing recorded; the second link answers`,
		});
	});
});

describe('the key, when another node uses the credential', () => {
	const service = useHostileService();
	const elsewhere = useHostileService();
	test.each(['legacy', 'http'] as const)('a request for another origin through n8n’s %s request helper', async (helper) => {
		const { error } = await runCourier({
			parameters: { url: `${elsewhere.url}/collect`, helper, ignoreSsl: false },
			items: [{}],
			credentials: { [CREDENTIAL.name]: { type: CREDENTIAL, data: { apiKey: SPECIAL_KEY, baseUrl: service.url } } },
		});
		expect(error?.message).toContain('Nothing was sent');
		expect(elsewhere.connections()).toBe(0);
		rows.push({
			edge: 'the key from another node',
			tried: `a node using the credential (as the HTTP Request node does, n8n's ${helper === 'legacy' ? 'older' : 'newer'} request helper) asks for another https origin`,
			outcome: `refused before sending ("${String(error?.message).slice(0, 60)}…"); connections to that origin: ${elsewhere.connections()}`,
		});
	});
});

describe("one execution's 429 pause and another execution's Rate Limit Max Wait", () => {
	test('B (Rate Limit Max Wait 1 s) while A’s 429 pauses the service for an hour', async () => {
		const credentials = credentialsFor(sandbox());
		// An hour, not seconds: B must start inside the pause however slow this machine is; A is stopped at the end.
		sandbox().injectFault({ kind: 'status', status: 429, message: 'too many requests', retryAfter: '3600' });
		const single = (phone: string, options: IDataObject = {}): INodeParameters => ({ resource: 'sms', operation: 'send', phoneNumber: phone, message: 'paused', options: options as INodeParameters });
		const stop = new AbortController();
		const a = runNode({ parameters: single('+6281300000001', { rateLimitMaxWait: 7200 }), credentials, stop: stop.signal });
		await pauseTaken(credentials.baseUrl);
		const started = performance.now();
		const b = await runNode({ parameters: single('+6281300000002', { rateLimitMaxWait: 1 }), credentials });
		const heldMs = performance.now() - started;
		expect(b.error?.message).toContain('pauses every send');
		const sentForB = sandbox().requests.filter((request) => (request.body as { phone_number: string }).phone_number === '+6281300000002').length;
		expect(sentForB).toBe(0);
		stop.abort();
		expect((await a).run.status).toBe('canceled');
		rows.push({
			edge: 'bounded pause',
			tried: "execution B (Rate Limit Max Wait (Seconds) 1) starts while execution A's 429 (Retry-After: 3600) pauses the service",
			outcome: `B failed after ${Math.round(heldMs)} ms ("not sent: the service's rate limit pauses every send"), ${sentForB} requests for it; A, stopped, was sent once (${sandbox().stats().received} request in all)`,
		});
	});
});
