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
