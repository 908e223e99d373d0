/**
 * A service answer is read only up to 1 MiB (1,048,576 bytes after decompression) and only for
 * as long as the Timeout option allows, on the one transport path (n8n's request helper over
 * https). Each hostile body below would be a valid `success` answer if read to the end, so only
 * the bound can make it fail:
 * - 64 MiB streamed without a length;
 * - a gzip bomb: ~300 KB on the wire inflating to ~300 MB (content-encoding: gzip);
 * - a trickle: headers at once, then one byte every 200 ms, far longer than the timeout.
 * Nothing of an oversized body lands in the output, the process's RSS stays bounded (peak growth
 * printed and recorded), and the service sees exactly one request.
 */
import {
	errorText,
	expectNoKey,
	expectNotReportedSent,
	SPECIAL_KEY,
	smsParameters,
	withPeakRss,
	useHostileService,
} from '../../../helpers/boundary';
import type { UsedService } from '../../../helpers/boundary';
import { runNode } from '../../../helpers/engine';
import type { RunNodeResult } from '../../../helpers/engine';
import { gzipBomb, streamedAnswer, trickledAnswer } from '../../../helpers/hostileService';
import { recordFigures } from '../../../helpers/reliabilityFigures';

/** Generous: the bodies are 64 MiB and ~300 MB, the bound is 1 MiB. */
const MAX_RSS_GROWTH_MB = 150;
const TIMEOUT_MS = 1000;
const TRICKLE_EVERY_MS = 200;
const TRICKLED_BODY = '{"message":"success","data":{"id":"slow","marker":"TRICKLE-MARKER"}}';

const https = useHostileService();
/** How the recorded figures and the printed RSS lines name the transport. */
const TRANSPORT = 'https (n8n request helper)';

const figures: Record<string, number> = {};

beforeAll(async () => {
	// Built before any measurement, so building it is not counted.
	await gzipBomb();
}, 20000);

afterAll(() => {
	recordFigures('service-boundary', { peakRssGrowthMb: figures, maxRssGrowthMb: MAX_RSS_GROWTH_MB });
});

async function send(service: UsedService, continueOnFail: boolean, timeout = 20000): Promise<RunNodeResult> {
	return await runNode({
		parameters: smsParameters({ timeout }),
		credentials: { apiKey: SPECIAL_KEY, baseUrl: service.url },
		continueOnFail,
	});
}

function expectTooLarge(result: RunNodeResult, service: UsedService, marker: string, continueOnFail: boolean): void {
	const { message, description } = errorText(result);
	expect({ outputItems: result.output?.length ?? 0, requests: service.requests.length, message }).toEqual({
		outputItems: continueOnFail ? 1 : 0,
		requests: 1,
		message: expect.stringMatching(/exceed/i),
	});
	expect(message).toMatch(/1 MiB/);
	expectNotReportedSent(result, continueOnFail);
	expect(JSON.stringify([result.output, result.error, message, description])).not.toContain(marker);
	expectNoKey(result, SPECIAL_KEY);
}

test.each([false, true])('a 64 MiB answer is refused past 1 MiB, RSS bounded (continue on fail: %s)', async (continueOnFail) => {
	const marker = `BIG-BODY-MARKER-${continueOnFail}`;
	https.answer = () => streamedAnswer(`{"message":"success","data":{"id":"big","marker":"${marker}"}`, 64 * 1024 * 1024, '}');
	const { result, peakGrowthMb, afterGrowthMb } = await withPeakRss(async () => await send(https, continueOnFail));
	figures[`64 MiB body, ${TRANSPORT}, continue on fail ${continueOnFail}`] = peakGrowthMb;
	console.log(`[service boundary] 64 MiB answer over ${TRANSPORT}: peak RSS growth ${peakGrowthMb} MB (after: ${afterGrowthMb} MB)`);

	expectTooLarge(result, https, marker, continueOnFail);
	expect(peakGrowthMb).toBeLessThan(MAX_RSS_GROWTH_MB);
});

test('a gzip bomb (~300 KB inflating to ~300 MB) is refused past 1 MiB inflated, RSS bounded', async () => {
	const { gzip, inflated } = await gzipBomb();
	https.answer = () => ({
		status: 200,
		headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
		body: gzip,
	});
	const { result, peakGrowthMb, afterGrowthMb } = await withPeakRss(async () => await send(https, false));
	figures[`gzip bomb, ${TRANSPORT}`] = peakGrowthMb;
	console.log(
		`[service boundary] gzip bomb (${Math.round(gzip.length / 1024)} KB → ${Math.round(inflated / 1024 / 1024)} MB) over ${TRANSPORT}: peak RSS growth ${peakGrowthMb} MB (after: ${afterGrowthMb} MB)`,
	);

	expectTooLarge(result, https, 'BOMB-BODY-MARKER', false);
	expect(peakGrowthMb).toBeLessThan(MAX_RSS_GROWTH_MB);
});

test(`a trickled answer (a byte every ${TRICKLE_EVERY_MS} ms) fails as a timeout, long before the trickle ends`, async () => {
	const trickle = trickledAnswer(TRICKLED_BODY, TRICKLE_EVERY_MS);
	https.answer = () => trickle;
	const result = await send(https, true, TIMEOUT_MS);

	expectNotReportedSent(result, true);
	const { message } = errorText(result);
	expect(message).toMatch(new RegExp(`did not answer within ${TIMEOUT_MS} ms`));
	// The whole body would have been a success. The client left before half of it had come out
	// (about five of its bytes fit in the timeout): counted in the trickle's own ticks, so a busy
	// machine that slows both sides alike changes nothing.
	expect(await trickle.closed).toBeLessThan(TRICKLED_BODY.length / 2);
	expect(https.requests).toHaveLength(1);
	expect(JSON.stringify(result.output)).not.toContain('TRICKLE-MARKER');
	expectNoKey(result, SPECIAL_KEY);
});
