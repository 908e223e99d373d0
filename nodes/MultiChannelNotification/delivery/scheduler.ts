import { CUT_EVERY_MS, INITIAL_LIMIT, Pace } from './pace';

/**
 * Sends the items of one execution at the pace of their service (pace.ts), shared with every
 * other execution sending to it. Pure: time comes from an injected clock, sending from an
 * injected function, so it is tested on a virtual clock.
 *
 * - **Adaptive** (no Concurrency set): the shared window of the service limits the requests in
 *   flight, this execution's and the others' together.
 * - **Pinned** (Concurrency set): exactly that many of this execution's in flight.
 * - **Rate limited**: every start takes a slot of the shared rate. A 429'd item is queued again
 *   after the Retry-After the service gave; without one, after 1 s while messages are getting
 *   through (the rate is the backoff), else 1 s, 2 s, 4 s … up to 30 s. It gives up once its
 *   waiting would pass the item's budget.
 * - **Batches** (Batch Interval set): a batch of `limit` items, all answered, then the pause.
 *
 * A 429 is the only answer ever sent again: it means the request was refused, not delivered.
 */

const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 30000;

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

/** What one attempt came to. */
export type Attempt =
	| { kind: 'done' }
	/** Nothing more may start (a failure without Continue On Fail); in-flight sends finish. */
	| { kind: 'stop' }
	/** HTTP 429: refused, not delivered. `retryAfterMs` when the service said how long to wait. */
	| { kind: 'throttled'; retryAfterMs?: number };

interface Sender {
	send(job: number, attempt: number): Promise<Attempt>;
	/** The item has waited as long as it may; the answer decides whether the run goes on. */
	giveUp(job: number, waitedMs: number, askedMs: number): 'done' | 'stop';
	/** True once the execution is cancelled: nothing more starts. */
	cancelled?(): boolean;
}

export interface PacingSettings {
	/** Requests in flight, pinned; undefined lets the scheduler adapt. */
	concurrency?: number;
	/** Pause between batches in ms; 0 sends continuously. */
	batchInterval: number;
	/** Longest one item may spend waiting on 429s, in ms. */
	maxWaitMs: number;
}

export interface ScheduleStats {
	attempts: number;
	throttled: number;
	maxInFlight: number;
	/** The request rate in force at the end, if the service ever rate limited. */
	rate?: number;
	/** The longest an item was held back by rate limits, first refusal to last answer. */
	longestWaitMs?: number;
}

interface Job {
	index: number;
	startedAt?: number;
	attempt: number;
	notBefore: number;
	firstThrottledAt?: number;
}

/**
 * The wait a 429 answer asks for, in milliseconds: `Retry-After` as seconds or as an HTTP date.
 * Undefined when the header is absent or unreadable (the scheduler then backs off on its own).
 */
