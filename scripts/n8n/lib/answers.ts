/**
 * An answered Send and Wait's `data` as the checks read it: the answer itself, and whether its
 * `respondedAt` (set by the node when it recorded the answer, as n8n's own send-and-wait nodes
 * do) is an ISO time within the span the check gives (when the check started, and now).
 */
export function recordedAnswer(data: unknown, from: number, to = Date.now()): { answer: Record<string, unknown>; timed: boolean } {
	const { respondedAt, ...answer } = (data ?? {}) as Record<string, unknown>;
	const at = typeof respondedAt === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(respondedAt) ? Date.parse(respondedAt) : NaN;
	return { answer, timed: at >= from && at <= to };
}
