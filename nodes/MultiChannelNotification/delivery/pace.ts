/**
 * The pace of one service (credential and Base URL), shared by every execution of the node in
 * this n8n process: a window of requests in flight until the first HTTP 429, then a rate measured
 * from what the service delivered, and pauses when its window is spent. Pure: the caller
 * (scheduler.ts) passes the times in. The design, and why each rule is there: docs/pacing.md.
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
/** No probe this soon after a cut: each probe past the limit costs a few refused requests. */
const PROBE_HOLD_MS = 2000;
const PROBE_FACTOR = 1.1;
/** A raise adds at least this share of the most requests started within one second (at least of the opening window's). */
const PROBE_STEP = 0.05;
/** After a long gap between deliveries, a raise adds at most this many half-second steps. */
const MAX_STEPS_A_RAISE = 2;
export const CUT_EVERY_MS = 1000;
/** The shortest span a rate is measured over: a first 429 can come within milliseconds. */
const MIN_MEASURE_MS = 100;
/** This many answers in a row refused since the last cut: the window is spent, pause at once. */
const REFUSED_IN_A_ROW = 5;

export class Pace {
	limit = INITIAL_LIMIT;
	/** Requests in flight, every execution together. */
	inFlight = 0;
	rate = Infinity;
	private nextSlot = 0;
	private pausedUntil = -Infinity;
	/** Recent answers' round trips, quickest first, for the quickest of the last second. */
	private readonly recentRtts: Array<{ at: number; rtt: number }> = [];
	private lastCut = -Infinity;
	/** How soon after a cut the next may come: the span the last rate was measured over. */
	private cutSpan = CUT_EVERY_MS;
	private lastProbe = -Infinity;
	/** What a rate is measured from: the first delivery, or before a rate is set, the first after a quiet second. */
	private firstDelivery = Infinity;
	private refusedInARow = 0;
	/** Starts of the last second, and the most there ever were (at least the opening window's): the step of a raise. */
	private readonly started: number[] = [];
	private peakStarted = INITIAL_LIMIT;
	/** After a first pause with nothing delivered: the rate doubles until a refusal from then on. */
	private doublingSince: number | undefined;
	private readonly delivered: number[] = [];
	private readonly waiters = new Set<() => void>();

	/** When the service's pause (after a spent window) ends; in the past when no pause holds. */
	pauseEnd(): number {
		return this.pausedUntil;
	}

	/** Earliest time the next request may start under the rate and any pause. */
	slot(): number {
		return Math.max(this.pausedUntil, this.rate === Infinity ? -Infinity : this.nextSlot);
	}

	/** One request starts now: it takes the next slot of the rate. */
	take(now: number): void {
		this.inFlight++;
		this.started.push(now);
		while (this.started[0] <= now - CUT_EVERY_MS) this.started.shift();
		this.peakStarted = Math.max(this.peakStarted, this.started.length);
		if (this.rate !== Infinity) this.nextSlot = Math.max(this.nextSlot, now) + 1000 / this.rate;
	}

	/** One request is over, whatever its answer: every execution waiting for room is woken. */
	settle(): void {
		this.inFlight--;
		for (const wake of [...this.waiters]) wake();
	}

	/** Calls `wake` whenever a request of any execution ends; returns the unsubscribe. */
	subscribe(wake: () => void): () => void {
		this.waiters.add(wake);
		return () => this.waiters.delete(wake);
	}

	/** Deliveries after `since` (within the last second kept). */
	deliveredSince(since: number): number {
		let count = 0;
		for (let index = this.delivered.length - 1; index >= 0 && this.delivered[index] > since; index--) count++;
		return count;
	}

