/**
 * Response headers as OpenAPI Header Objects (decisions §3 and §5). The guard layer sets them;
 * this module only describes them, with examples computed from the plan table.
 */
import { VERSION_PATTERN } from '../data/snapshot-format.js';
import { PLANS, type Plan } from '../plans.js';

/** An OpenAPI 3.1 Header Object, as plain JSON. */
export type HeaderObject = Record<string, unknown>;

/** Plan whose limits the examples show: the first paid plan, so the numbers are typical. */
const EXAMPLE_PLAN: Plan = PLANS.find((plan) => plan.summaries) ?? PLANS[0]!;

/** Seconds in the windows of the two token buckets (decisions §3). */
const MINUTE_SECONDS = 60;
const DAY_SECONDS = 86_400;

const integer = (minimum: number): Record<string, unknown> => ({ type: 'integer', minimum });

function header(description: string, schema: Record<string, unknown>, example: unknown, required: boolean): HeaderObject {
  return { description, required, schema, example };
}

/**
 * The four X-RateLimit headers, sent on every response to a key that reached the limiter
 * (200, 400 and 429 of counted routes, and meta; decisions §3).
 *
 * @param required - whether the response always carries them.
 */
export function rateLimitHeaders(required: boolean): Record<string, HeaderObject> {
  const policy = `"minute";q=${EXAMPLE_PLAN.perMinute};w=${MINUTE_SECONDS}, "day";q=${EXAMPLE_PLAN.perDay};w=${DAY_SECONDS}`;
  return {
    'X-RateLimit-Limit-Minute': header("Capacity of the key's minute token bucket: the plan's requests per minute.",
      integer(1), EXAMPLE_PLAN.perMinute, required),
    'X-RateLimit-Remaining-Minute': header('Whole tokens left in the minute bucket after this request.',
      integer(0), EXAMPLE_PLAN.perMinute - 19, required),
    'X-RateLimit-Limit-Day': header("Capacity of the key's day token bucket: the plan's requests per day.",
      integer(1), EXAMPLE_PLAN.perDay, required),
    'X-RateLimit-Remaining-Day': header('Whole tokens left in the day bucket after this request.',
      integer(0), EXAMPLE_PLAN.perDay - 289, required),
    'RateLimit-Policy': header('Both buckets as IETF RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers): ' +
      '`q` is the quota (capacity), `w` the window in seconds.', { type: 'string' }, policy, required),
    'RateLimit': header('Both buckets as IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): ' +
      '`r` is the whole tokens remaining, `t` the seconds until the next token.',
    { type: 'string' }, `"minute";r=${EXAMPLE_PLAN.perMinute - 19};t=1, "day";r=${EXAMPLE_PLAN.perDay - 289};t=18`, required),
  };
}

/** `Retry-After` on 429 and 503 (RFC 9110 §10.2.3, delay-seconds; decisions §3). */
export function retryAfterHeader(): Record<string, HeaderObject> {
  return {
    'Retry-After': header('Whole seconds to wait before retrying (RFC 9110 §10.2.3 delay-seconds), rounded up, at least 1. ' +
      'On 429: the time until the empty bucket holds one token.', integer(1), 1, true),
  };
}

/**
 * Headers on every response (decisions §5).
 *
 * @param snapshotRequired - whether `X-Snapshot-Version` is always present (false where the
 *   response can be sent while no snapshot is loaded).
 */
export function commonHeaders(snapshotRequired: boolean): Record<string, HeaderObject> {
  return {
    'X-Request-Id': header('Identifier of this request, also in the server log and in the detail of a 500.',
      { type: 'string' }, 'b3c1e2f4-6a1d-4c6e-9a51-2f0c3d9e8a77', true),
    'X-Snapshot-Version': header('Version of the snapshot that answered' +
      (snapshotRequired ? '.' : '; absent while no snapshot is loaded.'), { type: 'string', pattern: VERSION_PATTERN.source }, '2026-11-02T06-00-00Z', snapshotRequired),
  };
}
