/**
 * Paces the sends of one execution. Pure: time comes from an injected clock, sending from an
 * injected function, so it is tested on a virtual clock.
 *
 * - **Adaptive** (no Concurrency set): starts with {@link INITIAL_LIMIT} requests in flight and
 *   adds one per clean answer (doubling each round trip, as TCP slow start does) up to
 *   {@link ADAPTIVE_CEILING}, never "everything at once" — but only while answers come back about
 *   as fast as the quickest so far. A service that slows down under the load (or this machine's
 *   CPU running out) stops the growth, and one much slower answer takes one request back: the
 *   delay-based idea of TCP Vegas, since 5xx and timeouts are never retried and must be avoided
 *   rather than recovered from.
 * - **Pinned** (Concurrency set): exactly that many in flight.
 * - **Rate limited**: the first HTTP 429 switches on a request rate, set to what the service
 *   delivered in the last second; it is raised by 10 % every half second without a 429 (the
 *   probe) and cut back to the delivered rate on the next 429, at most once a second. A 429 when
 *   nothing at all got through in the last second (a quota already spent) pauses every send for
 *   the Retry-After (else 1 s) and keeps the estimate, rather than starting over from 1 request/s.
 *   A 429'd item is queued again after the Retry-After the service gave; without one, after 1 s
 *   while messages are getting through (the rate is the backoff), else 1 s, 2 s, 4 s … up to
 *   30 s. It gives up once its waiting would pass the item's budget.
 * - **Batches** (Batch Interval set): a batch of `limit` items, all answered, then the pause.
 *
 * A 429 is the only answer ever sent again: it means the request was refused, not delivered.
 */

export const INITIAL_LIMIT = 10;
export const ADAPTIVE_CEILING = 200;
/** An answer within this of the quickest round trip lets one more request start. */
const GROW_RTT_FACTOR = 1.5;
const GROW_RTT_SLACK_MS = 20;
/** An answer slower than this gives one request back. */
const SHRINK_RTT_FACTOR = 2;
const SHRINK_RTT_SLACK_MS = 20;
const PROBE_EVERY_MS = 500;
const PROBE_FACTOR = 1.1;
const CUT_EVERY_MS = 1000;
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

export interface Sender {
	send(job: number, attempt: number): Promise<Attempt>;
	/** The item has waited as long as it may; the answer decides whether the run goes on. */
	giveUp(job: number, waitedMs: number, askedMs: number): 'done' | 'stop';
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
}

interface Job {
	index: number;
	startedAt?: number;
	attempt: number;
	notBefore: number;
	firstThrottledAt?: number;
}

/** Concurrency window and request rate, adjusted from the answers. */
class Pace {
	limit: number;
	rate = Infinity;
	private nextSlot = 0;
	private pausedUntil = -Infinity;
	private baseRtt = Infinity;
	private lastCut = -Infinity;
	private lastProbe = -Infinity;
	private readonly delivered: number[] = [];

	constructor(private readonly pinned: boolean, concurrency: number) {
		this.limit = concurrency;
	}

	/** Earliest time the next request may start under the rate. */
	slot(): number {
		return Math.max(this.pausedUntil, this.rate === Infinity ? -Infinity : this.nextSlot);
	}

	take(now: number): void {
		if (this.rate !== Infinity) this.nextSlot = Math.max(this.nextSlot, now) + 1000 / this.rate;
	}

	deliveredSince(since: number): number {
		while (this.delivered.length > 0 && this.delivered[0] <= since) this.delivered.shift();
		return this.delivered.length;
	}

	onDone(now: number, rtt: number): void {
		this.delivered.push(now);
		if (this.delivered.length > 4096) this.deliveredSince(now - CUT_EVERY_MS);
		this.baseRtt = Math.min(this.baseRtt, rtt);
		if (this.rate === Infinity) {
			if (this.pinned) return;
			if (rtt <= this.baseRtt * GROW_RTT_FACTOR + GROW_RTT_SLACK_MS) {
				this.limit = Math.min(ADAPTIVE_CEILING, this.limit + 1);
			} else if (rtt > this.baseRtt * SHRINK_RTT_FACTOR + SHRINK_RTT_SLACK_MS) {
				this.limit = Math.max(INITIAL_LIMIT, this.limit - 1);
			}
		} else if (now - this.lastCut >= CUT_EVERY_MS && now - this.lastProbe >= PROBE_EVERY_MS) {
			this.rate *= PROBE_FACTOR;
			this.lastProbe = now;
		}
	}

