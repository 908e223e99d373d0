/**
 * The sandbox controls that let a node test depend on the run's progress instead of the clock:
 * a Retry-After date measured from the refused request itself, and an action taken the moment a
 * given request is let through. The sandbox's clock is held still here, so nothing depends on how
 * fast the machine answers.
 */
import { SMS_PATH, checkFault, startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { expectIdle } from '../helpers/sandbox';

const KEY = 'test-key-progress';
/** A whole second plus 300 ms. */
const ARRIVAL = Date.parse('2026-11-28T10:00:00Z') + 300;

let sandbox: Sandbox;
let clockMs = ARRIVAL;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, apiKey: KEY, now: () => clockMs });
});
beforeEach(() => {
	sandbox.reset();
	clockMs = ARRIVAL;
});
afterEach(async () => await expectIdle(sandbox));
afterAll(async () => await sandbox.stop());

async function sendSms(n: number): Promise<Response> {
	const response = await fetch(`${sandbox.url}${SMS_PATH}`, {
		method: 'POST',
		headers: { Authorization: KEY, 'Content-Type': 'application/json' },
		body: JSON.stringify({ phone_number: `+62812000000${String(n).padStart(2, '0')}`, message: `message ${n}` }),
	});
	await response.text();
	return response;
}

describe('Retry-After as a date after the refused request', () => {
	test('the date is that many ms after the arrival, rounded down to the second', async () => {
		sandbox.injectFault({ kind: 'status', status: 429, retryAfterDateInMs: 2000 });
		const response = await sendSms(1);

		expect(response.status).toBe(429);
		expect(response.headers.get('retry-after')).toBe(new Date(ARRIVAL + 2000 - 300).toUTCString());
		expect(Date.parse(response.headers.get('retry-after') ?? '')).toBe(Date.parse('2026-11-28T10:00:02Z'));
	});

	test('refused when malformed or beside a fixed Retry-After', () => {
		expect(checkFault({ kind: 'status', retryAfterDateInMs: 1000 })).toBeNull();
		expect(checkFault({ kind: 'status', retryAfterDateInMs: -1 })).toBe('fault.retryAfterDateInMs: must be an integer >= 0');
		expect(checkFault({ kind: 'status', retryAfterDateInMs: 1.5 })).toBe('fault.retryAfterDateInMs: must be an integer >= 0');
		expect(checkFault({ kind: 'status', retryAfter: '1', retryAfterDateInMs: 1000 })).toBe(
			'fault.retryAfterDateInMs: not with retryAfter',
		);
	});
});

describe('onAdmitted', () => {
	test('acts at the count-th request let through, before the next arrives; refused and faulted ones do not count', async () => {
		sandbox.setRateLimit({ perSecond: 2 });
		sandbox.injectFault({ kind: 'status', status: 500 });
		const seen: number[] = [];
		sandbox.onAdmitted(2, () => {
			seen.push(sandbox.requests.length);
			sandbox.setRateLimit({ perSecond: 3 });
		});

		// A fault (not counted), two admitted, then the third fits the raised limit.
		const statuses = [];
		for (let n = 0; n < 5; n++) statuses.push((await sendSms(n)).status);

		expect(seen).toEqual([3]);
		expect(statuses).toEqual([500, 200, 200, 200, 429]);
	});

	test('a count already reached acts at once; a reset forgets what is pending', async () => {
		await sendSms(1);
		const seen: string[] = [];
		sandbox.onAdmitted(1, () => seen.push('reached'));
		sandbox.onAdmitted(2, () => seen.push('pending'));
		sandbox.reset();
		await sendSms(2);
		await sendSms(3);

		expect(seen).toEqual(['reached']);
	});
});