	/** A delivered request; `adaptive` when its execution lets the window adapt. */
	onDone(now: number, rtt: number, adaptive: boolean): void {
		this.refusedInARow = 0;
		while (this.delivered[0] <= now - CUT_EVERY_MS) this.delivered.shift();
		// Before any rate is set, a delivery after a quiet second starts what the first 429 measures
		// (why: docs/pacing.md, "After a 429"). A rate once set is only cut from then on.
		this.firstDelivery = this.delivered.length === 0 && this.rate === Infinity ? now : Math.min(this.firstDelivery, now);
		this.delivered.push(now);
		const base = this.quickestRecent(now, rtt);
		if (this.rate === Infinity) {
			if (!adaptive) return;
			if (rtt <= base * GROW_RTT_FACTOR + GROW_RTT_SLACK_MS) {
				this.limit = Math.min(ADAPTIVE_CEILING, this.limit + 1);
			} else if (rtt > base * SHRINK_RTT_FACTOR + SHRINK_RTT_SLACK_MS) {
				this.limit = Math.max(INITIAL_LIMIT, this.limit - 1);
			}
		} else if (this.doublingSince !== undefined) {
			// lastProbe is never before doublingSince while it is set: the doubling waits for the pause's end.
			if (now - this.lastProbe >= PROBE_EVERY_MS) {
				this.rate *= 2;
				this.lastProbe = now;
			}
		} else if (now - this.lastCut >= PROBE_HOLD_MS && now - this.lastProbe >= PROBE_EVERY_MS) {
			// One step per half second since the last raise (or since raises could start), at most
			// two: a pace delivering once a second climbs as fast as a busy one.
			const since = Math.max(this.lastProbe, this.lastCut + PROBE_HOLD_MS - PROBE_EVERY_MS);
			const steps = Math.min(MAX_STEPS_A_RAISE, (now - since) / PROBE_EVERY_MS);
			this.rate += steps * Math.max(this.rate * (PROBE_FACTOR - 1), this.peakStarted * PROBE_STEP);
			this.lastProbe = now;
		}
	}

	/**
	 * The quickest round trip of the last second, this one included (a sliding-window minimum):
	 * it follows this machine's load and the service's, not one quick answer seen while idle.
	 */
	private quickestRecent(now: number, rtt: number): number {
		const recent = this.recentRtts;
		while (recent.length > 0 && recent[recent.length - 1].rtt >= rtt) recent.pop();
		recent.push({ at: now, rtt });
		while (recent[0].at <= now - CUT_EVERY_MS) recent.shift();
		return recent[0].rtt;
	}

	/**
	 * A 429 for a request started at `startedAt`. `maxWaitMs`: a pause longer than an item may
	 * wait is not taken.
	 */
	onThrottled(now: number, retryAfterMs: number | undefined, maxWaitMs: number, startedAt = now): void {
		if (this.doublingSince !== undefined && this.endDoubling(now, startedAt, this.doublingSince)) return;
		// Only requests sent at the current rate say whether it is too high.
		if (startedAt >= this.lastCut) this.refusedInARow++;
		// A rate measured over a short span may be far too high (a burst allowance looks like a
		// high rate): refusals in a row then say so at once, without waiting for the span to pass.
		const overrated = this.cutSpan < CUT_EVERY_MS && this.refusedInARow >= REFUSED_IN_A_ROW;
		if (now - this.lastCut < this.cutSpan && !overrated) return;
		const deliveredSinceCut = this.deliveredSince(this.lastCut);
		const lastSecond = this.deliveredSince(now - CUT_EVERY_MS);
		this.lastCut = now;
		this.lastProbe = now;
		if (lastSecond === 0 || deliveredSinceCut === 0 || overrated) {
			this.pauseSpentWindow(now, retryAfterMs, maxWaitMs, lastSecond);
		} else {
			this.cutToDelivered(now, lastSecond);
		}
	}

	/**
	 * A 429 while the rate doubles after a first pause with nothing delivered (`since`: the pause's
	 * end). True when it is dealt with here: a refusal of an opening request says nothing of the
	 * doubled rate, and the first refusal after the pause measures the rate since then.
	 */
	private endDoubling(now: number, startedAt: number, since: number): boolean {
		if (startedAt < since) return true;
		this.doublingSince = undefined;
		const delivered = this.deliveredSince(since);
		if (delivered === 0) return false;
		this.lastCut = now;
		this.lastProbe = now;
		this.refusedInARow = 0;
		this.setRate(now, delivered, Math.max(MIN_MEASURE_MS, Math.min(CUT_EVERY_MS, now - since)));
		return true;
	}

