/**
 * Response headers as OpenAPI Header Objects (decisions §3 and §5). The guard and HTTP layers
 * set them; this module only describes them, with examples computed from the plan table.
 * Each is defined once in `components.headers` and referenced from the responses.
 */
import { VERSION_PATTERN } from '../data/snapshot-format.js';
import { PLANS, type Plan } from '../plans.js';
import { RATE_LIMIT_HEADER_NAMES } from '../guard/rate-limit-headers.js';
import { DAY_WINDOW_MS, MINUTE_WINDOW_MS } from '../guard/token-bucket.js';

/** An OpenAPI 3.1 Header Object or Reference Object, as plain JSON. */
export type HeaderObject = Record<string, unknown>;

/** Plan whose limits the examples show: the first paid plan, so the numbers are typical. */
const EXAMPLE_PLAN: Plan = PLANS.find((plan) => plan.summaries) ?? PLANS[0]!;

/** Seconds in the windows of the two token buckets (decisions §3), from the limiter's own constants. */
const MINUTE_SECONDS = MINUTE_WINDOW_MS / 1000;
const DAY_SECONDS = DAY_WINDOW_MS / 1000;
/** Requests already made in the examples, so that remaining counts look lived-in. */
const USED_MINUTE = 19;
const USED_DAY = 289;

/** Names of the rate-limit headers the limiter sends on every decision (Retry-After only on refusals, documented apart). */
const RATE_LIMIT_HEADERS = RATE_LIMIT_HEADER_NAMES.filter((name) => name !== 'Retry-After');

const integer = (minimum: number): Record<string, unknown> => ({ type: 'integer', minimum });
const header = (description: string, schema: Record<string, unknown>, example: unknown, required = true): HeaderObject =>
  ({ description, required, schema, example });
const ref = (name: string): HeaderObject => ({ $ref: `#/components/headers/${name}` });

/**
 * Builds `components.headers`: the rate-limit headers (IETF draft-ietf-httpapi-ratelimit-headers
 * fields beside the `X-RateLimit-*` ones), `Retry-After`, `X-Request-Id`, `X-Content-Type-Options`
 * and `WWW-Authenticate`.
 */
export function buildHeaderComponents(): Record<string, HeaderObject> {
  const remainingMinute = EXAMPLE_PLAN.perMinute - USED_MINUTE;
  const remainingDay = EXAMPLE_PLAN.perDay - USED_DAY;
  return {
    'X-RateLimit-Limit-Minute': header("Capacity of the key's minute token bucket: the plan's requests per minute.", integer(1), EXAMPLE_PLAN.perMinute),
    'X-RateLimit-Remaining-Minute': header('Whole tokens left in the minute bucket after this request.', integer(0), remainingMinute),
    'X-RateLimit-Limit-Day': header("Capacity of the key's day token bucket: the plan's requests per day.", integer(1), EXAMPLE_PLAN.perDay),
    'X-RateLimit-Remaining-Day': header('Whole tokens left in the day bucket after this request.', integer(0), remainingDay),
    'RateLimit-Policy': header('Both buckets as IETF RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers): ' +
      '`q` is the quota (bucket capacity), `w` the window in seconds.', { type: 'string' },
    `"minute";q=${EXAMPLE_PLAN.perMinute};w=${MINUTE_SECONDS}, "day";q=${EXAMPLE_PLAN.perDay};w=${DAY_SECONDS}`),
    'RateLimit': header('Both buckets as IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): ' +
      '`r` is the whole tokens remaining, `t` the seconds until the next token.', { type: 'string' },
    `"minute";r=${remainingMinute};t=1, "day";r=${remainingDay};t=18`),
    'Retry-After': header('Whole seconds to wait before retrying (RFC 9110 §10.2.3 delay-seconds), rounded up, at least 1. ' +
      'On 429: the time until the empty bucket holds one token.', integer(1), 1),
    'X-Request-Id': header('Identifier of this request, also in the server log and in the detail of a 500.',
      { type: 'string' }, 'b3c1e2f4-6a1d-4c6e-9a51-2f0c3d9e8a77'),
    'X-Content-Type-Options': header('Always `nosniff`: a browser must read the body as the JSON it is.', { type: 'string', const: 'nosniff' }, 'nosniff'),
    'WWW-Authenticate': header('The scheme that would succeed (RFC 9110 §11.6.1): `Bearer`, the key in `Authorization: Bearer <key>`.',
      { type: 'string', const: 'Bearer' }, 'Bearer'),
  };
}

/** Reference to `WWW-Authenticate`, sent on 401 (decisions §12). */
export function challengeHeader(): Record<string, HeaderObject> {
  return { 'WWW-Authenticate': ref('WWW-Authenticate') };
}

/** References to the rate-limit headers, sent on every response to a key that reached the limiter (decisions §3). */
export function rateLimitHeaders(): Record<string, HeaderObject> {
  return Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, ref(name)]));
}

/** Reference to `Retry-After`, sent on 429 and 503 (decisions §2). */
export function retryAfterHeader(): Record<string, HeaderObject> {
  return { 'Retry-After': ref('Retry-After') };
}

/**
 * Headers on every response (decisions §5, §12).
 *
 * @param snapshotRequired - whether `X-Snapshot-Version` is always present (false where the
 *   response can be sent while no snapshot is loaded).
 */
export function commonHeaders(snapshotRequired: boolean): Record<string, HeaderObject> {
  return {
    'X-Request-Id': ref('X-Request-Id'),
    'X-Content-Type-Options': ref('X-Content-Type-Options'),
    'X-Snapshot-Version': header('Version of the snapshot that answered' + (snapshotRequired ? '.' : '; absent while no snapshot is loaded.'),
      { type: 'string', pattern: VERSION_PATTERN.source }, '2026-11-02T06-00-00Z', snapshotRequired),
  };
}
