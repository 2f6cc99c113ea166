/**
 * The one contract of every place a key's token buckets can live (decisions §3, §11): this
 * process's memory ({@link Limiter}), the cluster primary (`ipc-store.ts`) or Redis
 * (`redis-store.ts`). The request pipeline holds a {@link LimiterStore} and never knows which.
 */
import type { Plan } from '../plans.js';
import type { Limiter, LimitDecision } from './limiter.js';
import { openRedisStore, type RedisFallback } from './redis-store.js';
import type { LogSink } from '../ops/logger.js';

/**
 * A decision now or later. The in-process store answers synchronously, so the pipeline stays
 * synchronous on its tuned path (no promise, closure or allocation per request); the stores that
 * ask another process answer with a promise, and the pipeline continues where it left off.
 */
export type MaybePromise<T> = T | Promise<T>;

/** Where a store's buckets are, as `/readyz` and the metrics show it. */
export interface LimiterStoreState {
  /** `local`: this process; `primary`: the cluster primary over IPC; `redis`: a shared Redis. */
  readonly store: 'local' | 'primary' | 'redis';
  /**
   * `shared` while the buckets answering are the store's own; `fallback_local` while Redis is
   * unreachable and this process answers from its own buckets; `unavailable` while Redis is
   * unreachable and the policy is `closed` (503). Always `shared` for `local` and `primary`.
   */
  readonly mode: 'shared' | 'fallback_local' | 'unavailable';
  /** Redis only: switches from Redis to the fallback so far. */
  readonly fallbacks?: number;
  /** Redis only: requests the fallback answered so far (from local buckets, or 503). */
  readonly fallbackAnswers?: number;
}

/**
 * Per-key minute and day token buckets, wherever they live (decisions §3 semantics for all).
 *
 * A store may reject a call with an `ApiError` (`service_busy`, `Retry-After: 1`) when it cannot
 * decide and its policy says so (decisions §11, `--redis-fallback closed`); it never rejects with
 * anything else, so the pipeline never answers 500 for a store.
 */
export interface LimiterStore {
  /**
   * Takes one token from both of a key's buckets when both hold one; a refused request takes
   * none (decisions §1: a 429 consumes no token).
   *
   * @param keyId - id of a known key (looked up before the limiter is asked).
   * @param plan - the key's current plan; its `perMinute` and `perDay` are the capacities.
   */
  take(keyId: string, plan: Plan): MaybePromise<LimitDecision>;
  /**
   * Reports a key's buckets without taking a token (GET /api/v1/meta, decisions §3).
   *
   * @param keyId - id of a known key.
   * @param plan - the key's current plan.
   */
  peek(keyId: string, plan: Plan): MaybePromise<LimitDecision>;
  /** Where the buckets are now (read per `/readyz` and per metrics scrape, never per request). */
  state(): LimiterStoreState;
  /** Releases timers and connections; the store may not be used afterwards. */
  close(): Promise<void>;
}

/**
 * A store that is still being opened (a Redis client is loaded and connected asynchronously):
 * calls wait for it, then go to it. Requests that arrive before it is open are the only ones
 * that pay for the wait.
 *
 * @param opening - resolves with the store; when it rejects, calls reject with its error
 *   (the handler's `ready` rejects with it too, so a server never listens with such a store).
 * @param placeholder - the state to report until it is open.
 */
export function openingStore(opening: Promise<LimiterStore>, placeholder: LimiterStoreState): LimiterStore {
  let opened: LimiterStore | undefined;
  void opening.then((store) => { opened = store; }, () => {});
  return {
    take: (keyId, plan) => opened ? opened.take(keyId, plan) : opening.then((store) => store.take(keyId, plan)),
    peek: (keyId, plan) => opened ? opened.peek(keyId, plan) : opening.then((store) => store.peek(keyId, plan)),
    state: () => opened?.state() ?? placeholder,
    close: () => opening.then((store) => store.close(), () => {}),
  };
}

/** The options that decide where buckets live (see `HandlerOptions`). */
export interface LimitsOptions {
  readonly redisUrl: string | undefined;
  readonly redisTimeoutMs: number;
  readonly redisFallback: RedisFallback;
  readonly redisFallbackShare: number;
  readonly limiterStore: LimiterStore | undefined;
}

/**
 * The one place that decides where a handler's buckets live (decisions §11): Redis when
 * `redisUrl` is given (opened asynchronously; `opening` settles when it is open, and rejects
 * when `@redis/client` is missing), else the given store (a cluster worker's), else `local`.
 *
 * @param local - this process's own buckets (also Redis's `local` fallback).
 * @param log - receives the Redis store's switch lines.
 */
export function openLimits(options: LimitsOptions, local: Limiter, log: LogSink): { limits: LimiterStore; opening: Promise<unknown> | undefined } {
  if (options.redisUrl === undefined) return { limits: options.limiterStore ?? local, opening: undefined };
  const opening = openRedisStore({
    url: options.redisUrl, timeoutMs: options.redisTimeoutMs, fallback: options.redisFallback, fallbackShare: options.redisFallbackShare, local, log,
  });
  return { limits: openingStore(opening, { store: 'redis', mode: 'unavailable' }), opening };
}

/**
 * The `/readyz` detail of where the buckets are: `{"store":"redis","mode":"fallback_local"}`;
 * `mode` is `shared`, `fallback_local` (Redis away, this process's buckets answer) or
 * `unavailable` (Redis away, 503 under `--redis-fallback closed`).
 */
export function limitsDetail(state: LimiterStoreState): string {
  return JSON.stringify({ store: state.store, mode: state.mode });
}
