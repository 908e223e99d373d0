/** Longest wait a 429 may ask for; a longer one fails at once instead of stalling the run. */
export const MAX_RATE_LIMIT_WAIT_MS = 60000;
const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 30000;

/**
 * Milliseconds to wait before retry number `attempt` (0-based) after a 429: the service's
 * Retry-After (seconds or an HTTP date) when given, else 1 s, 2 s, 4 s … capped at 30 s.
 */
export function rateLimitWait(retryAfter: unknown, attempt: number, now = Date.now()): number {
	const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
	if (typeof header === 'string' && header.trim() !== '') {
		const text = header.trim();
		if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
		const date = Date.parse(text);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}