export function retryAfterMs(retryAfter: unknown, now = Date.now()): number | undefined {
	const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
	if (typeof header !== 'string' || header.trim() === '') return undefined;
	const text = header.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function backoff(attempt: number): number {
	return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

/**
 * Runs jobs 0 … count-1 through `sender` until each is done, or until one says stop. `pace` is
 * the service's shared pace (a fresh one when not given).
 */
export async function schedule(
	count: number,
	sender: Sender,
	settings: PacingSettings,
	clock: Clock,
	pace: Pace = new Pace(),
): Promise<ScheduleStats> {
	const pinned = settings.concurrency !== undefined;
	const limit = () => (pinned ? (settings.concurrency ?? INITIAL_LIMIT) : pace.limit);
	const room = () => (pinned ? inFlight : pace.inFlight) < limit();
	// Retries whose wait is over (in item order), then fresh items from `next` on.
	const retries: Job[] = [];
	let next = 0;
	const pending = () => retries.length + (count - next);
	const take = (): Job => retries.shift() ?? { index: next++, attempt: 0, notBefore: 0 };
	const waiting: Job[] = [];
	const stats: ScheduleStats = { attempts: 0, throttled: 0, maxInFlight: 0 };
	let inFlight = 0;
	let stopped = false;
	let batchOpen = true;
	let batchReadyAt = 0;
	let wake = () => {};
	const unsubscribe = pace.subscribe(() => wake());

	const finish = (job: Job, attempt: Attempt) => {
		inFlight--;
		const now = clock.now();
		if (job.firstThrottledAt !== undefined && attempt.kind !== 'throttled') {
			stats.longestWaitMs = Math.max(stats.longestWaitMs ?? 0, now - job.firstThrottledAt);
		}
		if (attempt.kind === 'stop') stopped = true;
		else if (attempt.kind === 'done') pace.onDone(now, now - (job.startedAt ?? now), !pinned);
		else {
			stats.throttled++;
			pace.onThrottled(now, attempt.retryAfterMs, settings.maxWaitMs, job.startedAt);
			job.firstThrottledAt ??= now;
			const flowing = pace.deliveredSince(now - CUT_EVERY_MS) > 0;
			const wait = attempt.retryAfterMs ?? (flowing ? BACKOFF_BASE_MS : backoff(job.attempt));
			const waited = now - job.firstThrottledAt;
			if (waited + wait > settings.maxWaitMs) {
				stats.longestWaitMs = Math.max(stats.longestWaitMs ?? 0, waited);
				if (sender.giveUp(job.index, waited, wait) === 'stop') stopped = true;
			} else {
				job.attempt++;
				job.notBefore = now + wait;
				waiting.push(job);
				waiting.sort((a, b) => a.notBefore - b.notBefore || a.index - b.index);
			}
		}
		if (settings.batchInterval > 0 && inFlight === 0) batchReadyAt = now + settings.batchInterval;
		// Wakes this execution and every other one waiting for room.
		pace.settle();
	};

	const start = (job: Job, now: number) => {
		inFlight++;
		stats.attempts++;
		stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
		job.startedAt = now;
		pace.take(now);
		sender.send(job.index, job.attempt).then(
			(attempt) => finish(job, attempt),
			() => finish(job, { kind: 'stop' }),
		);
	};

	try {
		for (;;) {
			const woken = new Promise<void>((resolve) => (wake = resolve));
			const now = clock.now();
			if (sender.cancelled?.() === true) stopped = true;
			// Retries whose wait is over go first, in item order.
			const due = waiting.filter((job) => job.notBefore <= now);
			if (due.length > 0) {
				waiting.splice(0, due.length);
				retries.push(...due);
				retries.sort((a, b) => a.index - b.index);
			}
			if (settings.batchInterval > 0 && inFlight === 0) batchOpen = now >= batchReadyAt;
			let startedInBatch = 0;
			while (
				!stopped &&
				pending() > 0 &&
				room() &&
				pace.slot() <= now &&
				(settings.batchInterval === 0 || (batchOpen && startedInBatch < limit()))
			) {
				start(take(), now);
				startedInBatch++;
			}
			if (settings.batchInterval > 0 && startedInBatch > 0) batchOpen = false;
			if (inFlight === 0 && (stopped || (pending() === 0 && waiting.length === 0))) break;

			const timers: number[] = [];
			if (!stopped) {
				if (pending() > 0 && room() && pace.slot() > now) timers.push(pace.slot());
				if (waiting.length > 0) timers.push(waiting[0].notBefore);
				if (settings.batchInterval > 0 && inFlight === 0 && !batchOpen) timers.push(batchReadyAt);
			}
			const next = timers.length > 0 ? Math.min(...timers) : undefined;
			await (next === undefined ? woken : Promise.race([woken, clock.sleep(Math.max(0, next - now))]));
		}
	} finally {
		unsubscribe();
	}
	if (pace.rate !== Infinity) stats.rate = pace.rate;
	return stats;
}
