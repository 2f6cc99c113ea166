/**
 * Where a handler's buckets live (limits shared across processes and hosts): Redis when
 * `--redis-url` is given, else the store a cluster worker was given (the primary's), else this
 * process's own. Also how `/readyz` names the choice. The stores themselves know nothing of it.
 */
import type { Limiter } from './limiter.js';
import type { LimiterStore, LimiterStoreState } from './limiter-store.js';
import { openRedisStore, type RedisFallback } from './redis-store.js';
import type { LogSink } from '../ops/logger.js';

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
 * The one place that decides where a handler's buckets live: Redis when `redisUrl` is given
 * (opened asynchronously; `opening` settles when it is open, and rejects when `@redis/client`
 * is missing), else the given store (a cluster worker's), else `local`.
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