	onThrottled(now: number, retryAfterMs: number | undefined, maxWaitMs: number): void {
		if (now - this.lastCut < CUT_EVERY_MS) return;
		const measured = this.deliveredSince(now - CUT_EVERY_MS);
		this.lastCut = now;
		if (measured === 0) {
			// Nothing got through: the service's window is spent. Wait for it, keep the estimate —
			// but never longer than an item may wait: a longer pause would hold every item not
			// yet sent past its budget (they fail on their own 429 instead).
			const pause = retryAfterMs ?? BACKOFF_BASE_MS;
			if (pause <= maxWaitMs) this.pausedUntil = Math.max(this.pausedUntil, now + pause);
			return;
		}
		this.rate = this.rate === Infinity ? measured : Math.min(this.rate, measured);
		this.lastProbe = now;
		this.nextSlot = now + 1000 / this.rate;
	}
}

export function backoff(attempt: number): number {
	return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

/** Runs jobs 0 … count-1 through `sender` until each is done, or until one says stop. */
export async function schedule(
	count: number,
	sender: Sender,
	settings: PacingSettings,
	clock: Clock,
): Promise<ScheduleStats> {
	const pace = new Pace(settings.concurrency !== undefined, settings.concurrency ?? INITIAL_LIMIT);
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

	const finish = (job: Job, attempt: Attempt) => {
		inFlight--;
		const now = clock.now();
		if (attempt.kind === 'stop') stopped = true;
		else if (attempt.kind === 'done') pace.onDone(now, now - (job.startedAt ?? now));
		else {
			stats.throttled++;
			pace.onThrottled(now, attempt.retryAfterMs, settings.maxWaitMs);
			job.firstThrottledAt ??= now;
			const flowing = pace.deliveredSince(now - CUT_EVERY_MS) > 0;
			const wait = attempt.retryAfterMs ?? (flowing ? BACKOFF_BASE_MS : backoff(job.attempt));
			const waited = now - job.firstThrottledAt;
			if (waited + wait > settings.maxWaitMs) {
				if (sender.giveUp(job.index, waited, wait) === 'stop') stopped = true;
			} else {
				job.attempt++;
				job.notBefore = now + wait;
				waiting.push(job);
				waiting.sort((a, b) => a.notBefore - b.notBefore || a.index - b.index);
			}
		}
		if (settings.batchInterval > 0 && inFlight === 0) batchReadyAt = now + settings.batchInterval;
		wake();
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

	for (;;) {
		const woken = new Promise<void>((resolve) => (wake = resolve));
		const now = clock.now();
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
			inFlight < pace.limit &&
			pace.slot() <= now &&
			(settings.batchInterval === 0 || (batchOpen && startedInBatch < pace.limit))
		) {
			start(take(), now);
			startedInBatch++;
		}
		if (settings.batchInterval > 0 && startedInBatch > 0) batchOpen = false;
		if (inFlight === 0 && (stopped || (pending() === 0 && waiting.length === 0))) break;

		const timers: number[] = [];
		if (!stopped) {
			if (pending() > 0 && inFlight < pace.limit && pace.slot() > now) timers.push(pace.slot());
			if (waiting.length > 0) timers.push(waiting[0].notBefore);
			if (settings.batchInterval > 0 && inFlight === 0 && !batchOpen) timers.push(batchReadyAt);
		}
		const next = timers.length > 0 ? Math.min(...timers) : undefined;
		await (next === undefined ? woken : Promise.race([woken, clock.sleep(Math.max(0, next - now))]));
	}
	if (pace.rate !== Infinity) stats.rate = pace.rate;
	return stats;
}
