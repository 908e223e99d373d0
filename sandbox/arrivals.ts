/**
 * The bookkeeping of API requests as they arrive and are answered: their number since the last
 * reset, how many are open (since the last reset and in all), the answer gate that holds answers
 * back until enough are open, and the actions a test ties to the n-th request let through.
 */
import type { ServerResponse } from 'node:http';

import type { AnswerGate } from './types';
import { Waiters } from './waiters';

export class Arrivals {
	private seq = 0;
	/** Bumped by reset(): a request open across it is not counted against the next test. */
	private epoch = 0;
	/** Open requests that arrived in the current epoch, and the most at once. */
	private inFlight = 0;
	private mostInFlight = 0;
	/** Open requests, from before the last reset too. */
	private open = 0;
	private readonly idle = new Waiters(() => this.open);
	private gate: AnswerGate | undefined;
	private held: Array<() => void> = [];
	private admitted = 0;
	private admissionActions: Array<{ count: number; action: () => void }> = [];

	/** Counts a request as open until it is answered or given up; returns its number since the last reset. */
	arrive(res: ServerResponse): number {
		this.seq++;
		const arrivedIn = this.epoch;
		this.inFlight++;
		this.open++;
		this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
		// Open until answered ('finish') or given up ('close'): over https with `Connection: close`,
		// 'close' waits for the TLS teardown and would count a finished request into the next one.
		let settled = false;
		const settle = () => {
			if (settled) return;
			settled = true;
			this.open--;
			if (arrivedIn === this.epoch) this.inFlight--;
			this.idle.wake();
		};
		res.once('finish', settle);
		res.once('close', settle);
		return this.seq;
	}

	maxInFlight(): number {
		return this.mostInFlight;
	}

	openRequests(): number {
		return this.open;
	}

	/** Waits until no API request is open, at most `deadlineMs`; resolves with how many still are. */
	whenIdle(deadlineMs: number): Promise<number> {
		return this.idle.wait(deadlineMs);
	}

	/** Holds answers back until the gate's condition holds; `received` counts the requests since the last reset. */
	hold(gate: AnswerGate, received: number): void {
		this.gate = { ...gate };
		this.checkGate(received);
	}

	/** Opens the gate for good once its condition holds, answering what it held. */
	checkGate(received: number): void {
		if (this.gate !== undefined && (this.inFlight >= this.gate.inFlight || received >= this.gate.received)) {
			this.gate = undefined;
			this.releaseHeld();
		}
	}

	/** Keeps `answer` until the gate opens and returns true; false when no gate holds answers. */
	holdBack(answer: () => void): boolean {
		if (this.gate === undefined) return false;
		this.held.push(answer);
		return true;
	}

	/** Counts a request let through (past any fault and the rate limit) and runs the actions now due. */
	admit(): void {
		this.admitted++;
		const due = this.admissionActions.filter(({ count }) => count <= this.admitted);
		this.admissionActions = this.admissionActions.filter(({ count }) => count > this.admitted);
		for (const { action } of due) action();
	}

	onAdmitted(count: number, action: () => void): void {
		if (count <= this.admitted) action();
		else this.admissionActions.push({ count, action });
	}

	/** Starts a new epoch: counts from zero, no gate (what it held is answered), no pending actions. */
	reset(): void {
		this.seq = 0;
		this.epoch++;
		this.inFlight = 0;
		this.mostInFlight = 0;
		this.gate = undefined;
		this.releaseHeld();
		this.admitted = 0;
		this.admissionActions = [];
	}

	/** Drops the gate and what it held without answering: stop() destroys those sockets. */
	stop(): void {
		this.gate = undefined;
		this.held = [];
	}

	private releaseHeld(): void {
		const held = this.held;
		this.held = [];
		for (const answer of held) answer();
	}
}
