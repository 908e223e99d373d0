/**
 * The answers to Send-and-Wait links the sandbox has under way (answerLinks.ts plays each one):
 * started when a message carrying a link is delivered, recorded in the order they started, and
 * aborted by reset() and stop(), so none reaches an n8n after its test or run.
 */
import type { ServerResponse } from 'node:http';

import type { AnswerPlan, AnswerRecord } from './answerLinks';
import { answerForm, checkAnswerPlan, findAnswerLinkTo, inScope, playAnswer } from './answerLinks';
import type { RecordedRequest } from './types';
import { Waiters } from './waiters';

export class AnswerTasks {
	/** What was done with answer links since the last reset; the same array for the sandbox's life. */
	readonly records: AnswerRecord[] = [];
	private plan: AnswerPlan | undefined;
	/** Off: the plan is kept but nothing is answered (the phone page's switch). */
	private automatic = true;
	/** Each answer under way, by the controller that aborts it. */
	private readonly tasks = new Map<AbortController, Promise<void>>();
	private readonly idle = new Waiters(() => this.tasks.size);
	private stopped = false;

	/** `initialPlan` is already checked; reset() goes back to it. */
	constructor(private readonly initialPlan: AnswerPlan | undefined) {
		this.plan = initialPlan;
	}

	currentPlan(): AnswerPlan | undefined {
		return this.plan;
	}

	/** Sets or, with undefined, removes the plan; throws on a malformed one. */
	setPlan(plan: AnswerPlan | undefined): void {
		if (plan !== undefined) {
			const error = checkAnswerPlan(plan);
			if (error) throw new Error(`setAnswerPlan: ${error}`);
		}
		this.plan = plan === undefined ? undefined : structuredClone(plan);
	}

	/** Turns automatic answers on or off without changing the plan. */
	setAutomatic(on: boolean): void {
		this.automatic = on;
	}

	isAutomatic(): boolean {
		return this.automatic;
	}

	underWay(): number {
		return this.tasks.size;
	}

	/** Waits until no answer is under way, at most `deadlineMs`; resolves with how many still are. */
	settled(deadlineMs: number): Promise<number> {
		return this.idle.wait(deadlineMs);
	}

	/**
	 * Starts answering the link in a request just delivered, if the plan says so. Registered now,
	 * before the API answer is written, so a client that has its answer already finds it under way;
	 * it waits for `res` to be done before it touches the link.
	 */
	start(request: Pick<RecordedRequest, 'seq' | 'path' | 'body'>, res: ServerResponse): void {
		// A request still being read when stop() came must not start what stop() just aborted.
		if (this.plan === undefined || !this.automatic || this.stopped) return;
		const found = findAnswerLinkTo(request.path, request.body);
		// A link outside the plan's scope is the user's own question: theirs to answer.
		if (found === undefined || !inScope(this.plan.only, found)) return;
		const record: AnswerRecord = { requestSeq: request.seq, link: found.link, form: answerForm(this.plan.answer), done: false };
		this.records.push(record);
		const answered = new Promise<void>((resolve) => {
			res.once('finish', resolve);
			res.once('close', resolve);
		});
		const controller = new AbortController();
		const task = playAnswer(record, this.plan, answered, controller.signal).then(() => {
			this.tasks.delete(controller);
			this.idle.wake();
		});
		this.tasks.set(controller, task);
	}

	/** Aborts every answer under way, forgets the records and goes back to the first plan, turned on. */
	reset(): void {
		// An answer still under way belongs to the test or run before; it must not reach the next one's n8n.
		this.abort('the sandbox was reset');
		this.records.length = 0;
		this.automatic = true;
		this.plan = this.initialPlan === undefined ? undefined : structuredClone(this.initialPlan);
	}

	/** Aborts every answer under way and starts no other; resolves once they have all settled. */
	stop(): Promise<void> {
		this.stopped = true;
		this.abort('the sandbox stopped');
		return Promise.all(this.tasks.values()).then(() => undefined);
	}

	private abort(reason: string): void {
		for (const controller of this.tasks.keys()) controller.abort(new Error(reason));
	}
}
