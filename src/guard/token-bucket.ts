/**
 * Token-bucket arithmetic with lazy, continuous refill (docs/api.md §3). A bucket is a pair
 * (tokens, updatedAtMs); nothing here keeps state or starts a timer: the caller stores the
 * pair and asks these functions what it is worth at another instant. The capacity is the
 * plan's limit per window and the bucket refills at `capacity / window` tokens per
 * millisecond, so an empty bucket is full again exactly one window later.
 */

/** Length of the minute window in milliseconds (docs/api.md §3: refill limit/60 per second). */
export const MINUTE_WINDOW_MS = 60_000;

/** Length of the day window in milliseconds (docs/api.md §3: refill limit/86400 per second). */
export const DAY_WINDOW_MS = 86_400_000;

/**
 * Token counts this close to a whole number are taken as that whole number, so that
 * binary rounding in `elapsed × capacity / window` (for example 0.1 + 0.2) never turns one
 * whole token into 0.9999999999 and reports a token too few or a second too many.
 */
const WHOLE_TOKEN_TOLERANCE = 1e-9;

/**
 * Tokens in a bucket at `nowMs`, given what it held at `updatedAtMs`.
 *
 * @param tokens - tokens held at `updatedAtMs`; may be fractional.
 * @param updatedAtMs - instant of that count, in ms on the caller's clock.
 * @param nowMs - instant asked about, in ms on the same clock. A clock that went backwards
 *   counts as no time elapsed: the bucket never loses tokens to refill.
 * @param capacity - largest number of tokens (the plan's limit per window), > 0.
 * @param windowMs - time in ms in which an empty bucket refills to `capacity`, > 0.
 * @returns tokens held at `nowMs`, at most `capacity`. A count above `capacity` (the plan
 *   shrank since the last update) is clamped to it.
 */
export function refill(
  tokens: number,
  updatedAtMs: number,
  nowMs: number,
  capacity: number,
  windowMs: number,
): number {
  const elapsedMs = nowMs > updatedAtMs ? nowMs - updatedAtMs : 0;
  // Multiply before dividing: for whole seconds on the plan table this is exact.
  const refilled = tokens + (elapsedMs * capacity) / windowMs;
  if (refilled >= capacity) return capacity;
  const whole = Math.round(refilled);
  return Math.abs(refilled - whole) < WHOLE_TOKEN_TOLERANCE ? whole : refilled;
}

/**
 * Whole seconds until a bucket holding `tokens` holds `target` tokens, rounded up
 * (RFC 9110 §10.2.3 delay-seconds are whole seconds).
 *
 * @param tokens - tokens held now.
 * @param target - tokens wanted, at most `capacity`.
 * @param capacity - the bucket's capacity, > 0.
 * @param windowMs - the bucket's refill window in ms, > 0.
 * @returns 0 when `tokens >= target`, else the ceiling of the wait in seconds (so >= 1).
 */
export function secondsUntil(tokens: number, target: number, capacity: number, windowMs: number): number {
  if (tokens >= target) return 0;
  const waitMs = ((target - tokens) * windowMs) / capacity;
  // Forgive binary rounding just above a whole second (6000.000000001 ms is 6 s, not 7).
  return Math.max(1, Math.ceil(waitMs / 1000 - WHOLE_TOKEN_TOLERANCE));
}

/**
 * What a bucket shows a client: the figures of the `X-RateLimit-*` and `RateLimit` fields
 * (draft-ietf-httpapi-ratelimit-headers) and of the meta row's `usage`.
 */
export interface BucketFigures {
  /** Capacity: requests per window. */
  limit: number;
  /** Whole tokens held (Math.floor). */
  remaining: number;
  /** Whole seconds until the bucket is full again (ceil; 0 when full). */
  resetSeconds: number;
  /** Whole seconds until it holds one more whole token (ceil, >= 1 when not full; 0 when full). */
  nextTokenSeconds: number;
}

/**
 * The client-facing figures of a bucket holding `tokens`.
 *
 * @param tokens - tokens held now, 0 ≤ tokens ≤ capacity.
 * @param capacity - the bucket's capacity (the plan's limit per window), > 0.
 * @param windowMs - the bucket's refill window in ms ({@link MINUTE_WINDOW_MS} or {@link DAY_WINDOW_MS}).
 */
export function bucketFigures(tokens: number, capacity: number, windowMs: number): BucketFigures {
  const remaining = Math.floor(tokens);
  return {
    limit: capacity,
    remaining,
    resetSeconds: secondsUntil(tokens, capacity, capacity, windowMs),
    nextTokenSeconds: secondsUntil(tokens, Math.min(capacity, remaining + 1), capacity, windowMs),
  };
}

/**
 * Milliseconds until a bucket holding `tokens` is full.
 *
 * @param tokens - tokens held now, ≤ capacity.
 * @param capacity - the bucket's capacity, > 0.
 * @param windowMs - the bucket's refill window in ms, > 0.
 * @returns 0 when full, else the exact wait in ms (not rounded).
 */
export function msUntilFull(tokens: number, capacity: number, windowMs: number): number {
  return tokens >= capacity ? 0 : ((capacity - tokens) * windowMs) / capacity;
}
