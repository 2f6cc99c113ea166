/**
 * The per-key rate limiter (docs/api.md §3): two token buckets per key, minute and day, whose
 * capacities are the plan's `perMinute` and `perDay`. A request passes when both buckets
 * hold a whole token and then takes one from each; a refused request (429) takes none.
 */

import type { Plan } from '../plans.js';
import { limitDecision } from './limit-decision.js';
import type { LimitDecision, LimiterStore, LimiterStoreState } from './limiter-store.js';
import { BucketSlots, DAY_TOKENS, FULL_AT_MS, MINUTE_TOKENS, SLOT_FIELDS, UPDATED_AT_MS } from './bucket-slots.js';
import { DAY_WINDOW_MS, MINUTE_WINDOW_MS, msUntilFull, refill } from './token-bucket.js';

/** Options of {@link Limiter}; every field is optional. */
export interface LimiterOptions {
  /** Clock in ms since the epoch. @default Date.now */
  now?: () => number;
  /**
   * How often, in ms, buckets that have refilled to full are forgotten by the limiter's one
   * unref'd timer. 0 starts no timer ({@link Limiter.sweep} can still be called).
   * @default 60_000
   */
  sweepIntervalMs?: number;
}

/** Defaults of {@link LimiterOptions}. */
const DEFAULTS = Object.freeze({
  /** ms clock. */
  now: Date.now,
  /** One minute, in ms: an idle key's minute bucket is full again within this. */
  sweepIntervalMs: 60_000,
});

/**
 * Per-key minute and day token buckets with lazy refill (docs/api.md §3; refill after
 * @fastify/rate-limit's LocalStore, without a timer per key).
 *
 * State exists only for keys that took a token, so keys that are unknown, refused before the
 * limiter, or only peeked allocate nothing; buckets that have refilled to full are forgotten by
 * {@link Limiter.sweep}, so memory follows the keys active in the last day, not all keys ever
 * seen. A key without state is a key with both buckets full.
 *
 * When a key's plan changes (keys file reload) its next {@link take} or {@link peek} refills at
 * the new plan's rate and clamps its tokens to the new capacity; tokens are never reset. The
 * sweep decides "full" with the plan of the key's last request, so after an upgrade a key may be
 * forgotten (and so get the new capacity) at most one old refill-window early.
 */
export class Limiter implements LimiterStore {
  readonly #now: () => number;
  readonly #slots = new BucketSlots();
  readonly #timer: NodeJS.Timeout | undefined;

  /**
   * @param options - see {@link LimiterOptions}.
   * @throws TypeError when `now` is not a function or `sweepIntervalMs` is not a
   *   non-negative integer.
   */
  constructor(options: LimiterOptions = {}) {
    const now = options.now ?? DEFAULTS.now;
    const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULTS.sweepIntervalMs;
    if (typeof now !== 'function') throw new TypeError('now must be a function');
    if (!Number.isSafeInteger(sweepIntervalMs) || sweepIntervalMs < 0) {
      throw new TypeError('sweepIntervalMs must be a non-negative integer');
    }
    this.#now = now;
    if (sweepIntervalMs > 0) {
      this.#timer = setInterval(() => this.sweep(), sweepIntervalMs);
      this.#timer.unref();
    }
  }

  /** Number of keys with state (for tests and the benchmark). */
  get size(): number {
    return this.#slots.size;
  }

  /**
   * Takes one token from both of a key's buckets when both hold one. A refused request
   * consumes nothing (docs/api.md §1: a 429 consumes no token).
   *
   * @param keyId - id of a known key (looked up before the limiter is asked).
   * @param plan - the key's current plan; its `perMinute` and `perDay` are the capacities.
   * @returns the decision, with the buckets as they are after this request.
   */
  take(keyId: string, plan: Plan): LimitDecision {
    const nowMs = this.#now();
    const slots = this.#slots;
    const slot = slots.find(keyId);
    let minute = slot === undefined ? plan.perMinute : this.#minuteTokensAt(slot, nowMs, plan);
    let day = slot === undefined ? plan.perDay : this.#dayTokensAt(slot, nowMs, plan);
    if (minute < 1 || day < 1) return limitDecision(false, minute, day, plan);
    minute -= 1;
    day -= 1;
    const base = (slot ?? slots.allocate(keyId)) * SLOT_FIELDS;
    const state = slots.state;
    state[base + MINUTE_TOKENS] = minute;
    state[base + DAY_TOKENS] = day;
    state[base + UPDATED_AT_MS] = nowMs;
    state[base + FULL_AT_MS] =
      nowMs +
      Math.max(msUntilFull(minute, plan.perMinute, MINUTE_WINDOW_MS), msUntilFull(day, plan.perDay, DAY_WINDOW_MS));
    return limitDecision(true, minute, day, plan);
  }

  /**
   * Reports a key's buckets without consuming a token (GET /api/v1/meta, docs/api.md §3).
   * Never creates state: a key with none is reported full.
   *
   * @param keyId - id of a known key.
   * @param plan - the key's current plan.
   * @returns what {@link take} would decide now, without its token: `allowed` is whether a
   *   request would pass, and the views show the buckets as they are.
   */
  peek(keyId: string, plan: Plan): LimitDecision {
    const slot = this.#slots.find(keyId);
    if (slot === undefined) return limitDecision(true, plan.perMinute, plan.perDay, plan);
    const nowMs = this.#now();
    const minute = this.#minuteTokensAt(slot, nowMs, plan);
    const day = this.#dayTokensAt(slot, nowMs, plan);
    return limitDecision(minute >= 1 && day >= 1, minute, day, plan);
  }

  /**
   * Forgets every key whose buckets have both refilled to full; forgetting them changes no
   * answer, since a key without state is full. Run by the timer every `sweepIntervalMs`;
   * O(keys with state) per run and never on the request path.
   */
  sweep(): void {
    this.#slots.releaseFull(this.#now());
  }

  /** Stops the sweep timer. The limiter still answers; idle buckets are no longer forgotten. */
  close(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    return Promise.resolve();
  }

  /** This process's own buckets: always `{ store: 'local', mode: 'shared' }`. */
  state(): LimiterStoreState {
    return LOCAL_STATE;
  }

  /** Tokens in the minute bucket of `slot` at `nowMs`, with the capacity of `plan`. */
  #minuteTokensAt(slot: number, nowMs: number, plan: Plan): number {
    const state = this.#slots.state;
    const base = slot * SLOT_FIELDS;
    return refill(state[base + MINUTE_TOKENS]!, state[base + UPDATED_AT_MS]!, nowMs, plan.perMinute, MINUTE_WINDOW_MS);
  }

  /** Tokens in the day bucket of `slot` at `nowMs`, with the capacity of `plan`. */
  #dayTokensAt(slot: number, nowMs: number, plan: Plan): number {
    const state = this.#slots.state;
    const base = slot * SLOT_FIELDS;
    return refill(state[base + DAY_TOKENS]!, state[base + UPDATED_AT_MS]!, nowMs, plan.perDay, DAY_WINDOW_MS);
  }
}

const LOCAL_STATE: LimiterStoreState = Object.freeze({ store: 'local', mode: 'shared' });
