/**
 * What one sandbox holds between requests: its settings from the options, what tests and the
 * control endpoints change (started chats, latency, faults, the rate limit, the answer plan), the
 * request record, and reset() back to the options.
 */
import type { AnswerPlan } from './answerLinks';
import { checkAnswerPlan } from './answerLinks';
import { AnswerTasks } from './answerTasks';
import { Arrivals } from './arrivals';
import type { ControlState } from './control';
import { FaultQueue } from './faults';
import { isE164 } from './fieldChecks';
import type { RateLimit } from './rateLimit';
import { RateLimitGate, checkRateLimit } from './rateLimit';
import { requestStats } from './requestLog';
import type { ServiceState } from './service';
import type { RecordedRequest, SandboxOptions, SandboxStats } from './types';

export const DEFAULT_API_KEY = 'sandbox-api-key';

/** The options, checked, with their defaults filled in. */
interface Settings {
	apiKey: string;
	latencyMs: number;
	startedChats: readonly string[];
	rateLimit: RateLimit | undefined;
	answerPlan: AnswerPlan | undefined;
	now: () => number;
}

export function checkLatency(ms: unknown): string | null {
	if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return 'ms: must be a number >= 0';
	return null;
}

/** Throws on a malformed option, naming it. */
function settingsFrom(options: SandboxOptions): Settings {
	const latencyMs = options.latencyMs ?? 0;
	const latencyError = checkLatency(latencyMs);
	if (latencyError) throw new Error(`latencyMs: ${latencyError}`);
	const startedChats = options.startedChats ?? [];
	for (const phone of startedChats) {
		if (!isE164(phone)) throw new Error(`startedChats: "${phone}" is not an E.164 phone number`);
	}
	const rateLimit = options.rateLimit === undefined ? undefined : { ...options.rateLimit };
	const rateLimitError = rateLimit === undefined ? null : checkRateLimit(rateLimit);
	if (rateLimitError) throw new Error(rateLimitError);
	const answerPlan = options.answerLinks === undefined ? undefined : structuredClone(options.answerLinks);
	const planError = answerPlan === undefined ? null : checkAnswerPlan(answerPlan);
	if (planError) throw new Error(planError);
	return {
		apiKey: options.apiKey ?? DEFAULT_API_KEY,
		latencyMs,
		startedChats,
		rateLimit,
		answerPlan,
		// Arrival times in whole milliseconds on a clock that only moves forward, as the node's pacing reads time.
		now: options.now ?? (() => Math.floor(performance.timeOrigin + performance.now())),
	};
}

export class SandboxState implements ControlState, ServiceState {
	readonly apiKey: string;
	/** The clock arrival times and the rate limit read, in ms since the epoch. */
	readonly now: () => number;
	/** Every API request since the last reset; the same array for the sandbox's life. */
	readonly requests: RecordedRequest[] = [];
	readonly faults = new FaultQueue();
	readonly rateLimit = new RateLimitGate();
	readonly arrivals = new Arrivals();
	readonly answerTasks: AnswerTasks;
	/** The timers that hold answers back by the latency; stop() clears them. */
	readonly timers = new Set<NodeJS.Timeout>();
	startedChats: Set<string>;
	latencyMs: number;
	private readonly settings: Settings;
	// Never reset, so SMS request ids stay unique for the life of the sandbox.
	private smsRequestId = 0;

	/** Throws on a malformed option. */
	constructor(options: SandboxOptions) {
		this.settings = settingsFrom(options);
		this.apiKey = this.settings.apiKey;
		this.now = this.settings.now;
		this.startedChats = new Set(this.settings.startedChats);
		this.latencyMs = this.settings.latencyMs;
		this.rateLimit.set(this.settings.rateLimit);
		this.answerTasks = new AnswerTasks(this.settings.answerPlan);
	}

	nextSmsRequestId(): number {
		this.smsRequestId++;
		return this.smsRequestId;
	}

	startChat(phoneNumber: string): void {
		if (!isE164(phoneNumber)) throw new Error(`startChat: "${phoneNumber}" is not an E.164 phone number`);
		this.startedChats.add(phoneNumber);
	}

	setLatency(ms: number): void {
		const error = checkLatency(ms);
		if (error) throw new Error(`setLatency: ${error}`);
		this.latencyMs = ms;
	}

	stats(): SandboxStats {
		return requestStats(this.requests, this.faults.pending(), this.arrivals.maxInFlight());
	}

	/** Forgets requests, faults, counters, the gate and answers; the settings go back to the options. */
	reset(): void {
		this.requests.length = 0;
		this.faults.clear();
		this.startedChats = new Set(this.settings.startedChats);
		this.latencyMs = this.settings.latencyMs;
		this.rateLimit.restart(this.settings.rateLimit);
		// After the latency: answers the gate held go out with the options' latency.
		this.arrivals.reset();
		this.answerTasks.reset();
	}

	/** Answers nothing more; resolves once every answer to a link under way has settled. */
	stop(): Promise<void> {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.arrivals.stop();
		return this.answerTasks.stop();
	}
}
