import type { Job } from './jobs';
import { Jobs } from './jobs';
import { CUT_EVERY_MS, INITIAL_LIMIT, Pace } from './pace';

/**
 * Sends the items of one execution at the pace of their service (pace.ts), shared with every
 * other execution sending to it. Time comes from an injected clock, sending from an injected
 * function. The design, and why: docs/pacing.md.
 *
 * - **Adaptive** (no Concurrency set): the shared window of the service limits the requests in
 *   flight, this execution's and the others' together.
 * - **Pinned** (Concurrency set): exactly that many of this execution's in flight.
 * - **Rate limited**: every start takes a slot of the shared rate. A 429'd item (a 429 is the
 *   only answer sent again) is queued again after the Retry-After the service gave; without one,
 *   after 1 s while messages are getting through (the rate is the backoff), else 1 s, 2 s, 4 s …
 *   up to 30 s. It gives up once its waiting would pass the item's budget; so does an item the
 *   service's pause (set by a 429 to any execution) would hold past it, at once.
 * - **Stop**: once the execution's cancel signal fires, nothing more starts and every wait ends.
 * - **Batches** (Batch Interval set): a batch of `limit` items (started at the rate, when one is
 *   in force), all answered, then the pause.
 */

const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 30000;
/**
 * The longest one sleep of the scheduler lasts; a longer wait is slept in slices. Stop wakes the
 * scheduler at once, but the real clock's timer (n8n-workflow's `sleep`) cannot be cancelled:
 * this bounds what a stopped execution leaves running.
 */
const MAX_SLEEP_MS = 1000;

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
	/** The execution's cancel signal: once aborted, nothing more starts and any wait ends at once. */
	signal?: AbortSignal;
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

/** One execution's run through the pace: what is in flight, its batches, its answers, its stats. */
class Run {
	readonly stats: ScheduleStats = { attempts: 0, throttled: 0, maxInFlight: 0 };
	private readonly jobs: Jobs;
	private readonly pinned: boolean;
	private inFlight = 0;
	private stopped = false;
	/** Starts in the current batch (Batch Interval set): it is full at the limit. */
	private batchStarted = 0;
	/** When the next batch may start: the pause after the last answer of a full batch. */
	private batchReadyAt = 0;
	/** The pause holding this execution: since when, and its end as last seen; undefined while none holds. */
	private held: { since: number; until: number } | undefined;

	constructor(
		count: number,
		private readonly sender: Sender,
		private readonly settings: PacingSettings,
		private readonly clock: Clock,
		private readonly pace: Pace,
	) {
		this.jobs = new Jobs(count);
		this.pinned = settings.concurrency !== undefined;
	}

	/** Starts every job that may start at `now`: room in flight, a slot of the rate, an open batch. */
	startWhatMay(now: number): void {
		if (this.sender.signal?.aborted === true) this.stopped = true;
		this.jobs.releaseDue(now);
		if (!this.stopped) this.giveUpHeld(now);
		const batches = this.settings.batchInterval > 0;
		if (batches && this.pausing() && now >= this.batchReadyAt) this.batchStarted = 0;
		while (
			!this.stopped &&
			this.jobs.pending() > 0 &&
			this.room() &&
			this.pace.slot() <= now &&
			(!batches || this.batchStarted < this.limit())
		) {
			this.start(this.jobs.take(), now);
			if (batches) this.batchStarted++;
		}
	}

	/** True once nothing is in flight and nothing more will start. */
	over(): boolean {
		return this.inFlight === 0 && (this.stopped || this.jobs.allTaken());
	}

	/**
	 * When a job may start without an answer coming first: the rate's next slot, the soonest
	 * retry, the end of the pause between batches. Undefined when only an answer can help.
	 */
	nextStartAt(now: number): number | undefined {
		if (this.stopped) return undefined;
		const timers: number[] = [];
		if (this.jobs.pending() > 0 && this.room() && this.pace.slot() > now) timers.push(this.pace.slot());
		const due = this.jobs.nextDue();
		if (due !== undefined) timers.push(due);
		if (this.settings.batchInterval > 0 && this.pausing()) timers.push(this.batchReadyAt);
		return timers.length > 0 ? Math.min(...timers) : undefined;
	}

	/**
	 * Gives up, at once, every job the service's pause would hold past Rate Limit Max Wait: the
	 * pause only ever grows, so waiting for it would only end in the same failure later.
	 */
	private giveUpHeld(now: number): void {
		const until = this.pace.pauseEnd();
		if (until <= now) {
			this.held = undefined;
			return;
		}
		// A pause seen to end before now is over, though no wake came between: this is a new one,
		// begun now (every 429 wakes every execution sharing the pace).
		if (this.held === undefined || this.held.until <= now) this.held = { since: now, until };
		this.held.until = until;
		const { since } = this.held;
		for (const job of this.jobs.heldPast(until, this.settings.maxWaitMs, since)) {
			this.giveUp(job, now - (job.firstThrottledAt ?? since), Math.max(job.notBefore, until) - now);
			if (this.stopped) return;
		}
	}

