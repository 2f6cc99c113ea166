/**
 * Token buckets held by the cluster primary and asked for by its workers over the cluster's IPC
 * channel (decisions §11, `serve --workers N` without Redis). The primary's one {@link Limiter}
 * decides every request of every worker, one message at a time, so the limits stay exact
 * whatever the number of workers: the same guarantee as one process, at the cost of a message
 * each way per request.
 */
import type { Worker } from 'node:cluster';
import { ApiError } from '../errors.js';
import { findPlan, type Plan } from '../plans.js';
import type { Limiter, LimitDecision } from './limiter.js';
import type { LimiterStore, LimiterStoreState } from './limiter-store.js';

/** A worker's question: take (or peek) for a key under a plan. */
interface LimitsRequest {
  readonly eqf: 'limits';
  readonly id: number;
  readonly keyId: string;
  readonly planId: string;
  readonly take: boolean;
}

/** The primary's answer to {@link LimitsRequest} `id`: the decision, or none when it could not decide. */
interface LimitsReply {
  readonly eqf: 'limits';
  readonly id: number;
  readonly decision: LimitDecision | null;
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
    return this.#ask(keyId, plan, true);
  }

  peek(keyId: string, plan: Plan): Promise<LimitDecision> {
    return this.#ask(keyId, plan, false);
  }

  state(): LimiterStoreState {
    return STATE;
  }

  close(): Promise<void> {
    this.#channel.off('message', this.#onMessage);
    return Promise.resolve();
  }

  #ask(keyId: string, plan: Plan, take: boolean): Promise<LimitDecision> {
    if (this.#channel.connected === false) return Promise.reject(UNAVAILABLE);
    const id = this.#nextId++;
    const request: LimitsRequest = { eqf: 'limits', id, keyId, planId: plan.id, take };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#channel.send!(request);
    });
  }

  readonly #onMessage = (message: unknown): void => {
    const reply = message as Partial<LimitsReply> | null;
    if (reply?.eqf !== 'limits' || typeof reply.id !== 'number') return;
    const waiting = this.#pending.get(reply.id);
    if (waiting === undefined) return;
    this.#pending.delete(reply.id);
    if (reply.decision) waiting.resolve(reply.decision);
    else waiting.reject(UNAVAILABLE);
  };
}

/**
 * The primary's side: answers a worker's questions from the primary's limiter.
 *
 * @param limiter - the primary's buckets (one for all workers).
 * @param worker - a forked worker; call once per worker.
 */
export function answerLimits(limiter: Limiter, worker: Worker): void {
  worker.on('message', (message: unknown) => {
    const request = message as Partial<LimitsRequest> | null;
    if (request?.eqf !== 'limits' || typeof request.id !== 'number' || typeof request.keyId !== 'string') return;
    // Workers ask only for API plans (the plan check comes first); an unknown id would be a
    // primary and workers of different versions: answered, so that no request waits forever.
    const plan = findPlan(String(request.planId));
    const decision = plan === undefined ? null : request.take ? limiter.take(request.keyId, plan) : limiter.peek(request.keyId, plan);
    const reply: LimitsReply = { eqf: 'limits', id: request.id, decision };
    if (worker.isConnected()) worker.send(reply);
  });
}
