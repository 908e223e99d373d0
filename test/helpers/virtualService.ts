/**
 * A virtual clock and a simulated service for the scheduler's tests: no real timers, every run
 * deterministic. The service answers after a latency and, when rate limited, admits N requests
 * per second by one of three limiter shapes — a fixed one-second window, a token bucket holding
 * N/10, a sliding one-second window — refusing the rest with 429 (Retry-After in seconds, as an
 * HTTP date, or none).
 */
import { retryAfterMs } from '../../nodes/MultiChannelNotification/delivery/scheduler';
import type { Attempt, Clock } from '../../nodes/MultiChannelNotification/delivery/scheduler';

/** A whole second (so fixed windows line up with the clock's seconds) plus an offset, as real runs start mid-second. */
export const EPOCH = Date.parse('2026-11-23T12:00:00Z');

/** Lets every promise chain that can move on do so (a macrotask runs only once the microtask queue is empty). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Virtual time. `sleep` registers a timer; `run` lets the code under test go as far as it can,
 * then jumps to the earliest timer, fires every timer due, and repeats until the work settles.
 */
export class VirtualClock implements Clock {
	private time: number;
	private timers: Array<{ at: number; seq: number; fire: () => void }> = [];
	private seq = 0;

	constructor(startOffsetMs = 0) {
		this.time = EPOCH + startOffsetMs;
	}

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((fire) => this.timers.push({ at: this.time + Math.max(0, ms), seq: this.seq++, fire }));
	}

	/** Runs `work` to the end in virtual time; fails rather than hang when nothing can move. */
	async run<T>(work: Promise<T>, limitMs = 3_600_000): Promise<T> {
		let done = false;
		work.then(
			() => (done = true),
			() => (done = true),
		);
		const start = this.time;
		for (;;) {
			await settle();
			if (done) return await work;
			if (this.timers.length === 0) throw new Error(`stuck at +${this.time - start} ms: no timer pending and the run is not over`);
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			this.time = Math.max(this.time, this.timers[0].at);
			if (this.time - start > limitMs) throw new Error(`still running after ${limitMs} ms of virtual time`);
			const due = this.timers.filter((timer) => timer.at <= this.time);
			this.timers = this.timers.filter((timer) => timer.at > this.time);
			for (const timer of due) timer.fire();
		}
	}
}

export type LimiterShape = 'fixed' | 'bucket' | 'sliding';

export type RetryAfterStyle = 'seconds' | 'date' | 'none';

export interface ServiceOptions {
	/** For every request, or per item (and the requests in flight when it arrived). */
	latencyMs?: number | ((job: number, inFlight: number) => number);
	/** Requests admitted per second, or a function of the time; undefined: no limit. */
	perSecond?: number | ((now: number) => number);
	/** How the limit is kept: a fixed one-second window (default), a token bucket holding N/10, or a sliding one-second window. */
	shape?: LimiterShape;
	retryAfter?: RetryAfterStyle;
}

interface Arrival {
	job: number;
	attempt: number;
	at: number;
	/** Requests in flight at the service just after this one arrived. */
	inFlight: number;
	status: 200 | 429;
}

/** The simulated service and the `Sender` the scheduler drives. */
export class Service {
	readonly arrivals: Arrival[] = [];
	readonly delivered = new Map<number, number>();
	readonly givenUp: Array<{ job: number; waitedMs: number; askedMs: number }> = [];
	inFlight = 0;
	maxInFlight = 0;
	answered = 0;
	private window = -1;
	private admitted = 0;
	private tokens = NaN;
	private refilledAt = 0;
	private readonly recent: number[] = [];

	constructor(
		private readonly clock: VirtualClock,
		private readonly options: ServiceOptions = {},
		/** Per attempt overrides: what the service answers, ahead of its own rules. */
		private readonly script: (job: number, attempt: number) => Attempt | 'throw' | undefined = () => undefined,
	) {}

	get duplicates(): number {
		return [...this.delivered.values()].filter((times) => times > 1).length;
	}

	get throttled(): number {
		return this.arrivals.filter((arrival) => arrival.status === 429).length;
	}

	private limitAt(now: number): number {
		const { perSecond } = this.options;
		return perSecond === undefined ? Infinity : typeof perSecond === 'number' ? perSecond : perSecond(now);
	}

	/** Whether a request arriving now is admitted, by the limiter's shape. */
	private admit(now: number): boolean {
		const limit = this.limitAt(now);
		if (limit === Infinity) return true;
		const shape = this.options.shape ?? 'fixed';
		if (shape === 'fixed') {
			const window = Math.floor(now / 1000);
			if (window !== this.window) {
				this.window = window;
				this.admitted = 0;
			}
			if (this.admitted >= limit) return false;
			this.admitted++;
			return true;
		}
		if (shape === 'bucket') {
			const capacity = Math.max(1, limit / 10);
			if (Number.isNaN(this.tokens)) this.tokens = capacity;
			this.tokens = Math.min(capacity, this.tokens + ((now - this.refilledAt) * limit) / 1000);
			this.refilledAt = now;
			if (this.tokens < 1) return false;
			this.tokens -= 1;
			return true;
		}
		while (this.recent.length > 0 && this.recent[0] <= now - 1000) this.recent.shift();
		if (this.recent.length >= limit) return false;
		this.recent.push(now);
		return true;
	}

	/** When the limiter next has room: what an honest Retry-After says. */
	private nextRoom(now: number, window: number): number {
		const shape = this.options.shape ?? 'fixed';
		if (shape === 'bucket') return now + Math.ceil(((1 - this.tokens) * 1000) / this.limitAt(now));
		if (shape === 'sliding') return (this.recent[0] ?? now) + 1000;
		return (window + 1) * 1000;
	}

	readonly sender = {
		send: async (job: number, attempt: number): Promise<Attempt> => {
			const arrivedAt = this.clock.now();
			const window = Math.floor(arrivedAt / 1000);
			const scripted = this.script(job, attempt);
			const admitted = scripted === undefined && this.admit(arrivedAt);
			this.inFlight++;
			this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
			const refused = scripted === undefined ? !admitted : scripted !== 'throw' && scripted.kind === 'throttled';
			this.arrivals.push({ job, attempt, at: arrivedAt, inFlight: this.inFlight, status: refused ? 429 : 200 });
			const { latencyMs = 0 } = this.options;
			await this.clock.sleep(typeof latencyMs === 'number' ? latencyMs : latencyMs(job, this.inFlight));
			this.inFlight--;
			this.answered++;
			if (scripted === 'throw') throw new Error('connection reset');
			if (scripted !== undefined) return scripted;
			if (admitted) {
				this.delivered.set(job, (this.delivered.get(job) ?? 0) + 1);
				return { kind: 'done' };
			}
			const next = this.nextRoom(arrivedAt, window);
			const style = this.options.retryAfter ?? 'seconds';
			const header =
				style === 'seconds'
					? String(Math.max(1, Math.ceil((next - arrivedAt) / 1000)))
					: style === 'date'
						? new Date(next).toUTCString()
						: undefined;
			// As the node does: the header read when the answer arrives.
			return { kind: 'throttled', retryAfterMs: retryAfterMs(header, this.clock.now()) };
		},
		giveUp: (job: number, waitedMs: number, askedMs: number): 'done' | 'stop' => {
			this.givenUp.push({ job, waitedMs, askedMs });
			return this.onGiveUp;
		},
	};

	onGiveUp: 'done' | 'stop' = 'done';

	startsAt(at: number): number {
		return this.arrivals.filter((arrival) => arrival.at === at).length;
	}
}