	/**
	 * The service's window is spent: every send waits for it (the Retry-After, else 1 s), but never
	 * longer than an item may wait (the items would all fail past their budget; they fail on their
	 * own 429 instead). `lastSecond`: the deliveries of the last second.
	 */
	private pauseSpentWindow(now: number, retryAfterMs: number | undefined, maxWaitMs: number, lastSecond: number): void {
		this.refusedInARow = 0;
		const pause = retryAfterMs ?? 1000;
		if (pause <= maxWaitMs) this.pausedUntil = Math.max(this.pausedUntil, now + pause);
		// What got through, spread from the first delivery to the end of the pause.
		if (lastSecond > 0) {
			this.setRate(now, lastSecond, Math.max(MIN_MEASURE_MS, this.pausedUntil - this.firstDelivery));
		} else if (this.rate === Infinity) {
			// Nothing measured yet: the requests sent at once, spread over the pause, then doubling.
			const resumeAt = Math.max(now, this.pausedUntil);
			this.setRate(now, this.limit, Math.max(MIN_MEASURE_MS, resumeAt - now));
			this.doublingSince = resumeAt;
			this.lastProbe = resumeAt;
		}
	}

	/**
	 * Answers still get through: the rate is what they came to over the last second, or since the
	 * first delivery if more recent; the next cut may come once that span has passed. The first
	 * delivery counts too: one delivery, then a 429, is a rate of one per span, where counting only
	 * later ones would make it 0 and no request to this service would ever start again.
	 */
	private cutToDelivered(now: number, lastSecond: number): void {
		this.setRate(now, lastSecond, Math.max(MIN_MEASURE_MS, Math.min(CUT_EVERY_MS, now - this.firstDelivery)));
	}

	private setRate(now: number, delivered: number, span: number): void {
		const perSecond = (delivered * 1000) / span;
		this.rate = Math.min(this.rate, perSecond);
		this.cutSpan = span;
		this.nextSlot = now + 1000 / this.rate;
	}
}

/** Services idle this long (no execution using them) are forgotten. */
const IDLE_MS = 10 * 60 * 1000;
/** At most this many services are remembered; the longest idle goes first. */
const MAX_SERVICES = 64;

/**
 * One Pace per service key, held while executions use it and for {@link IDLE_MS} after (so the
 * next burst starts at the learned pace), never more than {@link MAX_SERVICES}.
 */
export class PaceRegistry {
	private readonly entries = new Map<string, { pace: Pace; users: number; idleSince: number }>();

	/** The service's pace for one execution; `release` when the execution is done with it. */
	use(key: string, now: number): { pace: Pace; release: (now: number) => void } {
		this.sweep(now, key);
		const entry = this.entries.get(key) ?? { pace: new Pace(), users: 0, idleSince: now };
		this.entries.set(key, entry);
		entry.users++;
		let released = false;
		return {
			pace: entry.pace,
			release: (at) => {
				if (released) return;
				released = true;
				if (--entry.users === 0) entry.idleSince = at;
			},
		};
	}

	get size(): number {
		return this.entries.size;
	}

	/** Forgets the services idle too long, then the longest idle while there is no room for `using`. */
	private sweep(now: number, using: string): void {
		for (const [key, entry] of this.entries) {
			if (entry.users === 0 && now - entry.idleSince >= IDLE_MS) this.entries.delete(key);
		}
		if (this.entries.size < MAX_SERVICES || this.entries.has(using)) return;
		const idle = [...this.entries].filter(([, entry]) => entry.users === 0).sort((a, b) => a[1].idleSince - b[1].idleSince);
		for (const [key] of idle.slice(0, this.entries.size - MAX_SERVICES + 1)) this.entries.delete(key);
	}
}

/** The process-wide registry every execution of the node shares. */
export const paces = new PaceRegistry();
