/**
 * The sandbox's rate limit: what a rate-limited service in front of the API does, in the three
 * shapes real providers use. It decides per arriving request, from arrival times only; it knows
 * nothing of the client. Kept apart from the node's own pacing on purpose: the two must not
 * share code or assumptions.
 *
 * - `fixedWindow` (default): each clock second (windows start on whole seconds) admits the first
 *   `perSecond` requests that arrive in it.
 * - `tokenBucket`: a bucket of `burst` tokens (default perSecond ÷ 10, at least 1), full at the
 *   start, refilled at `perSecond` tokens a second; a request takes one token.
 * - `slidingWindow`: a request is admitted when fewer than `perSecond` were admitted in the 1,000 ms
 *   before it.
 *
 * Only admitted requests count. A refused one is answered HTTP 429 and is not delivered.
 *
 * With `spentAtStart`, the limit is already used up when the first request arrives, as when
 * another client of the same key spent it: that request is refused whatever the client's speed.
 * A test that needs refusals uses it, since a slow enough client never reaches any rate.
 */
import type { Outcome } from './http';
import { isJsonObject } from './fieldChecks';

export type RetryAfterStyle = 'seconds' | 'date' | 'none';
export type LimiterShape = 'fixedWindow' | 'tokenBucket' | 'slidingWindow';

export interface RateLimit {
	perSecond: number;
	/** Default `fixedWindow`. */
	shape?: LimiterShape;
	/** `tokenBucket` only: the bucket's size; default perSecond ÷ 10 (at least 1). */
	burst?: number;
	/**
	 * What a 429 says about when to come back: `seconds` (default) — `Retry-After` in whole seconds
	 * until a request would be admitted (at least 1); `date` — that moment as an HTTP date (rounded
	 * up to the second, its resolution); `none` — no `Retry-After` header.
	 */
	retryAfter?: RetryAfterStyle;
	/** The limit is used up when the first request arrives (its window full, its bucket empty). */
	spentAtStart?: boolean;
}

export const RETRY_AFTER_STYLES: readonly RetryAfterStyle[] = ['seconds', 'date', 'none'];
export const LIMITER_SHAPES: readonly LimiterShape[] = ['fixedWindow', 'tokenBucket', 'slidingWindow'];
const KEYS = ['perSecond', 'shape', 'burst', 'retryAfter', 'spentAtStart'];

/** Returns the problem with a rate limit description, or null. */
export function checkRateLimit(value: unknown): string | null {
	if (!isJsonObject(value)) return 'rateLimit: must be an object';
	for (const key of Object.keys(value)) {
		if (!KEYS.includes(key)) return `rateLimit.${key}: unknown field (allowed here: ${KEYS.join(', ')})`;
	}
	if (!Number.isInteger(value.perSecond) || (value.perSecond as number) < 1) {
		return 'rateLimit.perSecond: must be a positive integer';
	}
	if (value.shape !== undefined && !LIMITER_SHAPES.includes(value.shape as LimiterShape)) {
		return `rateLimit.shape: must be one of ${LIMITER_SHAPES.join(', ')}`;
	}
	if (value.burst !== undefined) {
		if (value.shape !== 'tokenBucket') return 'rateLimit.burst: only for shape tokenBucket';
		if (!Number.isInteger(value.burst) || (value.burst as number) < 1) return 'rateLimit.burst: must be a positive integer';
	}
	if (value.retryAfter !== undefined && !RETRY_AFTER_STYLES.includes(value.retryAfter as RetryAfterStyle)) {
		return `rateLimit.retryAfter: must be one of ${RETRY_AFTER_STYLES.join(', ')}`;
	}
	if (value.spentAtStart !== undefined && typeof value.spentAtStart !== 'boolean') {
		return 'rateLimit.spentAtStart: must be a boolean';
	}
	return null;
}

/**
 * Admits or refuses requests by their arrival time (ms since the epoch), under the limit it is
 * given each time: a changed `perSecond` takes effect at once, on the state so far.
 */
export interface Limiter {
	readonly shape: LimiterShape;
	/** undefined: admitted (and counted); else the ms until a request would be admitted. */
	admit(now: number, limit: RateLimit): number | undefined;
}