	/**
	 * Between batches: the batch is full and all of it answered. A batch fills at the pace the
	 * rate and the room allow, over several passes if need be.
	 */
	private pausing(): boolean {
		return this.inFlight === 0 && this.batchStarted >= this.limit();
	}

	private limit(): number {
		return this.pinned ? (this.settings.concurrency ?? INITIAL_LIMIT) : this.pace.limit;
	}

	/** Room for one more request: this execution's own when pinned, else the service's window. */
	private room(): boolean {
		return (this.pinned ? this.inFlight : this.pace.inFlight) < this.limit();
	}

	private start(job: Job, now: number): void {
		this.inFlight++;
		this.stats.attempts++;
		this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.inFlight);
		job.startedAt = now;
		this.pace.take(now);
		this.sender.send(job.index, job.attempt).then(
			(attempt) => this.finish(job, attempt),
			() => this.finish(job, { kind: 'stop' }),
		);
	}

	private finish(job: Job, attempt: Attempt): void {
		this.inFlight--;
		const now = this.clock.now();
		if (job.firstThrottledAt !== undefined && attempt.kind !== 'throttled') this.noteWait(now - job.firstThrottledAt);
		if (attempt.kind === 'stop') this.stopped = true;
		else if (attempt.kind === 'done') this.pace.onDone(now, now - (job.startedAt ?? now), !this.pinned);
		else this.throttled(job, attempt.retryAfterMs, now);
		if (this.settings.batchInterval > 0 && this.inFlight === 0) this.batchReadyAt = now + this.settings.batchInterval;
		// Wakes this execution and every other one waiting for room.
		this.pace.settle();
	}

	/**
	 * A 429: the job is queued again after the Retry-After, else a backoff, unless its waiting
	 * would then pass its budget; then it is given up.
	 */
	private throttled(job: Job, retryAfterMs: number | undefined, now: number): void {
		this.stats.throttled++;
		this.pace.onThrottled(now, retryAfterMs, this.settings.maxWaitMs, job.startedAt);
		job.firstThrottledAt ??= now;
		const flowing = this.pace.deliveredSince(now - CUT_EVERY_MS) > 0;
		const wait = retryAfterMs ?? (flowing ? BACKOFF_BASE_MS : backoff(job.attempt));
		const waited = now - job.firstThrottledAt;
		if (waited + wait > this.settings.maxWaitMs) this.giveUp(job, waited, wait);
		else this.jobs.retryAt(job, now + wait);
	}

	/** The job has waited `waitedMs` and would wait `askedMs` more, past its budget: it fails. */
	private giveUp(job: Job, waitedMs: number, askedMs: number): void {
		this.noteWait(waitedMs);
		if (this.sender.giveUp(job.index, waitedMs, askedMs) === 'stop') this.stopped = true;
	}

	/** An item held back by rate limits for `ms`, first refusal to last answer. */
	private noteWait(ms: number): void {
		this.stats.longestWaitMs = Math.max(this.stats.longestWaitMs ?? 0, ms);
	}
}

/**
 * Runs jobs 0 … count-1 through `sender` until each is done, or until one says stop or the
 * execution is cancelled. `pace` is the service's shared pace (a fresh one when not given).
 * Every wait is raced with the cancel signal: Stop ends it at once, whatever the clock.
 */
export async function schedule(
	count: number,
	sender: Sender,
	settings: PacingSettings,
	clock: Clock,
	pace: Pace = new Pace(),
): Promise<ScheduleStats> {
	const run = new Run(count, sender, settings, clock, pace);
	let wake = () => {};
	const unsubscribe = pace.subscribe(() => wake());
	const onAbort = () => wake();
	sender.signal?.addEventListener('abort', onAbort);
	try {
		for (;;) {
			const woken = new Promise<void>((resolve) => (wake = resolve));
			const now = clock.now();
			run.startWhatMay(now);
			if (run.over()) break;
			const next = run.nextStartAt(now);
			await (next === undefined ? woken : Promise.race([woken, clock.sleep(Math.min(MAX_SLEEP_MS, Math.max(0, next - now)))]));
		}
	} finally {
		sender.signal?.removeEventListener('abort', onAbort);
		unsubscribe();
	}
	if (pace.rate !== Infinity) run.stats.rate = pace.rate;
	return run.stats;
}
