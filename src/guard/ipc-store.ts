/**
 * Token buckets held by the cluster primary (or the main thread) and asked for by its workers over
 * the cluster's IPC channel (or a thread's message port) (docs/api.md §11, `serve --workers N`
 * without Redis). The primary's one {@link Limiter}
 * decides every request of every worker, in the order the questions arrive, so the limits stay
 * exact whatever the number of workers: the same guarantee as one process. A worker sends the
 * questions of one turn of its event loop (every request its poll phase read) as one message,
 * and the primary answers them in one message: two IPC writes per batch, not per request.
 */
import { ApiError } from '../errors.js';
import { findPlan, type Plan } from '../plans.js';
import type { Limiter } from './limiter.js';
import type { LimitDecision, LimiterStore, LimiterStoreState } from './limiter-store.js';

/** One question: [id, key id, plan id, take (1) or peek (0)]. */
type Question = [id: number, keyId: string, planId: string, take: 0 | 1];

/** One answer: [id, the decision, or null when the primary could not decide]. */
type Answer = [id: number, decision: LimitDecision | null];

/** A worker's questions, or the primary's answers, of one batch. */
interface LimitsMessage {
  readonly eqf: 'limits';
  readonly questions?: Question[];
  readonly answers?: Answer[];
}

/** The answer while the primary cannot be asked (it is gone): 503, retry in a second. */
const UNAVAILABLE = new ApiError('service_busy', 'Rate limits cannot be checked right now; retry shortly.', 1);

const STATE: LimiterStoreState = Object.freeze({ store: 'primary', mode: 'shared' });

/** The minimal IPC channel of a cluster worker (`process`). */
export interface IpcChannel {
  send?: (message: unknown) => boolean;
  readonly connected?: boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

/** A worker's store: every take and peek is asked of the primary. */
export class IpcStore implements LimiterStore {
  readonly #channel: IpcChannel;
  readonly #pending = new Map<number, { resolve: (decision: LimitDecision) => void; reject: (error: Error) => void }>();
  #nextId = 0;
  /** Questions of this turn of the event loop, sent together by {@link #flush}. */
  #questions: Question[] = [];

  /**
   * @param channel - the worker's IPC channel. @default process
   * @throws TypeError when the process has no IPC channel (it is not a cluster worker).
   */
  constructor(channel: IpcChannel = process) {
    if (typeof channel.send !== 'function') throw new TypeError('IpcStore needs an IPC channel: run it in a cluster worker');
    this.#channel = channel;
    channel.on('message', this.#onMessage);
    channel.on('disconnect', () => {
      for (const { reject } of this.#pending.values()) reject(UNAVAILABLE);
      this.#pending.clear();
    });
  }

  take(keyId: string, plan: Plan): Promise<LimitDecision> {
    return this.#ask(keyId, plan, 1);
  }

  peek(keyId: string, plan: Plan): Promise<LimitDecision> {
    return this.#ask(keyId, plan, 0);
  }

  state(): LimiterStoreState {
    return STATE;
  }

  close(): Promise<void> {
    this.#channel.off('message', this.#onMessage);
    return Promise.resolve();
  }

  #ask(keyId: string, plan: Plan, take: 0 | 1): Promise<LimitDecision> {
    if (this.#channel.connected === false) return Promise.reject(UNAVAILABLE);
    const id = this.#nextId++;
    // setImmediate runs after the poll phase, so the batch holds every request it read.
    if (this.#questions.length === 0) setImmediate(this.#flush);
    this.#questions.push([id, keyId, plan.id, take]);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
    });
  }

  readonly #flush = (): void => {
    const questions = this.#questions;
    this.#questions = [];
    if (this.#channel.connected === false) {
      for (const [id] of questions) this.#settle(id, null);
      return;
    }
    this.#channel.send!({ eqf: 'limits', questions } satisfies LimitsMessage);
  };

  readonly #onMessage = (message: unknown): void => {
    const answers = (message as Partial<LimitsMessage> | null)?.eqf === 'limits' ? (message as LimitsMessage).answers : undefined;
    if (!Array.isArray(answers)) return;
    for (const [id, decision] of answers) this.#settle(id, decision);
  };

  #settle(id: number, decision: LimitDecision | null): void {
    const waiting = this.#pending.get(id);
    if (waiting === undefined) return;
    this.#pending.delete(id);
    if (decision) waiting.resolve(decision);
    else waiting.reject(UNAVAILABLE);
  }
}

/** The primary's end of one worker's channel: a cluster worker, or a worker thread's adapter. */
export interface AskingWorker {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  isConnected(): boolean;
  send(message: unknown): unknown;
}

/**
 * The primary's side: answers a worker's questions from the primary's limiter, in order.
 *
 * @param limiter - the primary's buckets (one for all workers).
 * @param worker - a forked worker (or a thread's adapter); call once per worker.
 */
export function answerLimits(limiter: Limiter, worker: AskingWorker): void {
  worker.on('message', (message: unknown) => {
    const questions = (message as Partial<LimitsMessage> | null)?.eqf === 'limits' ? (message as LimitsMessage).questions : undefined;
    if (!Array.isArray(questions)) return;
    const answers: Answer[] = [];
    for (const [id, keyId, planId, take] of questions) {
      // Workers ask only for API plans (the plan check comes first); an unknown id would be a
      // primary and workers of different versions: answered, so that no request waits forever.
      const plan = findPlan(String(planId));
      answers.push([id, plan === undefined ? null : take === 1 ? limiter.take(String(keyId), plan) : limiter.peek(String(keyId), plan)]);
    }
    if (worker.isConnected()) worker.send({ eqf: 'limits', answers } satisfies LimitsMessage);
  });
}
