/**
 * The one contract of every place a key's token buckets can live: this process's memory
 * (`limiter.ts`), the cluster primary (`ipc-store.ts`) or Redis (`redis-store.ts`). The request
 * pipeline holds a {@link LimiterStore} and never knows which; `open-limits.ts` chooses.
 *
 * This file holds the interface and its types alone: the stores import it, it imports no store.
 *
 * The rule every store keeps (the plan table's limits, per key): each key has two token buckets.
 * The minute bucket holds at most the plan's per-minute limit and refills continuously at
 * limit/60 tokens per second; the day bucket holds at most the per-day limit and refills at
 * limit/86400 per second. A key never seen before has both buckets full. A request passes when
 * both buckets hold a whole token and takes one from each; a refused request (429) takes none.
 * A look ({@link LimiterStore.peek}, the meta row) takes none either. The suite
 * `test/guard/limiter-store-contract.ts` runs every store through the same cases.
 */
import type { Plan } from '../plans.js';
import type { BucketFigures } from './token-bucket.js';

/**
 * A decision now or later. The in-process store answers synchronously, so the pipeline stays
 * synchronous on its tuned path (no promise, closure or allocation per request); the stores that
 * ask another process answer with a promise, and the pipeline continues where it left off.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * One bucket as a client sees it: the figures of the `X-RateLimit-*` and `RateLimit` fields and of
 * the meta row's `usage` (`limit` and `remaining` in requests, the others in whole seconds).
 */
export type BucketView = BucketFigures;

/** A store's answer for one request ({@link LimiterStore.take}) or one look ({@link LimiterStore.peek}). */
export interface LimitDecision {
  /** Whether both buckets held a whole token (for a look: whether a request would pass now). */
  allowed: boolean;
  /**
   * Set when `!allowed`: `rate_limited_day` when the day bucket holds no whole token (also when
   * neither bucket does: the longer wait is the one to report), else `rate_limited_minute`.
   */
  code?: 'rate_limited_minute' | 'rate_limited_day';
  /**
   * Set when `!allowed`: whole seconds, rounded up and at least 1, until the empty bucket (the
   * day one when both are) holds one token; the `Retry-After` value (RFC 9110 §10.2.3
   * delay-seconds).
   */
  retryAfterSeconds?: number;
  /** The minute bucket after this request (before it when refused or only looked at). */
  minute: BucketView;
  /** The day bucket after this request (before it when refused or only looked at). */
  day: BucketView;
}

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
 * Per-key minute and day token buckets, wherever they live (the rule in this module's comment).
 *
 * A store may reject a call with an `ApiError` (`service_busy`, `Retry-After: 1`) when it cannot
 * decide and its policy says so (`--redis-fallback closed` while Redis is away, or a cluster
 * primary that is gone); it never rejects with anything else, so the pipeline never answers 500
 * for a store.
 */
export interface LimiterStore {
  /**
   * Takes one token from both of a key's buckets when both hold one; a refused request takes
   * none (a 429 consumes no token).
   *
   * @param keyId - id of a known key (looked up before the limiter is asked); buckets of keys
   *   that are unknown never exist.
   * @param plan - the key's current plan; its `perMinute` and `perDay` are the capacities. When
   *   a key's plan changes, its tokens are kept (never reset) and clamped to the new capacities.
   * @returns the decision, with the buckets as they are after this request.
   */
  take(keyId: string, plan: Plan): MaybePromise<LimitDecision>;
  /**
   * Reports a key's buckets without taking a token (GET /api/v1/meta reports usage without
   * spending it). A look writes nothing: a key only looked at gets no buckets.
   *
   * @param keyId - id of a known key.
   * @param plan - the key's current plan.
   * @returns what {@link take} would decide now, without its token.
   */
  peek(keyId: string, plan: Plan): MaybePromise<LimitDecision>;
  /** Where the buckets are now (read per `/readyz` and per metrics scrape, never per request). */
  state(): LimiterStoreState;
  /** Releases timers and connections; the store may not be used afterwards. */
  close(): Promise<void>;
}
