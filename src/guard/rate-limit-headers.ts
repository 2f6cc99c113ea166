/**
 * The rate-limit response headers of a limiter decision (decisions §3): the `X-RateLimit-*`
 * figures, the IETF `RateLimit-Policy` and `RateLimit` fields
 * (draft-ietf-httpapi-ratelimit-headers, structured-field lists of RFC 9651), and
 * `Retry-After` on a refusal (RFC 9110 §10.2.3, delay-seconds).
 */

import type { LimitDecision } from './limiter.js';
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
 * `RateLimit-Policy` values by "perMinute/perDay". The limits come from the plan table, so
 * there are as many entries as plans: the value is built once per plan, not per request.
 */
const policyByLimits = new Map<string, string>();

/** Bound on {@link policyByLimits}, far above the number of plans; a guard, not a tuning knob. */
const MAX_CACHED_POLICIES = 64;

function policy(minuteLimit: number, dayLimit: number): string {
  const cacheKey = `${minuteLimit}/${dayLimit}`;
  let value = policyByLimits.get(cacheKey);
  if (value === undefined) {
    value = `"minute";q=${minuteLimit};w=${MINUTE_WINDOW_SECONDS}, "day";q=${dayLimit};w=${DAY_WINDOW_SECONDS}`;
    if (policyByLimits.size >= MAX_CACHED_POLICIES) policyByLimits.clear();
    policyByLimits.set(cacheKey, value);
  }
  return value;
}

/**
 * The rate-limit headers for a decision of the limiter, as name/value pairs in this order:
 * `X-RateLimit-Limit-Minute`, `X-RateLimit-Remaining-Minute`, `X-RateLimit-Limit-Day`,
 * `X-RateLimit-Remaining-Day`, `RateLimit-Policy` (e.g. `"minute";q=60;w=60, "day";q=5000;w=86400`),
 * `RateLimit` (e.g. `"minute";r=41;t=1, "day";r=4711;t=18`, where `r` is the whole tokens
 * remaining and `t` the whole seconds until the next token, 0 when full), and, only when the
 * request was refused, `Retry-After` (whole seconds, at least 1).
 *
 * @param decision - from {@link Limiter.take} or {@link Limiter.peek}.
 * @returns a new array of `[name, value]` pairs; values are strings.
 */
export function rateLimitHeaders(decision: LimitDecision): [string, string][] {
  const { minute, day } = decision;
  const headers: [string, string][] = [
    ['X-RateLimit-Limit-Minute', String(minute.limit)],
    ['X-RateLimit-Remaining-Minute', String(minute.remaining)],
    ['X-RateLimit-Limit-Day', String(day.limit)],
    ['X-RateLimit-Remaining-Day', String(day.remaining)],
    ['RateLimit-Policy', policy(minute.limit, day.limit)],
    ['RateLimit', `"minute";r=${minute.remaining};t=${minute.nextTokenSeconds}, "day";r=${day.remaining};t=${day.nextTokenSeconds}`],
  ];
  if (!decision.allowed) headers.push(['Retry-After', String(decision.retryAfterSeconds ?? 1)]);
  return headers;
}