export function createLimiter(shape: LimiterShape = 'fixedWindow'): Limiter {
	switch (shape) {
		case 'fixedWindow':
			return fixedWindow();
		case 'tokenBucket':
			return tokenBucket();
		case 'slidingWindow':
			return slidingWindow();
	}
}

function fixedWindow(): Limiter {
	let windowStart = -Infinity;
	let admitted = 0;
	return {
		shape: 'fixedWindow',
		admit(now, { perSecond, spentAtStart }) {
			const window = Math.floor(now / 1000) * 1000;
			if (window !== windowStart) {
				admitted = windowStart === -Infinity && spentAtStart === true ? perSecond : 0;
				windowStart = window;
			}
			if (admitted < perSecond) {
				admitted++;
				return undefined;
			}
			return window + 1000 - now;
		},
	};
}

function tokenBucket(): Limiter {
	let tokens = Infinity;
	let last = -Infinity;
	return {
		shape: 'tokenBucket',
		admit(now, { perSecond, burst, spentAtStart }) {
			const size = burst ?? Math.max(1, Math.floor(perSecond / 10));
			const full = spentAtStart === true ? 0 : size;
			tokens = last === -Infinity ? full : Math.min(size, tokens + ((now - last) * perSecond) / 1000);
			last = now;
			if (tokens >= 1) {
				tokens--;
				return undefined;
			}
			return Math.ceil(((1 - tokens) * 1000) / perSecond);
		},
	};
}

function slidingWindow(): Limiter {
	// Arrival times of the admitted requests of the last second, oldest first.
	const admitted: number[] = [];
	let first = true;
	return {
		shape: 'slidingWindow',
		admit(now, { perSecond, spentAtStart }) {
			if (first && spentAtStart === true) admitted.push(...Array.from({ length: perSecond }, () => now));
			first = false;
			while (admitted.length > 0 && admitted[0] <= now - 1000) admitted.shift();
			if (admitted.length < perSecond) {
				admitted.push(now);
				return undefined;
			}
			return admitted[0] + 1000 - now;
		},
	};
}

/** The Retry-After header for a refusal `waitMs` before a request would be admitted, if the style sends one. */
export function retryAfterHeader(style: RetryAfterStyle, now: number, waitMs: number): string | undefined {
	if (style === 'seconds') return String(Math.max(1, Math.ceil(waitMs / 1000)));
	if (style === 'date') return new Date(Math.ceil((now + waitMs) / 1000) * 1000).toUTCString();
	return undefined;
}

/** The rate limit in force and its limiter: what answers a request beyond it with HTTP 429. */
export class RateLimitGate {
	private limit: RateLimit | undefined;
	private limiter: Limiter | undefined;

	current(): RateLimit | undefined {
		return this.limit;
	}

	/** Sets, changes (in the current window) or, with undefined, removes the limit; throws on a malformed one. */
	set(limit: RateLimit | undefined): void {
		if (limit !== undefined) {
			const error = checkRateLimit(limit);
			if (error) throw new Error(`setRateLimit: ${error}`);
		}
		this.limit = limit === undefined ? undefined : { ...limit };
		// A new shape starts afresh; the same shape keeps counting, so a change takes effect in the current window.
		if (this.limit === undefined) this.limiter = undefined;
		else if (this.limiter?.shape !== (this.limit.shape ?? 'fixedWindow')) this.limiter = createLimiter(this.limit.shape);
	}

	/** Sets `limit` with a limiter that has counted nothing yet. */
	restart(limit: RateLimit | undefined): void {
		this.limiter = undefined;
		this.set(limit);
	}

	/** The 429 for a request arriving at `now` beyond the limit, or undefined when it is admitted (and counted). */
	refusal(now: number): Outcome | undefined {
		if (this.limit === undefined || this.limiter === undefined) return undefined;
		const waitMs = this.limiter.admit(now, this.limit);
		if (waitMs === undefined) return undefined;
		const retryAfter = retryAfterHeader(this.limit.retryAfter ?? 'seconds', now, waitMs);
		return {
			kind: 'json',
			status: 429,
			body: { message: `Too many requests: at most ${this.limit.perSecond} per second` },
			headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
		};
	}
}
