/**
 * The rate-limit response headers of a limiter decision (docs/api.md §3): the `X-RateLimit-*`
 * figures, the IETF `RateLimit-Policy` and `RateLimit` fields
 * (draft-ietf-httpapi-ratelimit-headers, structured-field lists of RFC 9651), and
 * `Retry-After` on a refusal (RFC 9110 §10.2.3, delay-seconds).
 */

import type { LimitDecision } from './limiter-store.js';
import { DAY_WINDOW_MS, MINUTE_WINDOW_MS } from './token-bucket.js';

/** Window of the minute bucket in seconds, the `w` parameter of its policy. */
const MINUTE_WINDOW_SECONDS = MINUTE_WINDOW_MS / 1000;
/** Window of the day bucket in seconds, the `w` parameter of its policy. */
const DAY_WINDOW_SECONDS = DAY_WINDOW_MS / 1000;

/**
 * Names of every header {@link rateLimitHeaders} can return, in the order it returns them,
 * for the OpenAPI document. `Retry-After` is last and only sent on a refusal.
 */
export const RATE_LIMIT_HEADER_NAMES: readonly string[] = Object.freeze([
  'X-RateLimit-Limit-Minute',
  'X-RateLimit-Remaining-Minute',
  'X-RateLimit-Limit-Day',
  'X-RateLimit-Remaining-Day',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
]);

/**
 * `RateLimit-Policy` values already built. The limits come from the plan table, so there are as
 * many entries as plans: the value is built once per plan, not per request, and a lookup is a
 * few number comparisons.
 */
const policies: { readonly minuteLimit: number; readonly dayLimit: number; readonly value: string }[] = [];

/** Bound on {@link policies}, far above the number of plans; a guard, not a tuning knob. */
const MAX_CACHED_POLICIES = 64;

function policy(minuteLimit: number, dayLimit: number): string {
  for (const cached of policies) {
    if (cached.minuteLimit === minuteLimit && cached.dayLimit === dayLimit) return cached.value;
  }
  const value = `"minute";q=${minuteLimit};w=${MINUTE_WINDOW_SECONDS}, "day";q=${dayLimit};w=${DAY_WINDOW_SECONDS}`;
  if (policies.length >= MAX_CACHED_POLICIES) policies.length = 0;
  policies.push({ minuteLimit, dayLimit, value });
  return value;
}

/**
 * Appends the rate-limit header fields of a limiter decision to a flat field list (name, value,
 * name, value…), in this order: `X-RateLimit-Limit-Minute`, `X-RateLimit-Remaining-Minute`,
 * `X-RateLimit-Limit-Day`, `X-RateLimit-Remaining-Day` (whole numbers), `RateLimit-Policy`
 * (e.g. `"minute";q=60;w=60, "day";q=5000;w=86400`), `RateLimit` (e.g.
 * `"minute";r=41;t=1, "day";r=4711;t=18`, where `r` is the whole tokens remaining and `t` the
 * whole seconds until the next token, 0 when full), and, only when the request was refused,
 * `Retry-After` (whole seconds, at least 1). This is the request path's form: it allocates
 * only the `RateLimit` value.
 *
 * @param fields - the list to append to.
 * @param decision - from {@link Limiter.take} or {@link Limiter.peek}.
 */
export function appendRateLimitFields(fields: (string | number)[], decision: LimitDecision): void {
  const { minute, day } = decision;
  fields.push(
    'X-RateLimit-Limit-Minute', minute.limit,
    'X-RateLimit-Remaining-Minute', minute.remaining,
    'X-RateLimit-Limit-Day', day.limit,
    'X-RateLimit-Remaining-Day', day.remaining,
    'RateLimit-Policy', policy(minute.limit, day.limit),
    'RateLimit', `"minute";r=${minute.remaining};t=${minute.nextTokenSeconds}, "day";r=${day.remaining};t=${day.nextTokenSeconds}`,
  );
  if (!decision.allowed) fields.push('Retry-After', decision.retryAfterSeconds ?? 1);
}

/**
 * The rate-limit headers of a decision as `[name, value]` pairs with string values, in the
 * order of {@link appendRateLimitFields}.
 *
 * @param decision - from {@link Limiter.take} or {@link Limiter.peek}.
 * @returns a new array of pairs.
 */
export function rateLimitHeaders(decision: LimitDecision): [string, string][] {
  const fields: (string | number)[] = [];
  appendRateLimitFields(fields, decision);
  const pairs: [string, string][] = [];
  for (let i = 0; i < fields.length; i += 2) pairs.push([String(fields[i]), String(fields[i + 1])]);
  return pairs;
}
